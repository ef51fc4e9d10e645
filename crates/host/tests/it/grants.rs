//! A grant answers only the question it was given for (server-everything's `echo` over stdio,
//! asked about for an MCP App): by default only the arguments the person saw, only the source
//! that asked, only the rule that asked; "any arguments" is the person's explicit choice;
//! "always" for an app is a rule for apps. Edited arguments meet the deny rules again, and a
//! tool that changes while the person is asked (a scripted server that changes it on demand)
//! is asked about again, or refused once it is gone.

use crate::support;

use std::time::Duration;

use crate::support::gate::{audited, connect, connect_everything, echo_as, first_text, tool_rule};
use gatehouse_host::approvals::{Answer, PendingApproval, Question, Scope};
use gatehouse_host::policy::{ArgumentMatch, Covers, Effect, Pattern, Rule};
use gatehouse_host::{AuditKind, EngineEvent, Host, ServerConnection, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde_json::{Value, json};

/// `echo {message}` from `source`; the echoed text, or the refusal.
async fn echo(
    connection: &ServerConnection,
    source: Source,
    message: &str,
) -> gatehouse_host::Result<String> {
    echo_as(connection, source, None, message).await
}

/// Adds a rule with `effect` on the `echo` calls of `connection`'s server whose message
/// matches `glob`.
async fn message_rule(
    host: &Host,
    connection: &ServerConnection,
    glob: &str,
    effect: Effect,
) -> Rule {
    host.add_rule(Rule {
        argument: Some(ArgumentMatch {
            pointer: "/message".into(),
            pattern: Pattern::Glob(glob.into()),
            outside: false,
        }),
        ..tool_rule(connection.server_id(), "echo", effect)
    })
    .await
    .expect("rule")
}

/// The message of an `echo` question.
fn message(pending: &PendingApproval) -> String {
    match &pending.question {
        Question::ToolCall { arguments, .. } => {
            arguments["message"].as_str().unwrap_or_default().to_owned()
        }
        other => panic!("a tool call is asked about: {other:?}"),
    }
}

/// The next question asked (at most 10 s), named by `step` when none comes.
async fn next(
    asked: &mut tokio::sync::mpsc::UnboundedReceiver<PendingApproval>,
    step: &str,
) -> PendingApproval {
    tokio::time::timeout(Duration::from_secs(10), asked.recv())
        .await
        .unwrap_or_else(|_| panic!("{step}: no question within 10 s"))
        .expect("the person's answers go on")
}

/// Every question asked so far.
fn drain(asked: &mut tokio::sync::mpsc::UnboundedReceiver<PendingApproval>) -> Vec<String> {
    let mut seen = Vec::new();
    while let Ok(pending) = asked.try_recv() {
        seen.push(message(&pending));
    }
    seen
}

#[tokio::test]
async fn an_apps_session_grant_covers_only_the_arguments_the_person_saw_unless_they_chose_any() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, |pending| Answer::Allow {
        scope: Scope::Session,
        arguments: None,
        // "to: me" is answered with the default; "anything" with "any arguments".
        covers: (message(pending) == "anything").then_some(Covers::Any),
    });
    let connection = connect_everything(&host).await;
    echo(&connection, Source::App, "to: me")
        .await
        .expect("allowed by the person");
    echo(&connection, Source::App, "to: me")
        .await
        .expect("the same arguments are covered");
    echo(&connection, Source::App, "to: anyone")
        .await
        .expect("asked, and allowed");
    assert_eq!(
        drain(&mut asked),
        ["to: me", "to: anyone"],
        "a grant for {{to: me}} does not let {{to: anyone}} through unasked"
    );
    let grants = host.grants().await.expect("grants");
    assert!(
        grants
            .iter()
            .all(|g| g.covers == Covers::These && g.source == Source::App),
        "by default an app's grant covers these arguments, for apps: {grants:?}"
    );

    echo(&connection, Source::App, "anything")
        .await
        .expect("allowed for any arguments");
    echo(&connection, Source::App, "something else")
        .await
        .expect("covered: the person chose any arguments");
    assert_eq!(drain(&mut asked), ["anything"]);

    // The app's grant is the app's: a model calling the same tool is asked.
    echo(&connection, Source::Model, "something else")
        .await
        .expect("asked, and allowed");
    assert_eq!(
        drain(&mut asked),
        ["something else"],
        "another source's call is another question"
    );
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn an_app_views_grant_is_that_views_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Session,
        arguments: None,
        covers: Some(Covers::Any),
    });
    let connection = connect_everything(&host).await;
    let view_a = Some("view 5f2a");
    echo_as(&connection, Source::App, view_a, "first")
        .await
        .expect("allowed by the person");
    echo_as(&connection, Source::App, view_a, "second")
        .await
        .expect("covered for the view it was given to");
    echo_as(&connection, Source::App, Some("view 9c41"), "second")
        .await
        .expect("asked, and allowed");
    assert_eq!(
        drain(&mut asked),
        ["first", "second"],
        "another view of the same app is asked for itself"
    );
    let grants = host.grants().await.expect("grants");
    assert_eq!(
        grants
            .iter()
            .filter_map(|g| g.caller.as_deref())
            .collect::<Vec<_>>(),
        ["view 5f2a", "view 9c41"]
    );
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn an_argument_rules_ask_is_answered_only_for_arguments_that_rule_treats_the_same() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut questions = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Session,
        arguments: None,
        covers: Some(Covers::Any),
    });
    let connection = connect_everything(&host).await;
    let rule = message_rule(&host, &connection, "secret*", Effect::Ask).await;

    // A grant for any arguments, made when no rule asked, is not an answer to the rule.
    echo(&connection, Source::App, "hello")
        .await
        .expect("allowed");
    echo(&connection, Source::App, "secret-1")
        .await
        .expect("asked by the argument rule, and allowed");
    let first = next(&mut questions, "hello is asked about").await;
    let second = next(
        &mut questions,
        "secret-1 is asked about by the argument rule",
    )
    .await;
    assert_eq!(
        (message(&first), message(&second)),
        ("hello".into(), "secret-1".into())
    );
    assert_eq!(second.rule.as_deref(), Some(rule.id.as_str()));
    let Question::ToolCall {
        default_covers,
        always_offered,
        ..
    } = second.question
    else {
        panic!("a tool call");
    };
    assert_eq!(
        (default_covers, always_offered),
        (Covers::These, false),
        "an argument rule's ask covers these arguments unless the person says otherwise, and \
         \"always\" (a rule for the tool, which could not overrule it) is not offered"
    );

    // The person chose "any arguments" for the rule's ask: it covers what that rule asks about.
    echo(&connection, Source::App, "secret-2")
        .await
        .expect("covered: any arguments the rule asks about");
    assert!(
        questions.try_recv().is_err(),
        "secret-2 was not asked about"
    );
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn always_for_an_apps_call_is_a_rule_for_apps_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let _asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Always,
        arguments: None,
        covers: None,
    });
    let connection = connect_everything(&host).await;
    echo(&connection, Source::App, "first")
        .await
        .expect("allowed");
    let rules = host.rules().await.expect("rules");
    assert_eq!(rules.len(), 1, "{rules:?}");
    assert_eq!(
        (rules[0].tool.as_deref(), rules[0].decision, rules[0].source),
        (Some("echo"), Effect::Allow, Some(Source::App))
    );
    connection.close(Ok(())).await.expect("close");

    // Another process, with nobody to ask: the rule allows apps, not a model.
    let other = support::open_host(dir.path(), false).await;
    let elsewhere = connect_everything(&other).await;
    echo(&elsewhere, Source::App, "by rule")
        .await
        .expect("the rule allows apps everywhere");
    let refused = echo(&elsewhere, Source::Model, "not by that rule")
        .await
        .expect_err("a model is not an app");
    assert_eq!(refused.code(), "denied", "{refused}");
    elsewhere.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn an_edit_a_deny_rule_catches_is_denied_and_on_record() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let _asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Once,
        arguments: Some(json!({ "message": "forbidden: rm -rf" })),
        covers: None,
    });
    let connection = connect_everything(&host).await;
    let deny = message_rule(&host, &connection, "forbidden*", Effect::Deny).await;
    let refused = echo(&connection, Source::App, "harmless")
        .await
        .expect_err("the edited call meets the deny rule");
    assert_eq!(refused.code(), "denied", "{refused}");
    assert!(refused.to_string().contains("edited"), "{refused}");
    connection.close(Ok(())).await.expect("close");

    let rows = audited(&host, "echo").await;
    assert!(
        rows.iter().all(|r| r.event.kind != AuditKind::CallFinished),
        "nothing was sent"
    );
    let decided = rows.last().expect("the decision, the newest row");
    assert_eq!(decided.event.decision.as_deref(), Some("deny"));
    assert_eq!(decided.event.detail["rule"], json!(deny.id));
    assert_eq!(
        decided.event.detail["editedArguments"]["message"],
        "forbidden: rm -rf"
    );
}

/// A legacy server whose `send` tool changes when `mutate` is called (or goes, with
/// `{"remove": true}`), which it announces with `notifications/tools/list_changed`.
fn shifting_server() -> gatehouse_host::ServerInput {
    let source = support::scripted_source(
        r#"
state = {"version": 1, "gone": False}

def tools():
    listed = [tool("mutate")]
    if not state["gone"]:
        listed.append(tool("send", description="Sends, version %d" % state["version"]))
    return listed

def answer(method, params):
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call" and params["name"] == "mutate":
        state["version"] += 1
        state["gone"] = bool((params.get("arguments") or {}).get("remove"))
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return {"content": [{"type": "text", "text": "mutated"}]}
    if method == "tools/call" and params["name"] == "send":
        return {"content": [{"type": "text", "text": "sent with version %d" % state["version"]}]}
    return None

serve({"tools": {"listChanged": True}}, answer)
"#,
    );
    support::stdio("shifting", "python3", vec!["-c".into(), source])
}

/// Calls `send` for an app while a person, asked about it, first has the server change it
/// (`mutate` with `mutation`), then allows it once; each later question is allowed too.
/// Returns the call's outcome and the questions asked.
async fn changed_while_asked(
    mutation: Value,
) -> (
    gatehouse_host::Result<String>,
    Vec<PendingApproval>,
    Host,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    host.set_attended(true);
    host.add_server(shifting_server()).await.expect("add");
    let connection = connect(&host, "shifting").await;
    let mut events = host.subscribe();
    let call = async {
        connection
            .call_tool(
                ToolCall {
                    tool: "send".into(),
                    arguments: Some(json!({})),
                    source: Source::App,
                    caller: None,
                },
                CallOptions::default(),
                std::future::pending(),
            )
            .await
            .map(first_text)
    };
    let person = async {
        let mut asked = Vec::new();
        loop {
            let event = tokio::time::timeout(Duration::from_secs(20), events.recv())
                .await
                .expect("a question within 20 s");
            let Ok(EngineEvent::ApprovalAsked(pending)) = event else {
                continue;
            };
            if asked.is_empty() {
                let mutate = ToolCall {
                    tool: "mutate".into(),
                    arguments: Some(mutation.clone()),
                    source: Source::User,
                    caller: None,
                };
                connection
                    .call_tool(mutate, CallOptions::default(), std::future::pending())
                    .await
                    .expect("the person's own call runs");
            }
            host.answer_approval(
                &pending.id,
                Answer::Allow {
                    scope: Scope::Once,
                    arguments: None,
                    covers: None,
                },
            )
            .expect("answered");
            asked.push(*pending);
            if asked.len() == 2 || mutation.get("remove").is_some() {
                return asked;
            }
        }
    };
    let (outcome, asked) = tokio::join!(call, person);
    connection.close(Ok(())).await.expect("close");
    (outcome, asked, host, dir)
}

#[tokio::test]
async fn a_tool_changed_while_the_person_was_asked_is_asked_about_again_with_what_changed() {
    let (outcome, asked, host, _dir) = changed_while_asked(json!({})).await;
    assert_eq!(
        outcome.expect("allowed the second time").as_str(),
        "sent with version 2"
    );
    assert_eq!(
        asked.len(),
        2,
        "the answer to version 1 did not let version 2 through"
    );
    assert!(
        asked[1].reason.contains("changed while you were asked"),
        "{}",
        asked[1].reason
    );
    let Question::ToolCall { changes, .. } = &asked[1].question else {
        panic!("a tool call");
    };
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(
        (&changes[0].field[..], &changes[0].before, &changes[0].after),
        (
            "description",
            &json!("Sends, version 1"),
            &json!("Sends, version 2")
        )
    );
    let rows = audited(&host, "send").await;
    let decisions: Vec<&str> = rows
        .iter()
        .filter_map(|r| r.event.decision.as_deref())
        .collect();
    assert_eq!(decisions, ["ask", "ask", "allow"], "asked twice, on record");
    host.shutdown().await;
}

#[tokio::test]
async fn a_tool_gone_while_the_person_was_asked_is_refused_saying_so() {
    let (outcome, asked, host, _dir) = changed_while_asked(json!({ "remove": true })).await;
    let refused = outcome.expect_err("the tool is gone");
    assert_eq!(refused.code(), "denied", "{refused}");
    assert!(
        refused.to_string().contains("no longer lists it"),
        "{refused}"
    );
    assert_eq!(asked.len(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn the_face_a_request_came_through_is_on_its_question_and_its_audit_row() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let mut asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Once,
        arguments: None,
        covers: None,
    });
    let connection = connect_everything(&host).await;
    host.add_rule(tool_rule(connection.server_id(), "echo", Effect::Ask))
        .await
        .expect("rule");
    echo_as(&connection, Source::User, Some("cli"), "from the terminal")
        .await
        .expect("allowed by the person");
    let question = next(&mut asked, "the CLI's call is asked about").await;
    assert_eq!(
        (question.source, question.caller.as_deref()),
        (Source::User, Some("cli"))
    );
    let rows = audited(&host, "echo").await;
    let received = rows
        .iter()
        .find(|row| row.event.kind == AuditKind::RequestReceived)
        .expect("a request row");
    assert_eq!(received.event.source.as_deref(), Some("user"));
    assert_eq!(
        received.event.detail["caller"], "cli",
        "{:?}",
        received.event.detail
    );
    connection.close(Ok(())).await.expect("close");
}
