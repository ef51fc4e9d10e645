//! Interop with a server on the official TypeScript SDK v2 (`@modelcontextprotocol/server`, pinned
//! in tests/fixtures/package.json; the server is tests/fixtures/ts-sdk-v2/server.mjs) in the
//! modern (2026-07-28) era, over stdio and over stateless Streamable HTTP: discovery, tools,
//! structured output, an MRTR elicitation round trip, progress, cancellation and `isError`.

use std::sync::Arc;

use crate::support::answers::{
    Answers, assert_a_dropped_call_is_cancelled, count_with_progress, with_form_elicitation,
};
use crate::support::{HttpServer, text, ts_sdk_v2_js};
use gatehouse_mcp::{CallOptions, Client, Era, HttpMode, StdioConfig};
use serde_json::json;

/// A handler that confirms whatever it is asked.
fn confirming() -> Answers {
    Answers::accepting(json!({"confirm": true, "note": "from gatehouse"}))
}

/// The same checks on both transports.
async fn exercise(client: Client, handler: &Answers, transport: &str) {
    assert_eq!(client.transport_kind(), transport);
    assert_eq!(
        client.era(),
        Era::Modern,
        "the SDK answers server/discover: {}",
        client.era_reason()
    );
    let init = client.initialize_result().clone();
    assert_eq!(init.protocol_version, "2026-07-28");
    assert_eq!(init.server_info.name, "gatehouse-ts-v2-fixture");
    assert_eq!(
        init.instructions.as_deref(),
        Some("A test server on the TypeScript SDK v2.")
    );
    assert!(client.server_declares("tools"));

    let tools = client.list_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.items.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names[..9],
        [
            "add",
            "confirm",
            "count",
            "stats",
            "fail",
            "log",
            "add_tool",
            "touch_note",
            "slow_task"
        ]
    );
    assert!(tools.malformed.is_empty(), "{:?}", tools.malformed);

    // Structured output, checked against the zod-generated outputSchema.
    let sum = client
        .call_tool("add", Some(json!({"a": 2, "b": 3})), CallOptions::default())
        .await
        .expect("tools/call add");
    assert!(!sum.is_error);
    assert_eq!(sum.structured_content, Some(json!({"sum": 5})));
    assert_eq!(sum.schema_problem, None);
    assert_eq!(text(&sum), "5");

    // MRTR: `input_required` with an embedded elicitation, answered by the handler, retried
    // with `inputResponses` and the echoed `requestState`; the server reports what it got.
    let confirmed = client
        .call_tool(
            "confirm",
            Some(json!({"action": "deploy"})),
            CallOptions::default(),
        )
        .await
        .expect("tools/call confirm");
    assert!(!confirmed.is_error, "{}", text(&confirmed));
    assert_eq!(confirmed.schema_problem, None);
    assert_eq!(
        confirmed.structured_content,
        Some(json!({"action": "deploy", "answer": "accept",
            "content": {"confirm": true, "note": "from gatehouse"},
            "requestState": "asked:deploy"})),
        "the retry carried the handler's answer and the server's state"
    );
    let asked = handler.take_asked();
    assert_eq!(asked.len(), 1, "one elicitation, one answer: {asked:?}");
    assert_eq!(asked[0]["method"], "elicitation/create");
    let asked = &asked[0]["params"];
    assert_eq!(asked["message"], "Really deploy?");
    assert_eq!(asked["mode"], "form");
    assert!(asked["requestedSchema"]["properties"]["confirm"].is_object());

    // Progress updates reach the caller, in order.
    let (counted, updates) =
        count_with_progress(&client, json!({"steps": 4, "intervalMs": 10})).await;
    assert_eq!(counted, "counted to 4");
    let steps: Vec<(f64, Option<f64>)> = updates.iter().map(|p| (p.progress, p.total)).collect();
    assert_eq!(
        steps,
        [1.0, 2.0, 3.0, 4.0].map(|n| (n, Some(4.0))),
        "every progress update arrives"
    );
    assert_eq!(updates[0].message.as_deref(), Some("step 1"));

    // Cancellation: drop a long call once it is running; the server stops it, and the
    // connection keeps working.
    assert_a_dropped_call_is_cancelled(
        &client,
        json!({"steps": 3000, "intervalMs": 20}),
        transport,
    )
    .await;
    assert_eq!(client.peer().pending_count(), 0);
    let again = client
        .call_tool(
            "add",
            Some(json!({"a": 40, "b": 2})),
            CallOptions::default(),
        )
        .await
        .expect("the connection works after a cancellation");
    assert_eq!(again.structured_content, Some(json!({"sum": 42})));

    // A tool error is a result, not a protocol error.
    let failed = client
        .call_tool(
            "fail",
            Some(json!({"reason": "on purpose"})),
            CallOptions::default(),
        )
        .await
        .expect("a tool error is a result");
    assert!(failed.is_error, "isError must be surfaced");
    assert_eq!(text(&failed), "failed: on purpose");

    client.close().await.expect("close");
}

#[tokio::test]
async fn ts_sdk_v2_over_stdio() {
    let mut config = StdioConfig::new("node");
    config.args = vec![ts_sdk_v2_js(), "stdio".to_owned()];
    let handler = Arc::new(confirming());
    let client = Client::connect_stdio(&config, with_form_elicitation(), handler.clone())
        .await
        .expect("connect over stdio");
    exercise(client, &handler, "stdio").await;
}

#[tokio::test]
async fn ts_sdk_v2_over_streamable_http() {
    let server = HttpServer::ts_sdk_v2().await;
    let handler = Arc::new(confirming());
    let client = Client::connect_http(
        &server.config("/mcp"),
        HttpMode::Auto,
        with_form_elicitation(),
        handler.clone(),
    )
    .await
    .expect("connect over Streamable HTTP");
    exercise(client, &handler, "streamable-http").await;
}
