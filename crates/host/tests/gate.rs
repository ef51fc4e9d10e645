//! The gate against a real server (server-everything over stdio): a person's tool call passes
//! it and returns the server's result, a call from a source that no rule allows is refused
//! before it reaches the server, and a call given up on is cancelled.

mod support;

use std::sync::Arc;

use gatehouse_host::server_requests::HostHandler;
use gatehouse_host::{CallOutcome, Host, ServerConnection, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde_json::json;

async fn connect(host: &Host) -> ServerConnection {
    host.add_server(support::everything("everything"))
        .await
        .expect("add");
    host.connect("everything", |config| {
        Arc::new(HostHandler::for_config(config))
    })
    .await
    .expect("connect")
}

fn echo(source: Source) -> ToolCall {
    ToolCall {
        tool: "echo".into(),
        arguments: Some(json!({"message": "through the gate"})),
        source,
    }
}

#[tokio::test]
async fn a_persons_call_passes_and_others_need_a_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let connection = connect(&host).await;

    let outcome = connection
        .call_tool(
            echo(Source::User),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("a call the person starts is its own consent");
    let CallOutcome::Done(result) = outcome else {
        panic!("the call was not cancelled");
    };
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .unwrap_or_default();
    assert!(text.contains("through the gate"), "{text}");

    let refused = connection
        .call_tool(
            echo(Source::Model),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect_err("no rule allows a model's call yet");
    assert!(refused.to_string().contains("denied"), "{refused}");

    let long = ToolCall {
        tool: "trigger-long-running-operation".into(),
        arguments: Some(json!({"duration": 30, "steps": 30})),
        source: Source::User,
    };
    let cancelled = connection
        .call_tool(long, CallOptions::default(), async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        })
        .await
        .expect("a cancelled call is an outcome, not an error");
    assert!(matches!(cancelled, CallOutcome::Cancelled));
    connection.close(Ok(())).await.expect("close");
}
