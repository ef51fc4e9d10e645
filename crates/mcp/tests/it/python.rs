//! Interop with a server on the official Python SDK (PyPI `mcp`, pinned in
//! tests/fixtures/python/requirements.txt; `scripts/install-test-deps.sh` makes the venv) over
//! stdio, Streamable HTTP and legacy HTTP+SSE.

use crate::support::{HttpServer, connect_http, connect_stdio, first_text, python_fixture};
use gatehouse_mcp::{CallOptions, Client, Era, HttpMode, StdioConfig};
use serde_json::json;

/// The same checks on every transport: tools, structured output, isError, instructions.
async fn exercise(client: Client, transport: &str) {
    assert_eq!(client.transport_kind(), transport);
    // The SDK serves both eras; HTTP+SSE exists only in the legacy one.
    let expected = if transport == "sse" {
        Era::Legacy
    } else {
        Era::Modern
    };
    assert_eq!(
        client.era(),
        expected,
        "a dual-era server is spoken to in the modern era: {}",
        client.era_reason()
    );
    if expected == Era::Modern {
        assert_eq!(client.initialize_result().protocol_version, "2026-07-28");
    }
    let init = client.initialize_result().clone();
    assert_eq!(init.server_info.name, "gatehouse-python-fixture");
    assert_eq!(
        init.instructions.as_deref(),
        Some("A test server."),
        "instructions are kept"
    );
    let tools = client.list_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.items.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["add", "greet", "fail"],
        "every Python tool is listed in order"
    );

    let sum = client
        .call_tool("add", Some(json!({"a": 2, "b": 3})), CallOptions::default())
        .await
        .expect("tools/call add");
    assert!(!sum.is_error);
    assert_eq!(sum.structured_content, Some(json!({"result": 5})));
    assert_eq!(
        sum.schema_problem, None,
        "the SDK's structured output matches its outputSchema"
    );
    assert_eq!(sum.content.first().and_then(|c| c.as_text()), Some("5"));

    let failed = client
        .call_tool(
            "fail",
            Some(json!({"reason": "on purpose"})),
            CallOptions::default(),
        )
        .await
        .expect("a tool error is a result, not a protocol error");
    assert!(failed.is_error, "isError must be surfaced");
    let text = first_text(&failed);
    // The SDK reports which tool failed but keeps the exception text to itself.
    assert!(
        text.contains("Error executing tool fail"),
        "the tool error's text reaches the user: {text}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn python_sdk_over_stdio() {
    let (python, script) = python_fixture();
    let mut config = StdioConfig::new(python);
    config.args = vec![script, "stdio".to_owned()];
    let client = connect_stdio(&config).await.expect("connect over stdio");
    exercise(client, "stdio").await;
}

#[tokio::test]
async fn python_sdk_over_streamable_http() {
    let server = HttpServer::python("streamable-http").await;
    let client = connect_http(&server.config("/mcp"), HttpMode::Auto)
        .await
        .expect("connect over Streamable HTTP");
    exercise(client, "streamable-http").await;
}

#[tokio::test]
async fn python_sdk_over_legacy_sse_with_fallback() {
    let server = HttpServer::python("sse").await;
    // The SDK answers a POST to /sse with 405, which `auto` takes as a legacy server.
    let client = connect_http(&server.config("/sse"), HttpMode::Auto)
        .await
        .expect("connect over HTTP+SSE");
    exercise(client, "sse").await;
}
