//! Rules and grants for one client of the gateway, against server-everything's `echo` on a real
//! SQLite file: a rule for one agent denies it and leaves another to the default (ask) or to its
//! own rule; a client's rule is more specific than one for the gateway; "always" answered for
//! an agent's call is a rule for that agent; a grant one agent was given does not serve another;
//! and a database made before rules could name a client keeps its rules, while a row that names
//! a client with another source is refused.

use crate::support;

use std::path::Path;

use crate::support::gate::{audited, connect_everything, echo_as, tool_rule};
use gatehouse_host::approvals::{Answer, PendingApproval, Scope};
use gatehouse_host::policy::{Covers, Effect, Rule};
use gatehouse_host::{AuditKind, Host, ServerConnection, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde_json::json;

/// `echo {message}` from the gateway's client `client`; the echoed text, or the refusal.
async fn echo_from(
    connection: &ServerConnection,
    client: &str,
    message: &str,
) -> gatehouse_host::Result<String> {
    echo_as(connection, Source::Gateway, Some(client), message).await
}

/// A rule with `effect` on `echo` for the gateway's client `client`.
fn client_rule(connection: &ServerConnection, client: &str, effect: Effect) -> Rule {
    Rule {
        source: Some(Source::Gateway),
        client: Some(client.to_owned()),
        ..tool_rule(connection.server_id(), "echo", effect)
    }
}

/// The clients asked about so far, in order.
fn asked_clients(asked: &mut tokio::sync::mpsc::UnboundedReceiver<PendingApproval>) -> Vec<String> {
    let mut seen = Vec::new();
    while let Ok(pending) = asked.try_recv() {
        assert_eq!(pending.source, Source::Gateway, "{pending:?}");
        seen.push(pending.caller.unwrap_or_default());
    }
    seen
}

/// A host whose person allows every question once, and the questions it was asked.
async fn host_allowing_once(
    dir: &Path,
) -> (Host, tokio::sync::mpsc::UnboundedReceiver<PendingApproval>) {
    let host = support::open_host(dir, false).await;
    let asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Once,
        arguments: None,
        covers: None,
    });
    (host, asked)
}

#[tokio::test]
async fn a_rule_for_one_client_denies_it_and_leaves_another_to_the_default_or_its_own_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (host, mut asked) = host_allowing_once(dir.path()).await;
    let connection = connect_everything(&host).await;
    let deny = host
        .add_rule(client_rule(&connection, "cursor", Effect::Deny))
        .await
        .expect("a rule for cursor");

    let refused = echo_from(&connection, "cursor", "from cursor")
        .await
        .expect_err("cursor's rule denies it");
    assert_eq!(refused.code(), "denied", "{refused}");
    assert!(
        refused.to_string().contains(&deny.id),
        "the refusal names the rule: {refused}"
    );
    let echoed = echo_from(&connection, "claude-code", "from claude")
        .await
        .expect("asked, and allowed");
    assert!(echoed.contains("from claude"), "{echoed}");
    assert_eq!(
        asked_clients(&mut asked),
        ["claude-code"],
        "cursor is denied unasked; claude-code, with no rule, is asked"
    );

    host.add_rule(client_rule(&connection, "claude-code", Effect::Allow))
        .await
        .expect("a rule for claude-code");
    echo_from(&connection, "claude-code", "by its own rule")
        .await
        .expect("allowed by its rule");
    echo_from(&connection, "cursor", "still")
        .await
        .expect_err("claude-code's rule is not cursor's");
    assert_eq!(asked_clients(&mut asked), Vec::<String>::new());

    // Each request's rows share a correlation: its client (on the row that received it) and
    // what was decided (the ask row aside).
    let rows = audited(&host, "echo").await;
    let decisions: Vec<(String, String)> = rows
        .iter()
        .filter(|row| row.event.kind == AuditKind::RequestReceived)
        .map(|received| {
            let decided = rows
                .iter()
                .filter(|row| row.event.kind == AuditKind::Decision)
                .filter(|row| row.event.correlation == received.event.correlation)
                .filter_map(|row| row.event.decision.clone())
                .find(|decision| decision != "ask")
                .unwrap_or_default();
            let caller = received.event.detail["caller"].as_str().unwrap_or_default();
            (caller.to_owned(), decided)
        })
        .collect();
    let expected = [
        ("cursor", "deny"),
        ("claude-code", "allow"),
        ("claude-code", "allow"),
        ("cursor", "deny"),
    ]
    .map(|(c, d)| (c.to_owned(), d.to_owned()));
    assert_eq!(decisions, expected, "each decision names its client");
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn a_clients_rule_is_more_specific_than_the_gateways_and_always_is_for_the_client_that_asked()
{
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let connection = connect_everything(&host).await;
    host.add_rule(Rule {
        source: Some(Source::Gateway),
        ..tool_rule(connection.server_id(), "echo", Effect::Deny)
    })
    .await
    .expect("deny echo to every agent");
    host.add_rule(client_rule(&connection, "claude-code", Effect::Allow))
        .await
        .expect("but allow it to claude-code");
    echo_from(&connection, "claude-code", "mine")
        .await
        .expect("its own rule is the more specific");
    echo_from(&connection, "cursor", "mine too")
        .await
        .expect_err("the gateway's rule holds for the others");
    connection.close(Ok(())).await.expect("close");

    // "Always", answered for one agent's call, allows that agent alone.
    let other_dir = tempfile::tempdir().expect("temp dir");
    let other = support::open_host(other_dir.path(), false).await;
    let mut asked = support::answer_with(&other, |_| Answer::Allow {
        scope: Scope::Always,
        arguments: None,
        covers: None,
    });
    let elsewhere = connect_everything(&other).await;
    echo_from(&elsewhere, "zed", "first")
        .await
        .expect("asked, and allowed always");
    echo_from(&elsewhere, "zed", "again")
        .await
        .expect("allowed by the rule made");
    echo_from(&elsewhere, "vscode", "me?")
        .await
        .expect("asked, and allowed always");
    assert_eq!(asked_clients(&mut asked), ["zed", "vscode"]);
    let rules = other.rules().await.expect("rules");
    let mut made: Vec<(Option<Source>, Option<&str>)> = rules
        .iter()
        .map(|r| (r.source, r.client.as_deref()))
        .collect();
    made.sort_by_key(|(_, client)| *client);
    assert_eq!(
        made,
        [
            (Some(Source::Gateway), Some("vscode")),
            (Some(Source::Gateway), Some("zed"))
        ],
        "one rule per agent, each for the agent that was asked: {rules:?}"
    );
    elsewhere.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn a_grant_one_client_was_given_does_not_serve_another() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Session,
        arguments: None,
        covers: Some(Covers::Any),
    });
    let connection = connect_everything(&host).await;
    echo_from(&connection, "claude-code", "first")
        .await
        .expect("asked, and allowed for the session");
    echo_from(&connection, "claude-code", "second")
        .await
        .expect("covered by its grant");
    echo_from(&connection, "cursor", "second")
        .await
        .expect("asked, and allowed");
    assert_eq!(
        asked_clients(&mut asked),
        ["claude-code", "cursor"],
        "claude-code's grant does not let cursor through unasked"
    );
    let grants = host.grants().await.expect("grants");
    let holders: Vec<(Source, Option<&str>)> = grants
        .iter()
        .map(|g| (g.source, g.caller.as_deref()))
        .collect();
    assert_eq!(
        holders,
        [
            (Source::Gateway, Some("claude-code")),
            (Source::Gateway, Some("cursor"))
        ]
    );
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn rules_made_before_clients_keep_working_and_a_client_row_must_be_the_gateways() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("gatehouse.db");
    // The schema as it was before rules could name a client: every migration older than it.
    let pool = support::database_before(&db, "20261129100000").await;
    // Global rules as the Gatehouse of that schema wrote them: one for every source, one for
    // the gateway.
    for (id, effect, source) in [
        ("r-every", "allow", None),
        ("r-gateway", "deny", Some("gateway")),
    ] {
        sqlx::query("INSERT INTO policy_rules (id, effect, source) VALUES (?, ?, ?)")
            .bind(id)
            .bind(effect)
            .bind(source)
            .execute(&pool)
            .await
            .expect("a rule of the older schema");
    }
    pool.close().await;

    let host = support::open_host(dir.path(), false).await;
    let rules = host.rules().await.expect("rules");
    let read: Vec<(&str, Option<Source>, Option<&str>)> = rules
        .iter()
        .map(|r| (r.id.as_str(), r.source, r.client.as_deref()))
        .collect();
    assert_eq!(
        read,
        [
            ("r-every", None, None),
            ("r-gateway", Some(Source::Gateway), None)
        ]
    );
    let connection = connect_everything(&host).await;
    let refused = echo_from(&connection, "cursor", "old rules")
        .await
        .expect_err("the gateway's global deny holds for every client");
    assert!(refused.to_string().contains("r-gateway"), "{refused}");
    let call = ToolCall {
        tool: "echo".into(),
        arguments: Some(json!({ "message": "old rules" })),
        source: Source::Model,
        caller: None,
    };
    connection
        .call_tool(call, CallOptions::default(), std::future::pending())
        .await
        .expect("the rule for every source still allows a model");
    connection.close(Ok(())).await.expect("close");

    // A row naming a client for another source is refused by the database itself.
    for source in [Some("user"), None] {
        let written = sqlx::query(
            "INSERT INTO policy_rules (id, effect, source, caller) VALUES ('r-x', 'allow', ?, 'cursor')",
        )
        .bind(source)
        .execute(host.store().pool())
        .await;
        let error = written.expect_err("a client rule that is not the gateway's");
        assert!(
            error.to_string().contains("must be for the source gateway"),
            "{source:?}: {error}"
        );
    }
    let moved = sqlx::query("UPDATE policy_rules SET caller = 'cursor' WHERE id = 'r-every'")
        .execute(host.store().pool())
        .await;
    assert!(
        moved.is_err(),
        "an old rule cannot be made a client's without its source"
    );
    sqlx::query(
        "INSERT INTO policy_rules (id, effect, source, caller) VALUES ('r-y', 'deny', 'gateway', 'cursor')",
    )
    .execute(host.store().pool())
    .await
    .expect("a gateway rule may name its client");
    assert_eq!(host.rules().await.expect("rules").len(), 3);
}
