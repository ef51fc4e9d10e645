//! What the host answers when server-everything asks it for roots, sampling and elicitation:
//! with nobody to ask, only roots are declared (and listed); with a person there, the person
//! writes the sampling reply and fills in the form, and the server receives both; a mode the
//! host did not declare is `-32602`. A server that withdraws its elicitation (a scripted one
//! that cancels it) takes it off the person's screens and gets no answer.

use crate::support;

use crate::support::everything;
use gatehouse_host::approvals::{Answer, PendingApproval, Question};
use gatehouse_host::connect::open_client;
use gatehouse_host::{CallOutcome, Host, HostOptions, ServerConnection, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde_json::json;

/// The texts of a tool result's content.
fn texts(result: &gatehouse_mcp::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A host on a fresh data directory with server-everything connected, and a person there who
/// answers each question with `answer`; the questions asked come out of the receiver.
async fn answered_by_a_person(
    answer: impl Fn(&PendingApproval) -> Answer + Send + 'static,
) -> (
    tempfile::TempDir,
    Host,
    ServerConnection,
    tokio::sync::mpsc::UnboundedReceiver<PendingApproval>,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().into()),
        ..Default::default()
    })
    .await
    .expect("open");
    host.add_server(everything("everything"))
        .await
        .expect("add");
    let asked = support::answer_with(&host, answer);
    let connection = host
        .connect("everything", |config| {
            std::sync::Arc::new(gatehouse_host::server_requests::HostHandler::for_config(
                config,
            ))
        })
        .await
        .expect("connect");
    (dir, host, connection, asked)
}

#[tokio::test]
async fn with_nobody_to_ask_only_roots_are_declared_and_answered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().into()),
        ..Default::default()
    })
    .await
    .expect("open");
    let config = host
        .registry()
        .add(everything("everything"))
        .await
        .expect("add");
    let client = open_client(&config, host.registry())
        .await
        .expect("connect");
    let tools = client.list_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.items.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"get-roots-list"), "{names:?}");
    for tool in ["trigger-sampling-request", "trigger-elicitation-request"] {
        assert!(
            !names.contains(&tool),
            "with nobody to answer, sampling and elicitation are not declared, so the server \
             does not offer {tool}: {names:?}"
        );
    }
    let roots = client
        .call_tool("get-roots-list", Some(json!({})), CallOptions::default())
        .await
        .expect("roots");
    assert!(
        !roots.is_error,
        "roots/list must be answered: {}",
        texts(&roots)
    );
    client.close().await.expect("close");
    host.shutdown().await;
}

#[tokio::test]
async fn the_person_writes_the_sampling_reply_and_fills_in_the_form() {
    let (_dir, host, connection, mut asked) =
        answered_by_a_person(|pending| match &pending.question {
            Question::Sampling { .. } => Answer::Respond {
                text: "written by a person".into(),
            },
            Question::Elicitation { .. } => Answer::Accept {
                content: Some(json!({"name": "Ada Lovelace", "check": true, "integer": 7})),
            },
            other => panic!("unexpected question {other:?}"),
        })
        .await;
    let call = |tool: &str, arguments: serde_json::Value| ToolCall {
        tool: tool.into(),
        arguments: Some(arguments),
        source: Source::User,
        caller: None,
    };
    let sampled = connection
        .call_tool(
            call(
                "trigger-sampling-request",
                json!({"prompt": "Say hi", "maxTokens": 10}),
            ),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("the call completes");
    let CallOutcome::Done(sampled) = sampled else {
        panic!("not cancelled");
    };
    assert!(
        texts(&sampled).contains("written by a person"),
        "the server received the person's reply: {}",
        texts(&sampled)
    );
    let question = asked.recv().await.expect("sampling was asked");
    let Question::Sampling { params } = question.question else {
        panic!("sampling");
    };
    assert_eq!(question.source, Source::Server);
    assert!(
        params["messages"].is_array(),
        "the messages are shown: {params}"
    );
    assert_eq!(params["maxTokens"], 10);

    let elicited = connection
        .call_tool(
            call("trigger-elicitation-request", json!({})),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("the call completes");
    let CallOutcome::Done(elicited) = elicited else {
        panic!("not cancelled");
    };
    let text = texts(&elicited);
    assert!(
        text.contains("Ada Lovelace") && text.contains("accept"),
        "the server received the form's content: {text}"
    );
    connection.close(Ok(())).await.expect("close");
    host.shutdown().await;
}

#[tokio::test]
async fn an_elicitation_in_an_undeclared_mode_is_invalid_params() {
    use gatehouse_mcp::peer::Handler;
    let roots = std::sync::Arc::new(std::sync::RwLock::new(Vec::new()));
    let handler = gatehouse_host::server_requests::HostHandler::new("s", roots, None);
    let ask = |mode: &str| {
        handler.on_request(
            "elicitation/create".into(),
            Some(json!({"mode": mode, "message": "Say it", "requestedSchema": {"type": "object"}})),
        )
    };
    let refused = ask("voice").await;
    assert!(
        refused.as_ref().is_err_and(|e| e.code == -32602),
        "a mode the host did not declare is -32602 (2025-11-25 elicitation, Error Handling): {refused:?}"
    );
    let declined = ask("form").await.expect("a form request is answered");
    assert_eq!(declined["action"], "decline");
}

#[tokio::test]
async fn a_server_that_keeps_asking_is_refused_past_ten_a_minute_and_it_is_recorded() {
    let (_dir, host, connection, mut asked) = answered_by_a_person(|_| Answer::Respond {
        text: "written by a person".into(),
    })
    .await;
    let mut replies = Vec::new();
    for _ in 0..11 {
        let outcome = connection
            .call_tool(
                ToolCall {
                    tool: "trigger-sampling-request".into(),
                    arguments: Some(json!({"prompt": "Say hi", "maxTokens": 10})),
                    source: Source::User,
                    caller: None,
                },
                CallOptions::default(),
                std::future::pending(),
            )
            .await;
        replies.push(match outcome {
            Ok(CallOutcome::Done(result)) => texts(&result),
            Ok(CallOutcome::Cancelled) => panic!("not cancelled"),
            Err(e) => e.to_string(),
        });
    }
    for reply in &replies[..10] {
        assert!(reply.contains("written by a person"), "{reply}");
    }
    assert!(
        !replies[10].contains("written by a person"),
        "the eleventh request in a minute is refused: {}",
        replies[10]
    );
    let mut questions = 0;
    while asked.try_recv().is_ok() {
        questions += 1;
    }
    assert_eq!(questions, 10, "the person was asked ten times, not eleven");
    let refusals = host
        .audit()
        .search("rate limit", None)
        .await
        .expect("search");
    assert_eq!(
        refusals.len(),
        1,
        "the refusal is on record with who made it: {refusals:?}"
    );
    connection.close(Ok(())).await.expect("close");
    host.shutdown().await;
}

/// A legacy server whose `ask` tool sends an elicitation (id `e-1`) and waits; `withdraw`
/// cancels it and then ends `ask`; `responses` lists the ids of the responses it received.
fn withdrawing_server() -> gatehouse_host::ServerInput {
    let source = support::scripted_source(
        r#"
handshake({"tools": {}})
responses = []
asking = None
while True:
    m = read()
    if "method" not in m:
        responses.append(m.get("id"))
        continue
    if "id" not in m:
        continue
    if m["method"] == "tools/list":
        reply(m, {"tools": [tool("ask"), tool("withdraw"), tool("responses")]})
    elif m["method"] == "tools/call" and m["params"]["name"] == "ask":
        asking = m
        send({"jsonrpc": "2.0", "id": "e-1", "method": "elicitation/create",
              "params": {"message": "Your name?", "requestedSchema": {"type": "object",
                         "properties": {"name": {"type": "string"}}}}})
    elif m["method"] == "tools/call" and m["params"]["name"] == "withdraw":
        send({"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": "e-1", "reason": "no longer needed"}})
        reply(m, {"content": [{"type": "text", "text": "withdrawn"}]})
        reply(asking, {"content": [{"type": "text", "text": "asked"}]})
    elif m["method"] == "tools/call" and m["params"]["name"] == "responses":
        reply(m, {"content": [{"type": "text", "text": json.dumps(responses)}]})
    else:
        fail(m)
"#,
    );
    support::stdio("withdrawing", "python3", vec!["-c".into(), source])
}

/// Waits (at most 10 s) until the host's pending list satisfies `done`.
async fn pending_until(
    host: &Host,
    step: &str,
    done: impl Fn(&[PendingApproval]) -> bool,
) -> Vec<PendingApproval> {
    support::wait::until(step, std::time::Duration::from_secs(10), || async {
        let pending = host.pending_approvals();
        if done(&pending) {
            Ok(pending)
        } else {
            Err(pending)
        }
    })
    .await
}

#[tokio::test]
async fn an_elicitation_the_server_withdraws_leaves_the_person_and_gets_no_answer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    host.set_attended(true);
    host.add_server(withdrawing_server()).await.expect("add");
    let connection = host
        .connect("withdrawing", |config| {
            std::sync::Arc::new(gatehouse_host::server_requests::HostHandler::for_config(
                config,
            ))
        })
        .await
        .expect("connect");
    let call = |tool: &str| ToolCall {
        tool: tool.into(),
        arguments: Some(json!({})),
        source: Source::User,
        caller: None,
    };
    let text = |outcome: gatehouse_host::Result<CallOutcome>| match outcome.expect("the call") {
        CallOutcome::Done(result) => texts(&result),
        CallOutcome::Cancelled => panic!("not cancelled"),
    };
    let asking = connection.call_tool(call("ask"), CallOptions::default(), std::future::pending());
    let withdrawing = async {
        let pending = pending_until(&host, "the elicitation is put to the person", |p| {
            p.len() == 1
        })
        .await;
        assert!(matches!(pending[0].question, Question::Elicitation { .. }));
        let withdrawn = connection
            .call_tool(
                call("withdraw"),
                CallOptions::default(),
                std::future::pending(),
            )
            .await;
        assert_eq!(text(withdrawn), "withdrawn");
        pending_until(&host, "the withdrawn elicitation leaves the person", |p| {
            p.is_empty()
        })
        .await;
        let late = host.answer_approval(
            &pending[0].id,
            Answer::Accept {
                content: Some(json!({"name": "Ada"})),
            },
        );
        assert_eq!(
            late.expect_err("nothing waits for an answer any more")
                .code(),
            "not_found"
        );
    };
    let (asked, ()) = tokio::join!(asking, withdrawing);
    assert_eq!(text(asked), "asked");
    let responses = connection
        .call_tool(
            call("responses"),
            CallOptions::default(),
            std::future::pending(),
        )
        .await;
    assert_eq!(
        text(responses),
        "[]",
        "the server received no response for the request it withdrew"
    );
    connection.close(Ok(())).await.expect("close");

    let filter = gatehouse_host::AuditFilter {
        source: Some("server".into()),
        ..gatehouse_host::AuditFilter::default()
    };
    let mut rows = host.audit().list(&filter).await.expect("list");
    rows.reverse();
    let decided: Vec<(Option<&str>, Option<&str>)> = rows
        .iter()
        .map(|r| (r.event.decision.as_deref(), r.event.error_type.as_deref()))
        .collect();
    assert_eq!(
        decided,
        [
            (None, None),
            (Some("ask"), None),
            (Some("deny"), None),
            (None, Some("withdrawn"))
        ],
        "received, asked, withdrawn and not answered: all on record"
    );
    assert_eq!(rows[2].event.detail["answeredBy"], "server");
    assert!(
        rows[2].event.detail["reason"]
            .as_str()
            .is_some_and(|r| r.contains("no longer needed")),
        "{}",
        rows[2].event.detail
    );
    host.shutdown().await;
}
