//! OAuth tokens never reach the audit log, even when a server echoes them back under an
//! innocent key: tests/fixtures/faults/oauth_server.py in mode `echo-token` (a real server with
//! its own authorization server) answers `whoami` with the bearer token it was called with and
//! its refresh token as `{"note": …, "memo": …}`. Signed in through the loopback prompt in the
//! real keyring (run under `scripts/with-keyring.sh`), a call from the app's live session and
//! one from a CLI-style connection are both recorded with the tokens redacted, and neither token
//! is anywhere in the data directory.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use crate::support::oauth::{browser_prompt, fixture_and_host};
use gatehouse_host::secrets::{KeyringStore, oauth};
use gatehouse_host::{
    AuditFilter, AuditKind, CallOutcome, ServerInput, ServerSpec, ServerStatus, ServerTransport,
    Source, ToolCall,
};
use gatehouse_mcp::CallOptions;

const SETTLE: Duration = Duration::from_secs(30);

fn whoami() -> ToolCall {
    ToolCall {
        tool: "whoami".into(),
        arguments: Some(serde_json::json!({})),
        source: Source::User,
        caller: None,
    }
}

#[tokio::test]
async fn a_server_echoing_its_tokens_under_innocent_keys_leaves_them_out_of_the_audit_log() {
    let (fixture, dir, host) = fixture_and_host("echo-token").await;
    let added = host
        .add_server(ServerInput {
            name: "remote".into(),
            enabled: true,
            roots: Vec::new(),
            spec: ServerSpec::Http {
                url: fixture.url(),
                transport: ServerTransport::StreamableHttp,
                headers: Vec::new(),
                oauth: Default::default(),
            },
        })
        .await
        .expect("add");
    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::AuthRequired { .. })
    })
    .await;
    let (prompt, _visits) = browser_prompt(SETTLE).await;
    host.sign_in("remote", prompt).await.expect("signs in");
    support::status_until(&host, "remote", SETTLE, |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
    let tokens = oauth::tokens(&KeyringStore, &added.config.id)
        .await
        .expect("keyring")
        .expect("signed in");
    let access = tokens.access_token.expose().clone();
    let refresh = tokens.refresh_token.expect("refresh").expose().clone();

    // From the app's live session.
    let outcome = host
        .call_tool(
            &added.config.id,
            whoami(),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("call");
    let CallOutcome::Done(result) = outcome else {
        panic!("not cancelled");
    };
    let echoed = serde_json::to_string(&result.structured_content).expect("json");
    assert!(
        echoed.contains(&access) && echoed.contains(&refresh),
        "the fixture echoes both tokens, so the test means something: {echoed}"
    );

    // From a short-lived connection, as a CLI command makes.
    let connection = host
        .connect("remote", |config| {
            Arc::new(gatehouse_host::server_requests::HostHandler::for_config(
                config,
            ))
        })
        .await
        .expect("connect");
    let called = connection
        .call_tool(whoami(), CallOptions::default(), std::future::pending())
        .await;
    connection.close(called).await.expect("call");

    let rows = host
        .audit()
        .list(&AuditFilter {
            server: Some("remote".into()),
            tool: Some("whoami".into()),
            ..AuditFilter::default()
        })
        .await
        .expect("audit");
    let finished: Vec<_> = rows
        .iter()
        .filter(|r| r.event.kind == AuditKind::CallFinished)
        .collect();
    assert_eq!(finished.len(), 2, "both calls are on record: {rows:#?}");
    for row in finished {
        let detail = &row.event.detail;
        assert_eq!(
            detail["structuredContent"],
            serde_json::json!({"note": "[redacted]", "memo": "[redacted]"}),
            "the tokens are hidden by value, whatever key they come under"
        );
        let text = detail["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            text.contains("[redacted]") && !text.contains(&access),
            "{text}"
        );
    }
    let all = serde_json::to_string(&rows).expect("json");
    assert!(!all.contains(&access) && !all.contains(&refresh), "{all}");
    host.shutdown().await;
    for token in [&access, &refresh] {
        let found = support::files_containing(dir.path(), token);
        assert!(found.is_empty(), "a token is in {found:?}");
    }
}
