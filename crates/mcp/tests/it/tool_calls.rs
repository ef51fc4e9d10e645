//! `tools/call` against the real `@modelcontextprotocol/server-everything` over stdio: plain and
//! structured results, progress, cancellation by dropping the call, and `isError` results.

use crate::support;

use std::time::Duration;

use gatehouse_mcp::{CallOptions, Client};
use serde_json::json;
use tokio::sync::mpsc;

async fn connect() -> Client {
    let client = support::connect_stdio(&support::everything())
        .await
        .expect("server-everything must initialize");
    // Listing first lets results be checked against the tools' output schemas.
    client.list_tools().await.expect("tools/list");
    client
}

#[tokio::test]
async fn calls_echo_sum_and_a_structured_tool() {
    let client = connect().await;
    let echo = client
        .call_tool(
            "echo",
            Some(json!({"message": "hello"})),
            CallOptions::default(),
        )
        .await
        .expect("echo");
    assert!(!echo.is_error);
    assert_eq!(echo.content[0].as_text(), Some("Echo: hello"));

    let sum = client
        .call_tool(
            "get-sum",
            Some(json!({"a": 2, "b": 40})),
            CallOptions::default(),
        )
        .await
        .expect("get-sum");
    assert_eq!(sum.content[0].as_text(), Some("The sum of 2 and 40 is 42."));

    let weather = client
        .call_tool(
            "get-structured-content",
            Some(json!({"location": "Chicago"})),
            CallOptions::default(),
        )
        .await
        .expect("get-structured-content");
    assert_eq!(
        weather.structured_content,
        Some(json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82}))
    );
    assert_eq!(
        weather.schema_problem, None,
        "a structured result that matches its outputSchema must not be flagged"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn reports_every_progress_update_of_a_long_operation() {
    let client = connect().await;
    let (tx, mut rx) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let options = CallOptions {
        timeout: Duration::from_secs(10),
        progress: Some(tx),
        ..CallOptions::default()
    };
    let result = client
        .call_tool(
            "trigger-long-running-operation",
            Some(json!({"duration": 2, "steps": 4})),
            options,
        )
        .await
        .expect("the operation completes");
    assert!(
        result.content[0]
            .as_text()
            .is_some_and(|t| t.contains("Steps: 4")),
        "got {:?}",
        result.content
    );
    let mut updates = Vec::new();
    while let Ok(update) = rx.try_recv() {
        updates.push((update.progress, update.total));
    }
    assert_eq!(
        updates,
        [
            (1.0, Some(4.0)),
            (2.0, Some(4.0)),
            (3.0, Some(4.0)),
            (4.0, Some(4.0))
        ],
        "each step's progress reaches the caller, in order"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_dropped_call_is_cancelled_and_the_connection_goes_on() {
    let client = connect().await;
    let (tx, mut rx) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let options = CallOptions {
        progress: Some(tx),
        ..CallOptions::default()
    };
    let call = client.call_tool(
        "trigger-long-running-operation",
        Some(json!({"duration": 30, "steps": 60})),
        options,
    );
    tokio::select! {
        result = call => panic!("a 30 s operation cannot finish first: {result:?}"),
        first = rx.recv() => assert!(first.is_some(), "the operation started and reported progress"),
    }
    // The call future was dropped by the select above.
    assert_eq!(
        client.peer().pending_count(),
        0,
        "a dropped call leaves nothing pending"
    );
    let echo = tokio::time::timeout(
        Duration::from_secs(5),
        client.call_tool(
            "echo",
            Some(json!({"message": "still here"})),
            CallOptions::default(),
        ),
    )
    .await
    .expect("the connection must not be blocked by the cancelled call")
    .expect("echo after a cancellation");
    assert_eq!(echo.content[0].as_text(), Some("Echo: still here"));
    client.ping().await.expect("ping after a cancellation");
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_failing_tool_is_an_is_error_result_not_a_protocol_error() {
    let client = connect().await;
    // The SDK turns invalid arguments and unknown tools into `isError` results.
    for (tool, arguments) in [
        ("echo", json!({})),
        ("no-such-tool", json!({"message": "x"})),
    ] {
        let result = client
            .call_tool(tool, Some(arguments), CallOptions::default())
            .await
            .expect("a tool failure is still a result");
        assert!(
            result.is_error,
            "`{tool}` failed and must say so: {result:?}"
        );
        assert!(
            result.content[0].as_text().is_some_and(|t| !t.is_empty()),
            "the failure is explained for the model"
        );
        assert_eq!(
            result.schema_problem, None,
            "an error result is not checked against the output schema"
        );
    }
    client.close().await.expect("close");
}
