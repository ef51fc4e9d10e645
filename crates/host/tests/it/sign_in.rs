//! Signing in to an HTTP server behind OAuth (tests/fixtures/faults/oauth_server.py, a real
//! server with its own authorization server), in the real keyring (run under
//! `scripts/with-keyring.sh`): the live session shows `AuthRequired` and is not retried; a
//! sign-in through the loopback prompt, with the test playing the browser, connects it with its
//! tools; the tokens are in the keyring and nowhere in the data directory (SQLite, the audit
//! log); `auth_status` tells the issuer, scopes and expiry; signing out deletes them and the
//! server needs authorization again; a kept token that expired is refreshed by a background
//! connection; a legacy HTTP+SSE server signs in too; a scope a background call was refused
//! for (403 `insufficient_scope`) is asked for at the next sign-in. A stdio server has no
//! sign-in.

use crate::support;

use std::time::Duration;

use crate::support::oauth::{OAuthServer, browser_prompt, fixture_and_host};
use gatehouse_host::connect::open_client;
use gatehouse_host::secrets::{KeyringStore, oauth};
use gatehouse_host::{
    AuditFilter, ServerInput, ServerSpec, ServerStatus, ServerTransport, sign_in::AuthStatus,
};

const SETTLE: Duration = Duration::from_secs(30);

fn http(name: &str, url: &str) -> ServerInput {
    ServerInput {
        name: name.to_owned(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Http {
            url: url.to_owned(),
            transport: ServerTransport::StreamableHttp,
            headers: Vec::new(),
            oauth: Default::default(),
        },
    }
}

#[tokio::test]
async fn signing_in_connects_the_server_and_signing_out_needs_authorization_again() {
    let (fixture, dir, host) = fixture_and_host("plain").await;
    let added = host
        .add_server(http("remote", &fixture.url()))
        .await
        .expect("add");
    let id = added.config.id.clone();
    let status = support::status_until(&host, "remote", SETTLE, |s| {
        !matches!(s, ServerStatus::Connecting)
    })
    .await;
    assert!(
        matches!(status, ServerStatus::AuthRequired { .. }),
        "a background connection never signs in: {status:?}"
    );
    let before = host.auth_status("remote").await.expect("status");
    assert!(!before.signed_in, "{before:?}");

    let (prompt, mut visits) = browser_prompt(Duration::from_secs(30)).await;
    let redirect =
        gatehouse_mcp::auth::AuthorizationPrompt::redirect_uri(prompt.as_ref()).to_owned();
    assert!(
        redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"),
        "{redirect}"
    );
    let signed = host.sign_in("remote", prompt).await.expect("signs in");
    let visit = visits.recv().await.expect("the browser was opened");
    assert!(visit.url.starts_with(&redirect), "{visit:?}");
    assert_eq!(visit.status, 200, "{visit:?}");
    assert!(
        visit
            .page
            .contains("Signed in to Gatehouse. You can close this tab."),
        "{visit:?}"
    );
    assert!(signed.signed_in && signed.refreshable, "{signed:?}");
    assert_eq!(signed.issuer.as_deref(), Some(fixture.issuer().as_str()));
    let expires = signed
        .expires_at
        .clone()
        .expect("the fixture says expires_in");
    assert!(
        expires.ends_with('Z') && expires.len() == "2026-11-25T04:00:00Z".len(),
        "{expires}"
    );
    assert_eq!(host.auth_status(&id).await.expect("status"), signed);

    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
    let tools = host.tools("remote").await.expect("tools");
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");

    let kept = oauth::tokens(&KeyringStore, &id)
        .await
        .expect("keyring")
        .expect("the tokens are in the keyring");
    let access = kept.access_token.expose().clone();
    let refresh = kept
        .refresh_token
        .as_ref()
        .expect("refresh")
        .expose()
        .clone();
    assert!(access.starts_with("at-"), "the fixture's token");
    let status_json = serde_json::to_string(&signed).expect("json");
    assert!(!status_json.contains(&access), "{status_json}");

    let rows = host
        .audit()
        .list(&AuditFilter {
            server: Some("remote".into()),
            ..AuditFilter::default()
        })
        .await
        .expect("audit");
    assert!(
        rows.iter().any(|r| r.event.detail["auth"] == "signed_in"),
        "the sign-in is on record: {rows:#?}"
    );
    for token in [&access, &refresh] {
        for needle in [format!("\"{token}\""), format!("Bearer {token}")] {
            let found = support::files_containing(dir.path(), needle.as_bytes());
            assert!(found.is_empty(), "{needle} found in {found:?}");
        }
    }

    host.sign_out("remote").await.expect("signs out");
    assert_eq!(
        oauth::tokens(&KeyringStore, &id).await.expect("keyring"),
        None,
        "signing out deletes the tokens"
    );
    let after: AuthStatus = host.auth_status("remote").await.expect("status");
    assert!(!after.signed_in && after.issuer.is_none(), "{after:?}");
    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::AuthRequired { .. })
    })
    .await;
    let rows = host
        .audit()
        .list(&AuditFilter {
            server: Some("remote".into()),
            ..AuditFilter::default()
        })
        .await
        .expect("audit");
    assert!(
        rows.iter().any(|r| r.event.detail["auth"] == "signed_out"),
        "the sign-out is on record"
    );

    host.remove_server("remote").await.expect("remove");
    oauth::delete_client(&KeyringStore, &fixture.issuer())
        .await
        .expect("clean up");
    host.shutdown().await;
}

#[tokio::test]
async fn signing_in_again_while_connected_replaces_the_tokens() {
    let (fixture, _dir, host) = fixture_and_host("plain").await;
    let id = host
        .add_server(http("remote", &fixture.url()))
        .await
        .expect("add")
        .config
        .id;
    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    host.sign_in("remote", prompt).await.expect("signs in");
    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
    let first = oauth::tokens(&KeyringStore, &id)
        .await
        .expect("keyring")
        .expect("tokens");

    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    host.sign_in("remote", prompt)
        .await
        .expect("signs in again");
    let second = oauth::tokens(&KeyringStore, &id)
        .await
        .expect("keyring")
        .expect("tokens");
    assert_ne!(first.access_token, second.access_token, "new tokens");
    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
    host.tools("remote")
        .await
        .expect("tools with the new token");

    host.remove_server("remote").await.expect("remove");
    assert_eq!(
        oauth::tokens(&KeyringStore, &id).await.expect("keyring"),
        None,
        "removing the server deletes its tokens"
    );
    oauth::delete_client(&KeyringStore, &fixture.issuer())
        .await
        .expect("clean up");
    host.shutdown().await;
}

#[tokio::test]
async fn a_stdio_server_has_no_sign_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    host.add_server(support::stdio("local", "true", Vec::new()))
        .await
        .expect("add");
    let error = host.auth_status("local").await.expect_err("stdio");
    assert_eq!(error.code(), "validation", "{error}");
    assert!(error.to_string().contains("stdio"), "{error}");
    let error = host.sign_out("local").await.expect_err("stdio");
    assert_eq!(error.code(), "validation", "{error}");
    host.shutdown().await;
}

#[tokio::test]
async fn a_background_connection_refreshes_kept_tokens_without_a_person() {
    // Tokens of the `short-lived` fixture live 4 s; the refresh token stays good.
    let (fixture, _dir, host) = fixture_and_host("short-lived").await;
    let id = host
        .add_server(http("remote", &fixture.url()))
        .await
        .expect("add")
        .config
        .id;
    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    host.sign_in("remote", prompt).await.expect("signs in");
    let first = oauth::tokens(&KeyringStore, &id)
        .await
        .expect("keyring")
        .expect("tokens");

    // Five seconds on: the token has expired.
    support::oauth::age_tokens(&id, "remote", 5).await;
    host.restart_server("remote").await.expect("restart");
    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
    let second = oauth::tokens(&KeyringStore, &id)
        .await
        .expect("keyring")
        .expect("tokens");
    assert_ne!(
        first.access_token, second.access_token,
        "the expired token was refreshed and the new one kept"
    );
    assert!(host.auth_status("remote").await.expect("status").signed_in);

    host.remove_server("remote").await.expect("remove");
    oauth::delete_client(&KeyringStore, &fixture.issuer())
        .await
        .expect("clean up");
    host.shutdown().await;
}

#[tokio::test]
async fn a_legacy_sse_server_signs_in_too() {
    let (fixture, _dir, host) = fixture_and_host("sse").await;
    let mut input = http("legacy", &format!("http://127.0.0.1:{}/sse", fixture.port));
    if let ServerSpec::Http { transport, .. } = &mut input.spec {
        *transport = ServerTransport::Sse;
    }
    host.add_server(input).await.expect("add");
    let status = support::status_until(&host, "legacy", SETTLE, |s| {
        !matches!(s, ServerStatus::Connecting)
    })
    .await;
    assert!(
        matches!(status, ServerStatus::AuthRequired { .. }),
        "{status:?}"
    );
    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    let signed = host.sign_in("legacy", prompt).await.expect("signs in");
    assert_eq!(signed.issuer.as_deref(), Some(fixture.issuer().as_str()));
    support::status_until(&host, "legacy", SETTLE, |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
    let tools = host.tools("legacy").await.expect("tools");
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");

    host.remove_server("legacy").await.expect("remove");
    oauth::delete_client(&KeyringStore, &fixture.issuer())
        .await
        .expect("clean up");
    host.shutdown().await;
}

#[tokio::test]
async fn a_configured_client_signs_in_where_registration_is_refused_its_secret_only_in_the_keyring()
{
    // The authorization server refuses dynamic registration: only a client registered
    // beforehand (2025-11-25 basic/authorization, "Client Registration Approaches") gets in.
    let fixture = OAuthServer::start("register-refused").await;
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let secret = format!("client-secret-{}", std::process::id());
    let mut input = http("configured", &fixture.url());
    if let ServerSpec::Http { oauth, .. } = &mut input.spec {
        *oauth = gatehouse_host::OAuthClientSettings {
            issuer: Some(fixture.issuer()),
            client_id: Some("pre-registered".into()),
            client_secret: Some(secret.clone()),
            ..Default::default()
        };
    }
    let added = host.add_server(input).await.expect("add");
    let ServerSpec::Http { oauth, .. } = &added.config.spec else {
        panic!("http")
    };
    assert_eq!(
        oauth.client_secret.as_deref(),
        Some(""),
        "read back blank: the secret is in the keyring"
    );
    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    let signed = host.sign_in("configured", prompt).await.expect("signs in");
    assert!(signed.signed_in, "{signed:?}");
    assert!(
        fixture.log("register").await.is_empty(),
        "a configured client does not register"
    );
    let tokens = fixture.log("token").await;
    assert_eq!(
        tokens[0]["client"],
        format!("basic:pre-registered:{secret}"),
        "the configured client, its secret from the keyring: {tokens:?}"
    );
    assert!(
        support::files_containing(dir.path(), secret.as_bytes()).is_empty(),
        "the client secret is nowhere in the data directory"
    );
    host.shutdown().await;

    // Without it, the same server cannot be signed in to: registration is refused.
    let other = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(other.path(), true).await;
    host.add_server(http("unconfigured", &fixture.url()))
        .await
        .expect("add");
    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    let error = host
        .sign_in("unconfigured", prompt)
        .await
        .expect_err("registration refused");
    assert!(
        error
            .to_string()
            .contains("loopback redirect URIs are not allowed"),
        "{error}"
    );
    assert!(
        error.to_string().contains("OAuth client settings"),
        "the person is told where to enter a client: {error}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_client_credentials_server_connects_with_no_person_its_secret_only_in_the_keyring() {
    // The OAuth client credentials extension: the pre-registered client gets its own tokens, so
    // a background connection needs nobody to sign in.
    let (fixture, dir, host) = fixture_and_host("plain").await;
    let secret = format!("machine-secret-{}", std::process::id());
    let mut input = http("machine", &fixture.url());
    if let ServerSpec::Http { oauth, .. } = &mut input.spec {
        *oauth = gatehouse_host::OAuthClientSettings {
            issuer: Some(fixture.issuer()),
            client_id: Some("machine-client".into()),
            client_secret: Some(secret.clone()),
            grant: gatehouse_host::OAuthGrant::ClientCredentials,
            ..Default::default()
        };
    }
    host.add_server(input).await.expect("add");
    let status = support::status_until(&host, "machine", SETTLE, |s| {
        !matches!(s, ServerStatus::Connecting)
    })
    .await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "connected without anyone signing in: {status:?}"
    );
    let tools = host.tools("machine").await.expect("tools");
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");
    let grants = fixture.log("client_credentials").await;
    assert_eq!(grants.len(), 1, "{grants:?}");
    let tokens = fixture.log("token").await;
    assert_eq!(
        tokens[0]["client"],
        format!("basic:machine-client:{secret}"),
        "{tokens:?}"
    );
    assert!(
        fixture.log("authorize").await.is_empty(),
        "nobody was sent to sign in"
    );
    assert!(
        support::files_containing(dir.path(), secret.as_bytes()).is_empty(),
        "the client secret is nowhere in the data directory"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_scope_a_background_call_was_refused_for_is_asked_for_at_the_next_sign_in() {
    // 2025-11-25 basic/authorization, "Scope Challenge Handling"; 2026-07-28 "Step-Up
    // Authorization Flow". The fixture's 401 asks for mcp:read; its `write` tool answers 403
    // insufficient_scope naming mcp:write to a token without it.
    let (fixture, _dir, host) = fixture_and_host("step-up").await;
    let config = host
        .add_server(http("remote", &fixture.url()))
        .await
        .expect("add")
        .config;
    let id = config.id.clone();
    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    host.sign_in("remote", prompt).await.expect("signs in");

    // A background connection (the CLI's, the sessions'): nobody to ask.
    let client = open_client(&config, host.registry())
        .await
        .expect("connects with the kept token");
    let error = client
        .call_tool(
            "write",
            Some(serde_json::json!({})),
            gatehouse_mcp::CallOptions::default(),
        )
        .await
        .expect_err("the token lacks mcp:write");
    assert_eq!(error.http_status(), Some(401), "{error}");
    assert!(error.to_string().contains("mcp:write"), "{error}");
    client.close().await.expect("close");
    let kept = oauth::tokens(&KeyringStore, &id)
        .await
        .expect("keyring")
        .expect("tokens");
    assert_eq!(kept.step_up_scopes, ["mcp:write"], "kept for the sign-in");

    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    host.sign_in("remote", prompt)
        .await
        .expect("signs in again");
    let asked: Vec<_> = fixture
        .log("authorize")
        .await
        .iter()
        .map(|e| e["query"]["scope"].clone())
        .collect();
    assert_eq!(
        asked,
        [
            serde_json::json!("mcp:read"),
            serde_json::json!("mcp:read mcp:write")
        ]
    );
    let kept = oauth::tokens(&KeyringStore, &id)
        .await
        .expect("keyring")
        .expect("tokens");
    assert!(kept.step_up_scopes.is_empty(), "{kept:?}");

    let client = open_client(&config, host.registry())
        .await
        .expect("connects with the new token");
    let result = client
        .call_tool(
            "write",
            Some(serde_json::json!({})),
            gatehouse_mcp::CallOptions::default(),
        )
        .await
        .expect("tools/call with mcp:write");
    assert!(!result.is_error, "{result:?}");
    client.close().await.expect("close");

    host.remove_server("remote").await.expect("remove");
    oauth::delete_client(&KeyringStore, &fixture.issuer())
        .await
        .expect("clean up");
    host.shutdown().await;
}
