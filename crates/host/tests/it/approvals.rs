//! Approvals against a real server (server-everything over stdio): a call the policy asks about
//! waits in the engine's queue until a person answers. Each answer is tested: allow once (with
//! edited arguments), for the session, for a time, always, deny; and no answer: a timeout,
//! nobody to ask, a server that reconnects while the call waits. A tool that changed since a
//! rule allowed it is asked about again, with what changed. Every decision is on record with
//! who made it.

use crate::support;

use std::time::Duration;

use crate::support::gate::{audited, connect_everything, first_text, tool_rule};
use gatehouse_host::approvals::{Answer, PendingApproval, Question, Scope};
use gatehouse_host::policy::{Covers, Effect, Rule};
use gatehouse_host::{
    AuditKind, AuditRow, Host, HostOptions, ServerConnection, Source, ToolCall, VerifyReport,
};
use gatehouse_mcp::CallOptions;
use serde_json::json;

/// An MCP App's `echo` call: no rule allows it, so the person is asked.
fn app_echo(message: &str) -> ToolCall {
    ToolCall {
        tool: "echo".into(),
        arguments: Some(json!({ "message": message })),
        source: Source::App,
        caller: None,
    }
}

async fn call(connection: &ServerConnection, message: &str) -> gatehouse_host::Result<String> {
    connection
        .call_tool(
            app_echo(message),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .map(first_text)
}

fn allow(scope: Scope) -> impl Fn(&PendingApproval) -> Answer + Send + 'static {
    move |_| Answer::Allow {
        scope,
        arguments: None,
        covers: None,
    }
}

/// Allows for `scope`, with the grant covering any arguments (the person's explicit choice; an
/// app's grant covers only the arguments asked about otherwise).
fn allow_any(scope: Scope) -> impl Fn(&PendingApproval) -> Answer + Send + 'static {
    move |_| Answer::Allow {
        scope,
        arguments: None,
        covers: Some(Covers::Any),
    }
}

/// The decision rows of `echo`, oldest first.
async fn decisions(host: &Host) -> Vec<AuditRow> {
    audited(host, "echo")
        .await
        .into_iter()
        .filter(|r| r.event.kind == AuditKind::Decision)
        .collect()
}

fn summary(row: &AuditRow) -> (String, String) {
    (
        row.event.decision.clone().unwrap_or_default(),
        row.event.detail["answeredBy"]
            .as_str()
            .unwrap_or("-")
            .to_owned(),
    )
}

#[tokio::test]
async fn allow_once_runs_the_edited_arguments_and_records_who_answered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, |pending| {
        let Question::ToolCall { arguments, .. } = &pending.question else {
            panic!("a tool call is asked about: {pending:?}");
        };
        let edited = (arguments["message"] == "as sent").then(|| json!({"message": "as edited"}));
        Answer::Allow {
            scope: Scope::Once,
            arguments: edited,
            covers: None,
        }
    });
    let connection = connect_everything(&host).await;
    let text = call(&connection, "as sent").await.expect("allowed");
    assert!(text.contains("as edited"), "the edited call ran: {text}");
    let question = asked.recv().await.expect("asked");
    assert_eq!(
        (question.server.as_str(), question.source),
        ("everything", Source::App)
    );
    let Question::ToolCall {
        input_schema,
        definition_hash,
        ..
    } = question.question
    else {
        panic!("a tool call");
    };
    assert!(input_schema["properties"]["message"].is_object());
    assert_eq!(definition_hash.map(|h| h.len()), Some(64));

    // Once is once: the next call is asked about again.
    call(&connection, "again").await.expect("allowed again");
    assert!(asked.recv().await.is_some(), "asked again");
    connection.close(Ok(())).await.expect("close");

    let rows = decisions(&host).await;
    let seen: Vec<(String, String)> = rows.iter().map(summary).collect();
    let expected = [
        ("ask", "-"),
        ("allow", "person"),
        ("ask", "-"),
        ("allow", "person"),
    ];
    assert_eq!(
        seen,
        expected.map(|(a, b)| (a.to_owned(), b.to_owned())),
        "the wait and the person's answer are both on record"
    );
    assert_eq!(
        rows[1].event.detail["editedArguments"]["message"],
        "as edited"
    );
    assert!(matches!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { .. }
    ));
}

#[tokio::test]
async fn a_session_grant_covers_the_tool_until_it_is_revoked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, allow_any(Scope::Session));
    let connection = connect_everything(&host).await;
    call(&connection, "first").await.expect("allowed");
    call(&connection, "second")
        .await
        .expect("covered by the grant");
    assert!(asked.recv().await.is_some());
    assert!(
        asked.try_recv().is_err(),
        "the second call was not asked about"
    );

    let grants = host.grants().await.expect("grants");
    assert_eq!(grants.len(), 1, "{grants:?}");
    assert_eq!(grants[0].tool, "echo");
    assert_eq!(grants[0].server.as_deref(), Some("everything"));
    let used = decisions(&host).await;
    assert_eq!(
        summary(used.last().expect("rows")),
        ("allow".to_owned(), "grant".to_owned())
    );

    host.revoke_grant(&grants[0].id).await.expect("revoke");
    call(&connection, "third").await.expect("allowed");
    assert!(
        asked.recv().await.is_some(),
        "a revoked grant covers nothing"
    );
    connection.close(Ok(())).await.expect("close");

    // Another Gatehouse process (another CLI command) does not share this session's grant.
    let other = support::open_host(dir.path(), false).await;
    let connection = connect_everything(&other).await;
    let refused = call(&connection, "elsewhere")
        .await
        .expect_err("nobody to ask there");
    assert_eq!(refused.code(), "denied", "{refused}");
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn a_timed_grant_holds_everywhere_until_it_expires() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, allow_any(Scope::For { minutes: 10 }));
    let connection = connect_everything(&host).await;
    call(&connection, "first").await.expect("allowed");
    assert!(asked.recv().await.is_some());
    let grants = host.grants().await.expect("grants");
    assert!(grants[0].expires_at.is_some(), "{grants:?}");

    // Another process, with nobody to ask, is covered by the timed grant.
    let other = support::open_host(dir.path(), false).await;
    let elsewhere = connect_everything(&other).await;
    call(&elsewhere, "elsewhere")
        .await
        .expect("covered in every process");

    // Once expired (moved into the past in the real database), it covers nothing.
    sqlx::query("UPDATE grants SET expires_at = '2000-01-01T00:00:00.000Z'")
        .execute(host.store().pool())
        .await
        .expect("expire");
    let refused = call(&elsewhere, "late").await.expect_err("expired");
    assert_eq!(refused.code(), "denied", "{refused}");
    assert!(
        host.grants().await.expect("grants").is_empty(),
        "expired grants are cleared"
    );
    elsewhere.close(Ok(())).await.expect("close");
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn always_makes_a_rule_for_the_tools_current_definition() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, allow(Scope::Always));
    let connection = connect_everything(&host).await;
    call(&connection, "first").await.expect("allowed");
    let Question::ToolCall {
        definition_hash, ..
    } = asked.recv().await.expect("asked").question
    else {
        panic!("a tool call");
    };
    let rules = host.rules().await.expect("rules");
    assert_eq!(rules.len(), 1, "{rules:?}");
    assert_eq!(
        (
            rules[0].tool.as_deref(),
            rules[0].decision,
            &rules[0].definition_hash
        ),
        (Some("echo"), Effect::Allow, &definition_hash)
    );
    connection.close(Ok(())).await.expect("close");

    let other = support::open_host(dir.path(), false).await;
    let elsewhere = connect_everything(&other).await;
    call(&elsewhere, "by rule")
        .await
        .expect("the rule allows it everywhere");
    elsewhere.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn a_denial_never_reaches_the_server_and_says_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let _asked = support::answer_with(&host, |_| Answer::Deny {
        reason: Some("not this one".into()),
    });
    let connection = connect_everything(&host).await;
    let refused = call(&connection, "no").await.expect_err("denied");
    assert_eq!(refused.code(), "denied");
    assert!(refused.to_string().contains("not this one"), "{refused}");
    connection.close(Ok(())).await.expect("close");
    let rows = audited(&host, "echo").await;
    assert!(
        rows.iter().all(|r| r.event.kind != AuditKind::CallFinished),
        "nothing was sent, so nothing came back"
    );
    assert_eq!(
        summary(rows.last().expect("the newest row")),
        ("deny".to_owned(), "person".to_owned())
    );
}

#[tokio::test]
async fn no_answer_in_time_and_nobody_to_ask_are_refusals_that_name_the_rule_to_add() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().into()),
        approval_timeout: Some(Duration::from_millis(300)),
        ..Default::default()
    })
    .await
    .expect("open");
    let connection = connect_everything(&host).await;

    let unattended = call(&connection, "nobody")
        .await
        .expect_err("refused at once");
    let message = unattended.to_string();
    assert!(
        message.contains("nobody can be asked")
            && message.contains("gatehouse policy set everything --tool echo --source app allow"),
        "{message}"
    );

    host.set_attended(true);
    let timed_out = call(&connection, "late").await.expect_err("times out");
    assert!(
        timed_out.to_string().contains("nobody answered"),
        "{timed_out}"
    );
    assert!(host.pending_approvals().is_empty());
    connection.close(Ok(())).await.expect("close");
    let by: Vec<String> = decisions(&host)
        .await
        .iter()
        .map(|r| summary(r).1)
        .collect();
    assert_eq!(by, ["nobody", "-", "timeout"]);
}

#[tokio::test]
async fn a_tool_changed_since_its_rule_is_asked_about_with_what_changed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, allow(Scope::Once));
    let connection = connect_everything(&host).await;
    let id = connection.server_id().to_owned();
    let current = connection
        .client()
        .list_tools()
        .await
        .expect("tools")
        .items
        .into_iter()
        .find(|t| t.name == "echo")
        .expect("echo");
    // The definition the person once approved, as the server showed it then.
    let mut then: gatehouse_mcp::Tool = current.clone();
    then.description = Some("Echoes back the input".into());
    host.gate()
        .tools_listed(&id, std::slice::from_ref(&then))
        .await
        .expect("history");
    support::wait::next_millisecond().await;
    // The server shows it as it is now (the gate keeps what is listed).
    host.gate()
        .tools_listed(&id, std::slice::from_ref(&current))
        .await
        .expect("history");
    host.add_rule(Rule {
        definition_hash: Some(gatehouse_host::gate::definition::definition_hash(&then)),
        ..tool_rule(&id, "echo", Effect::Allow)
    })
    .await
    .expect("rule");

    call(&connection, "after the change")
        .await
        .expect("allowed once");
    let question = asked.recv().await.expect("asked again");
    assert!(question.reason.contains("changed"), "{}", question.reason);
    let Question::ToolCall { changes, .. } = question.question else {
        panic!("a tool call");
    };
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].field, "description");
    assert_eq!(changes[0].before, json!("Echoes back the input"));
    assert_eq!(changes[0].after, json!(current.description));
    assert!(host.rules().await.expect("rules")[0].stale);
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn a_waiting_call_ends_when_its_server_reconnects() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    host.set_attended(true);
    let id = host
        .add_server(support::everything("everything"))
        .await
        .expect("add")
        .config
        .id;
    support::settled(&host, "everything").await;
    let waiting = host.call_tool(
        &id,
        app_echo("waits"),
        CallOptions::default(),
        std::future::pending(),
    );
    let reconnect = async {
        support::wait::until(
            "the call reaches the person",
            Duration::from_secs(2),
            || async {
                let pending = host.pending_approvals();
                if pending.is_empty() {
                    Err(pending)
                } else {
                    Ok(())
                }
            },
        )
        .await;
        assert_eq!(
            host.pending_approvals().len(),
            1,
            "the call waits for a person"
        );
        host.reconnect(&id).await.expect("reconnect");
    };
    let (ended, ()) = tokio::join!(waiting, reconnect);
    let error = ended.expect_err("its connection is gone");
    assert_eq!(error.code(), "not_connected", "{error}");
    assert!(
        host.pending_approvals().is_empty(),
        "nothing is left waiting for an answer that can go nowhere"
    );
    host.shutdown().await;
}
