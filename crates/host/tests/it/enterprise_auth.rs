//! The authorization extensions a person configures for a server, against
//! tests/fixtures/faults/oauth_server.py (an MCP server, its authorization server, and an
//! enterprise identity provider), in the real keyring (run under `scripts/with-keyring.sh`):
//!
//! - workload identity (the JWT-bearer grant): the server connects with the JWT in the
//!   configured file and nobody signs in; a rotated file is read again for the next token
//!   request; a missing or empty file is an error naming it;
//! - enterprise-managed authorization: the live session needs a sign-in; the sign-in is at the
//!   identity provider (OpenID Connect, the test playing the browser), and the server's tokens
//!   come from the token exchange and the JWT-bearer grant, never from the authorization
//!   server's authorize endpoint; a second server of the same identity provider connects with
//!   no sign-in of its own; an expired ID token with no refresh token needs a sign-in again.
//!
//! The workload JWT, the ID token and the ID-JAG are nowhere in the data directory.

use crate::support;

use std::time::Duration;

use crate::support::oauth::{OAuthServer, browser_prompt, fixture_and_host};
use gatehouse_host::secrets::{KeyringStore, oauth};
use gatehouse_host::{OAuthClientSettings, OAuthGrant, ServerInput, ServerSpec, ServerStatus};

const SETTLE: Duration = Duration::from_secs(30);

/// The status of `name` once it has left `connecting` (within [`SETTLE`]).
async fn settled(host: &gatehouse_host::Host, name: &str) -> ServerStatus {
    support::status_until(host, name, SETTLE, |s| {
        !matches!(s, ServerStatus::Connecting)
    })
    .await
}

/// Waits (within [`SETTLE`]) until `name` is connected.
async fn connected(host: &gatehouse_host::Host, name: &str) -> ServerStatus {
    support::status_until(host, name, SETTLE, |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await
}

fn server(name: &str, url: &str, oauth: OAuthClientSettings) -> ServerInput {
    let mut input = support::http(name, url);
    if let ServerSpec::Http {
        oauth: settings,
        transport,
        ..
    } = &mut input.spec
    {
        *settings = oauth;
        *transport = gatehouse_host::ServerTransport::StreamableHttp;
    }
    input
}

/// A workload JWT the fixture accepts (`iss` https://workload.example, `aud` its issuer).
fn workload_jwt(issuer: &str, n: u32) -> String {
    let encode = |v: serde_json::Value| base64url(v.to_string().as_bytes());
    let exp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs()
        + 3600;
    format!(
        "{}.{}.sig{n}",
        encode(serde_json::json!({"alg": "RS256"})),
        encode(serde_json::json!({
            "iss": "https://workload.example", "sub": format!("workload-{n}-{}", std::process::id()),
            "aud": issuer, "exp": exp
        }))
    )
}

/// Base64url without padding (RFC 4648 §5), for the test's JWTs.
fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

fn wif(fixture: &OAuthServer, file: &std::path::Path) -> OAuthClientSettings {
    OAuthClientSettings {
        issuer: Some(fixture.issuer()),
        client_id: Some("workload-client".into()),
        grant: OAuthGrant::JwtBearer,
        assertion_file: Some(file.display().to_string()),
        ..OAuthClientSettings::default()
    }
}

#[tokio::test]
async fn a_workload_identity_server_connects_with_the_files_jwt_and_reads_it_again_after_rotation()
{
    let fixture = OAuthServer::start("plain").await;
    let dir = tempfile::tempdir().expect("temp dir");
    let token_dir = tempfile::tempdir().expect("token dir");
    let file = token_dir.path().join("token");
    let first = workload_jwt(&fixture.issuer(), 1);
    std::fs::write(&file, format!("{first}\n")).expect("token file");
    let host = support::open_host(dir.path(), true).await;
    host.start().await.expect("start");
    host.add_server(server("workload", &fixture.url(), wif(&fixture, &file)))
        .await
        .expect("add");
    let status = settled(&host, "workload").await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "connected with the workload's JWT, nobody signing in: {status:?}"
    );
    let tools = host.tools("workload").await.expect("tools");
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");
    let grants = fixture.log("jwt_bearer").await;
    assert_eq!(grants.len(), 1, "{grants:?}");
    assert_eq!(
        grants[0]["assertion"],
        first.as_str(),
        "the file's JWT, trimmed"
    );
    assert_eq!(grants[0]["client"], "none:workload-client");
    let status = host.auth_status("workload").await.expect("status");
    assert_eq!(status.grant, "jwt-bearer");
    assert!(status.signed_in, "{status:?}");

    // The platform rotates the token; the next token request reads the file again.
    let second = workload_jwt(&fixture.issuer(), 2);
    std::fs::write(&file, &second).expect("rotated");
    host.sign_out("workload").await.expect("drops the tokens");
    connected(&host, "workload").await;
    let grants = fixture.log("jwt_bearer").await;
    assert_eq!(
        grants.last().map(|g| g["assertion"].clone()),
        Some(serde_json::Value::from(second.as_str())),
        "the rotated JWT: {grants:?}"
    );
    assert!(
        fixture.log("authorize").await.is_empty(),
        "nobody signed in"
    );
    for jwt in [&first, &second] {
        let found = support::files_containing(dir.path(), jwt);
        assert!(found.is_empty(), "the workload JWT is in {found:?}");
    }
    host.remove_server("workload").await.expect("remove");
    host.shutdown().await;
}

#[tokio::test]
async fn a_missing_or_empty_workload_token_file_is_an_error_naming_it() {
    let fixture = OAuthServer::start("plain").await;
    let dir = tempfile::tempdir().expect("temp dir");
    let token_dir = tempfile::tempdir().expect("token dir");
    let file = token_dir.path().join("not-there");
    let host = support::open_host(dir.path(), true).await;
    host.start().await.expect("start");
    host.add_server(server("workload", &fixture.url(), wif(&fixture, &file)))
        .await
        .expect("add");
    let status = settled(&host, "workload").await;
    let ServerStatus::AuthRequired { message } = &status else {
        panic!("no tokens without the JWT: {status:?}")
    };
    assert!(
        message.contains(&format!(
            "cannot read the workload identity token file {}",
            file.display()
        )),
        "{message}"
    );
    std::fs::write(&file, "  \n").expect("empty file");
    let (prompt, _visits) = browser_prompt(Duration::from_secs(5)).await;
    let error = host
        .sign_in("workload", prompt)
        .await
        .expect_err("an empty file");
    assert!(
        error.to_string().contains(&format!(
            "the workload identity token file {} is empty",
            file.display()
        )),
        "{error}"
    );
    assert!(fixture.log("jwt_bearer").await.is_empty());
    host.shutdown().await;
}

fn ema(fixture: &OAuthServer, client_id: &str) -> OAuthClientSettings {
    OAuthClientSettings {
        issuer: Some(fixture.issuer()),
        client_id: Some(client_id.into()),
        grant: OAuthGrant::EnterpriseManaged,
        idp_issuer: Some(fixture.idp_issuer()),
        idp_client_id: Some(format!("gatehouse-{}", fixture.port)),
        ..OAuthClientSettings::default()
    }
}

#[tokio::test]
async fn one_sign_in_at_the_identity_provider_serves_every_server_using_it() {
    let (fixture, dir, host) = fixture_and_host("plain").await;
    host.add_server(server("first", &fixture.url(), ema(&fixture, "mcp-client")))
        .await
        .expect("add");
    let status = settled(&host, "first").await;
    assert!(
        matches!(status, ServerStatus::AuthRequired { .. }),
        "nobody signed in at the identity provider yet: {status:?}"
    );
    let before = host.auth_status("first").await.expect("status");
    assert_eq!(before.grant, "enterprise-managed");
    assert_eq!(before.idp_issuer, Some(fixture.idp_issuer()));
    assert_eq!(before.idp_signed_in, Some(false));

    let (prompt, mut visits) = browser_prompt(Duration::from_secs(30)).await;
    let signed = host.sign_in("first", prompt).await.expect("signs in");
    let visit = visits.recv().await.expect("the browser was opened");
    assert_eq!(visit.status, 200, "{visit:?}");
    assert!(signed.signed_in, "{signed:?}");
    assert_eq!(signed.idp_signed_in, Some(true));
    assert_eq!(signed.issuer, Some(fixture.issuer()));
    let at_idp = fixture.log("idp_authorize").await;
    assert_eq!(at_idp.len(), 1, "{at_idp:?}");
    let query = &at_idp[0]["query"];
    assert_eq!(query["scope"], "openid");
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(
        query["nonce"].as_str().is_some_and(|n| n.len() > 16),
        "{query}"
    );
    let exchanges = fixture.log("token_exchange").await;
    assert_eq!(exchanges.len(), 1, "{exchanges:?}");
    assert_eq!(exchanges[0]["audience"], fixture.issuer());
    assert_eq!(exchanges[0]["resource"], fixture.url());
    let grants = fixture.log("jwt_bearer").await;
    assert_eq!(grants.len(), 1, "{grants:?}");
    assert_eq!(grants[0]["jag"], true, "the ID-JAG: {grants:?}");
    assert_eq!(grants[0]["client"], "none:mcp-client");
    connected(&host, "first").await;
    let tools = host.tools("first").await.expect("tools");
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");
    let declared = fixture.log("mcp").await;
    assert!(
        declared.iter().any(|e| e["status"] == 200
            && e["extensions"].as_array().is_some_and(|names| names
                .iter()
                .any(|n| n == "io.modelcontextprotocol/enterprise-managed-authorization"))),
        "the connection declares the extension: {declared:?}"
    );

    // A second server of the same identity provider: no sign-in of its own.
    host.add_server(server(
        "second",
        &fixture.url(),
        ema(&fixture, "mcp-client-2"),
    ))
    .await
    .expect("add");
    let status = settled(&host, "second").await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "the kept IdP sign-in serves it: {status:?}"
    );
    assert_eq!(
        fixture.log("idp_authorize").await.len(),
        1,
        "no second sign-in"
    );
    assert_eq!(fixture.log("token_exchange").await.len(), 2);
    assert!(
        fixture.log("authorize").await.is_empty(),
        "never a browser at the MCP authorization server"
    );

    // Nothing of the sign-in is in the data directory (SQLite, the audit log, server logs).
    let session = oauth::idp_session(
        &KeyringStore,
        &fixture.idp_issuer(),
        &format!("gatehouse-{}", fixture.port),
    )
    .await
    .expect("keyring")
    .expect("the IdP sign-in is kept in the keyring");
    let jag = grants[0]["assertion"].as_str().expect("jag").to_owned();
    for secret in [session.id_token.expose().as_str(), jag.as_str()] {
        let found = support::files_containing(dir.path(), secret);
        assert!(found.is_empty(), "found in {found:?}");
    }

    // Signing out of a server keeps the IdP sign-in; forgetting it needs a sign-in again.
    host.sign_out("second").await.expect("signs out");
    connected(&host, "second").await;
    host.forget_idp_sign_in("first").await.expect("forgets");
    assert_eq!(
        host.auth_status("first")
            .await
            .expect("status")
            .idp_signed_in,
        Some(false)
    );
    host.sign_out("first").await.expect("signs out");
    support::status_until(&host, "first", SETTLE, |s| {
        matches!(s, ServerStatus::AuthRequired { .. })
    })
    .await;

    host.remove_server("first").await.expect("remove");
    host.remove_server("second").await.expect("remove");
    host.shutdown().await;
}

/// The fixture in `mode`, and a live host in a fresh data directory whose enterprise-managed
/// server `remote` needed authorization and was signed in to.
async fn signed_in_remote(mode: &str) -> (OAuthServer, tempfile::TempDir, gatehouse_host::Host) {
    let (fixture, dir, host) = fixture_and_host(mode).await;
    host.add_server(server(
        "remote",
        &fixture.url(),
        ema(&fixture, "mcp-client"),
    ))
    .await
    .expect("add");
    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::AuthRequired { .. })
    })
    .await;
    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    host.sign_in("remote", prompt).await.expect("signs in");
    (fixture, dir, host)
}

#[tokio::test]
async fn an_expired_id_token_without_a_refresh_token_needs_a_new_sign_in() {
    // `ema-short`: the identity provider's ID tokens live 3 s and come without a refresh token.
    let (fixture, _dir, host) = signed_in_remote("ema-short").await;
    connected(&host, "remote").await;
    assert_eq!(fixture.log("token_exchange").await.len(), 1);

    // Four seconds on: the ID token has expired.
    let idp_client = format!("gatehouse-{}", fixture.port);
    support::oauth::age_idp_session(&fixture.idp_issuer(), &idp_client, 4).await;
    assert_eq!(
        host.auth_status("remote")
            .await
            .expect("status")
            .idp_signed_in,
        Some(false),
        "the ID token expired"
    );
    // The server's own tokens are gone (signed out): new ones need the expired ID token.
    host.sign_out("remote").await.expect("signs out");
    let status = settled(&host, "remote").await;
    assert!(
        matches!(status, ServerStatus::AuthRequired { .. }),
        "{status:?}"
    );
    assert_eq!(fixture.log("token_exchange").await.len(), 1, "not tried");

    let (prompt, _visits) = browser_prompt(Duration::from_secs(30)).await;
    host.sign_in("remote", prompt)
        .await
        .expect("signs in again at the identity provider");
    assert_eq!(fixture.log("idp_authorize").await.len(), 2);
    connected(&host, "remote").await;
    assert!(fixture.log("authorize").await.is_empty());
    host.forget_idp_sign_in("remote").await.expect("clean up");
    host.remove_server("remote").await.expect("remove");
    host.shutdown().await;
}

#[tokio::test]
async fn an_expired_id_token_is_refreshed_at_the_identity_provider_without_a_person() {
    // `ema-refresh`: ID tokens live 3 s, and the identity provider gives a refresh token.
    let (fixture, _dir, host) = signed_in_remote("ema-refresh").await;
    let idp_client = format!("gatehouse-{}", fixture.port);
    let first = oauth::idp_session(&KeyringStore, &fixture.idp_issuer(), &idp_client)
        .await
        .expect("keyring")
        .expect("kept");

    // Four seconds on: the ID token has expired.
    support::oauth::age_idp_session(&fixture.idp_issuer(), &idp_client, 4).await;
    let status = host.auth_status("remote").await.expect("status");
    assert_eq!(status.idp_signed_in, Some(true), "expired but refreshable");
    host.sign_out("remote")
        .await
        .expect("drops the server's tokens");
    let status = settled(&host, "remote").await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "the ID token was refreshed and exchanged: {status:?}"
    );
    let refreshes: Vec<_> = fixture
        .log("idp_token")
        .await
        .into_iter()
        .filter(|e| e["grant_type"] == "refresh_token")
        .collect();
    assert_eq!(refreshes.len(), 1, "{refreshes:?}");
    let second = oauth::idp_session(&KeyringStore, &fixture.idp_issuer(), &idp_client)
        .await
        .expect("keyring")
        .expect("kept");
    assert_ne!(first.id_token, second.id_token, "the new ID token is kept");
    assert_eq!(
        fixture.log("idp_authorize").await.len(),
        1,
        "nobody signed in again"
    );
    host.forget_idp_sign_in("remote").await.expect("clean up");
    host.remove_server("remote").await.expect("remove");
    host.shutdown().await;
}
