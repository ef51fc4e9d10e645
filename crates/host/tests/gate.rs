//! The gate against a real server (server-everything over stdio): a person's tool call passes
//! it and returns the server's result, a call from a source that no rule allows is refused
//! before it reaches the server, and a call given up on is cancelled; the app's calls run on a
//! live session through `Host::call_tool`.

mod support;

use std::sync::Arc;

use gatehouse_host::server_requests::HostHandler;
use gatehouse_host::{CallOutcome, Host, ServerConnection, ServerStatus, Source, ToolCall};
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

/// The text of a call's first content block.
fn first_text(outcome: CallOutcome) -> String {
    let CallOutcome::Done(result) = outcome else {
        panic!("the call was not cancelled");
    };
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .unwrap_or_default()
        .to_owned()
}

/// A person's `echo` call on the live session of the server `id`.
async fn echo_on(host: &Host, id: &str) -> gatehouse_host::Result<CallOutcome> {
    host.call_tool(
        id,
        echo(Source::User),
        CallOptions::default(),
        std::future::pending(),
    )
    .await
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
    let text = first_text(outcome);
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

#[tokio::test]
async fn the_apps_call_runs_on_the_live_session_until_it_ends() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let id = host
        .add_server(support::everything("everything"))
        .await
        .expect("add")
        .config
        .id;
    let status = support::settled(&host, "everything").await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "server-everything must connect: {status:?}"
    );

    let outcome = echo_on(&host, &id)
        .await
        .expect("a connected session takes a person's call");
    let text = first_text(outcome);
    assert!(
        text.contains("through the gate"),
        "the live session's server answers: {text}"
    );

    // A long call reports progress; disabling the server ends its session, and the call
    // with it, instead of leaving the call to wait on a connection that is gone.
    let (progress, mut updates) = tokio::sync::mpsc::unbounded_channel();
    let long = ToolCall {
        tool: "trigger-long-running-operation".into(),
        arguments: Some(json!({"duration": 30, "steps": 30})),
        source: Source::User,
    };
    let options = CallOptions {
        progress: Some(progress),
        ..CallOptions::default()
    };
    let call = host.call_tool(&id, long, options, std::future::pending());
    let disable = async {
        let first = updates.recv().await;
        assert!(first.is_some(), "the long operation reports progress");
        host.set_enabled(&id, false).await.expect("disable");
    };
    let (ended, ()) = tokio::join!(call, disable);
    let error = ended.expect_err("a call whose connection ends cannot succeed");
    assert_eq!(
        error.code(),
        "not_connected",
        "the call says its server went away: {error}"
    );

    let refused = echo_on(&host, &id)
        .await
        .expect_err("a disabled server has no session to call on");
    assert_eq!(refused.code(), "not_connected", "{refused}");
    host.shutdown().await;
}
