//! A response that carries a pending request's id but is not a valid response (an error whose
//! code is no number, `"error": null`, neither `result` nor `error`, a line cut short) fails
//! that request at once with a "malformed response" error quoting the start of the message,
//! instead of leaving it to wait out its timeout; so does an answer over the size limit. A
//! huge stderr line is kept only in part. Against the scripted server tests/fixtures/faults/malformed_answers.py,
//! and an inline one that answers the handshake inside a JSON-RPC batch.

use crate::support;

use std::time::Duration;

use gatehouse_mcp::{Client, McpError, StdioConfig};
use serde_json::json;

fn malformed_answers() -> StdioConfig {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/faults/malformed_answers.py");
    let mut config = StdioConfig::new("python3");
    config.args = vec!["-u".to_owned(), path.display().to_string()];
    config.stop_grace = Duration::from_millis(500);
    config.term_grace = Duration::from_millis(500);
    config
}

/// Calls `tool` with a 30 s request timeout; the answer must come well before it.
async fn call(client: &Client, tool: &str) -> Result<serde_json::Value, McpError> {
    let request = client.peer().request(
        "tools/call",
        Some(json!({"name": tool, "arguments": {}})),
        Duration::from_secs(30),
    );
    tokio::time::timeout(Duration::from_secs(5), request)
        .await
        .unwrap_or_else(|_| panic!("`{tool}`: the request still waits after 5 s"))
}

/// The connection answers a well-formed call after the fault.
async fn assert_still_works(client: &Client) {
    let ok = call(client, "ok")
        .await
        .expect("the connection still works");
    assert_eq!(ok["content"][0]["text"], "fine");
}

#[tokio::test]
async fn a_malformed_response_fails_its_request_at_once() {
    let client = support::connect_stdio(&malformed_answers())
        .await
        .expect("connect");
    for (tool, quoted) in [
        ("code-not-number", r#""code":"oops""#),
        ("error-null", r#""error":null"#),
        ("no-result", r#""jsonrpc":"2.0""#),
        ("cut-short", r#""type": "text", "te"#),
    ] {
        let error = call(&client, tool).await.expect_err(tool);
        let text = error.to_string();
        assert!(
            matches!(error, McpError::MalformedResponse { .. }),
            "`{tool}`: {error:?}"
        );
        assert!(
            text.contains("malformed response") && text.contains(quoted),
            "`{tool}`: the error names the fault and quotes the message: {text}"
        );
    }
    assert_still_works(&client).await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn the_quote_of_a_long_malformed_response_is_bounded() {
    let client = support::connect_stdio(&malformed_answers())
        .await
        .expect("connect");
    let error = call(&client, "id-at-the-end").await.expect_err("cut off");
    let text = error.to_string();
    assert!(text.contains("malformed response"), "{text}");
    assert!(
        text.len() < 600,
        "a 5,000-byte message is quoted only in part ({} bytes): {text}",
        text.len()
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn an_oversized_answer_fails_its_request_at_once() {
    let mut config = malformed_answers();
    config.max_message_bytes = 1024 * 1024;
    let client = support::connect_stdio(&config).await.expect("connect");
    let error = call(&client, "oversized")
        .await
        .expect_err("over the limit");
    let text = error.to_string();
    assert!(
        text.contains("larger than the 1048576-byte limit"),
        "the error says why: {text}"
    );
    assert_still_works(&client).await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_huge_stderr_line_is_kept_only_in_part() {
    let client = support::connect_stdio(&malformed_answers())
        .await
        .expect("connect");
    call(&client, "stderr-flood").await.expect("answered");
    let line = support::wait::until("the line is kept in part", Duration::from_secs(10), || {
        let kept = client.diagnostics();
        let line = kept.iter().find(|l| l.starts_with("zzz")).cloned();
        async move { line.ok_or(kept) }
    })
    .await;
    assert!(
        line.len() <= gatehouse_mcp::transport::stdio::MAX_STDERR_LINE + 64
            && line.ends_with("[truncated: 1000000 bytes]"),
        "cut to its start and marked: {} bytes, ending {:?}",
        line.len(),
        &line[line.len().saturating_sub(40)..]
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn an_answer_inside_a_batch_fails_its_request_at_once() {
    // The handshake's answer comes wrapped in a JSON-RPC batch, which MCP has not allowed since
    // 2025-06-18; `initialize` would otherwise wait out its 30 s timeout.
    let batching = support::scripted(
        r#"
message = read()
while message.get("method") == "server/discover":
    fail(message)
    message = read()
send([{"jsonrpc": "2.0", "id": message["id"], "result": initialize_result({"tools": {}})}])
while True:
    read()
"#,
    );
    let connecting = support::connect_stdio(&batching);
    let error = tokio::time::timeout(Duration::from_secs(10), connecting)
        .await
        .expect("the handshake fails well before its 30 s timeout")
        .expect_err("an answer inside a batch is no answer");
    let text = error.to_string();
    assert!(
        matches!(error, McpError::MalformedResponse { ref method, .. } if method == "initialize"),
        "{error:?}"
    );
    assert!(
        text.contains("batch") && text.contains("protocolVersion"),
        "the error says the answer came in a batch and quotes it: {text}"
    );
}
