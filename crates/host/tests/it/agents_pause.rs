//! Pause all agents, against server-everything's `echo` on a real SQLite file: an agent's call
//! an allow rule lets through is asked about while the agents are paused (a standing grant does
//! not answer for it, a deny rule still denies it unasked, the person's own calls go on as
//! before), refused when nobody can be asked, and let through again after the resume; each
//! change is on the audit log as the person's and sent as an engine event.

use crate::support;

use std::time::Duration;

use crate::support::gate::{connect_everything, echo_as, tool_rule};
use gatehouse_host::approvals::{Answer, Scope};
use gatehouse_host::policy::{Effect, Rule};
use gatehouse_host::{AuditFilter, AuditKind, EngineEvent, Host, Source};
use serde_json::json;
use tokio::sync::broadcast;

/// A rule with `effect` on `echo` for the gateway's client `client`.
fn client_rule(server_id: &str, client: &str, effect: Effect) -> Rule {
    Rule {
        source: Some(Source::Gateway),
        client: Some(client.to_owned()),
        ..tool_rule(server_id, "echo", effect)
    }
}

/// The next `AgentsPaused` event, within 10 s.
async fn next_pause_event(events: &mut broadcast::Receiver<EngineEvent>) -> bool {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match events.recv().await {
                Ok(EngineEvent::AgentsPaused { paused }) => return paused,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => panic!("the engine's events ended"),
            }
        }
    })
    .await
    .expect("step: the pause is announced as an engine event")
}

/// The `agents_paused` changes on the audit log, oldest first: (source, paused).
async fn pause_rows(host: &Host) -> Vec<(Option<String>, bool)> {
    let mut rows = host
        .audit_rows(&AuditFilter::default())
        .await
        .expect("audit rows");
    rows.sort_by_key(|r| r.seq);
    rows.into_iter()
        .filter(|r| r.event.kind == AuditKind::PolicyChange)
        .filter(|r| r.event.detail["change"] == json!("agents_paused"))
        .map(|r| {
            let paused = r.event.detail["paused"].as_bool().expect("paused");
            (r.event.source, paused)
        })
        .collect()
}

#[tokio::test]
async fn an_agents_allowed_call_is_asked_while_paused_and_allowed_again_after_resume() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut events = host.subscribe();
    let mut asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Session,
        arguments: None,
        covers: None,
    });
    let connection = connect_everything(&host).await;
    let server_id = connection.server_id().to_owned();
    host.add_rule(client_rule(&server_id, "claude-code", Effect::Allow))
        .await
        .expect("allow claude-code");
    host.add_rule(client_rule(&server_id, "cursor", Effect::Deny))
        .await
        .expect("deny cursor");
    let agent =
        |message: &'static str| echo_as(&connection, Source::Gateway, Some("claude-code"), message);

    assert!(!host.agents_paused());
    agent("before").await.expect("allowed by its rule");
    assert!(
        asked.try_recv().is_err(),
        "nobody is asked before the pause"
    );

    assert!(host.set_agents_paused(true).await.expect("pause"));
    assert!(host.agents_paused());
    assert!(next_pause_event(&mut events).await);
    assert!(
        !host.set_agents_paused(true).await.expect("pause again"),
        "pausing paused agents changes nothing"
    );

    agent("paused")
        .await
        .expect("asked, and allowed by the person");
    let question = asked.try_recv().expect("the person was asked");
    assert_eq!(question.source, Source::Gateway);
    assert_eq!(question.caller.as_deref(), Some("claude-code"));
    // The person allowed it for the session: while paused, that grant does not answer either.
    agent("paused again").await.expect("asked again");
    asked
        .try_recv()
        .expect("asked again, the grant notwithstanding");
    // A deny rule still denies, unasked; the person's own call goes on as before.
    let refused = echo_as(&connection, Source::Gateway, Some("cursor"), "denied")
        .await
        .expect_err("cursor's deny rule holds");
    assert_eq!(refused.code(), "denied", "{refused}");
    echo_as(&connection, Source::User, None, "mine")
        .await
        .expect("the person's own call");
    assert!(asked.try_recv().is_err(), "neither was asked about");

    assert!(host.set_agents_paused(false).await.expect("resume"));
    assert!(!next_pause_event(&mut events).await);
    agent("after").await.expect("allowed by its rule again");
    assert!(
        asked.try_recv().is_err(),
        "nobody is asked after the resume"
    );

    assert_eq!(
        pause_rows(&host).await,
        [
            (Some("user".to_owned()), true),
            (Some("user".to_owned()), false)
        ],
        "the pause and the resume are on record, as the person's, once each"
    );
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn an_agents_call_is_denied_while_paused_when_nobody_can_be_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    host.set_attended(false);
    let connection = connect_everything(&host).await;
    host.add_rule(client_rule(
        connection.server_id(),
        "claude-code",
        Effect::Allow,
    ))
    .await
    .expect("allow claude-code");
    host.set_agents_paused(true).await.expect("pause");
    let refused = echo_as(&connection, Source::Gateway, Some("claude-code"), "paused")
        .await
        .expect_err("nobody can be asked");
    assert_eq!(refused.code(), "denied", "{refused}");
    assert!(
        refused.to_string().contains("all agents are paused"),
        "the refusal says why: {refused}"
    );
    host.set_agents_paused(false).await.expect("resume");
    echo_as(&connection, Source::Gateway, Some("claude-code"), "resumed")
        .await
        .expect("allowed by its rule again");
    connection.close(Ok(())).await.expect("close");
}
