//! What the host answers when server-everything asks it for roots, sampling and elicitation:
//! with nobody to ask, only roots are declared (and listed); with a person there, the person
//! writes the sampling reply and fills in the form, and the server receives both; a mode the
//! host did not declare is `-32602`.

mod support;

use gatehouse_host::approvals::{Answer, PendingApproval, Question};
use gatehouse_host::connect::open_client;
use gatehouse_host::{CallOutcome, Host, HostOptions, ServerConnection, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde_json::json;
use support::everything;

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
