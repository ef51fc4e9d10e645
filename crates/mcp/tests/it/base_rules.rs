//! Base-protocol rules of the handshake era that no conformance scenario checks, against
//! scripted stdio servers: notifications are never answered and `ping` is answered at once with
//! an empty result; cancellations that name nothing of the server's are ignored; progress
//! tokens are unique across requests; an empty cursor is still a cursor; and `initialize` is
//! never cancelled.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use crate::support::{assert_tools, connect_stdio, first_text, scripted, tool_names};
use gatehouse_mcp::peer::RefusingHandler;
use gatehouse_mcp::{CallOptions, Client, ClientOptions, McpError};

/// Connects to a scripted legacy server offering tools; `body` runs after the handshake.
async fn connect_legacy(body: &str) -> Client {
    let source = format!("handshake({{\"tools\": {{}}}})\n{body}");
    connect_stdio(&scripted(&source)).await.expect("connect")
}

#[tokio::test]
async fn a_notification_is_never_answered_and_a_ping_is_answered_empty() {
    // With its first listing the server sends two notifications and a ping; the second listing
    // reports every response it received in between.
    let body = r#"
first = read()
send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}})
send({"jsonrpc": "2.0", "method": "notifications/unknown/thing"})
send({"jsonrpc": "2.0", "id": "srv-ping", "method": "ping"})
reply(first, {"tools": []})
heard = []
while True:
    msg = read()
    if msg.get("method") == "tools/list":
        reply(msg, {"tools": [tool(json.dumps(m, sort_keys=True)) for m in heard]})
    elif "method" not in msg:
        heard.append(msg)
"#;
    let client = connect_legacy(body).await;
    assert!(tool_names(&client).await.is_empty());
    // The ping came after both notifications: once its answer is heard, an answer to either
    // notification would have been written before it.
    support::wait::until(
        "the server hears the ping's answer",
        Duration::from_secs(10),
        || async {
            let heard = tool_names(&client).await;
            if heard.is_empty() { Err(heard) } else { Ok(()) }
        },
    )
    .await;
    assert_tools(
        &client,
        &[r#"{"id": "srv-ping", "jsonrpc": "2.0", "result": {}}"#],
        "the ping gets an empty result, and neither notification gets any answer",
    )
    .await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn invalid_cancellations_are_ignored() {
    // Before answering, the server sends cancellations that name nothing of its own: an unknown
    // id, no id, a malformed id, and the id of the client's own pending request.
    let body = r#"
while True:
    msg = read()
    if msg.get("method") != "tools/list":
        continue
    for params in [{"requestId": 999}, {}, {"requestId": {"odd": True}}, {"requestId": msg["id"]}]:
        send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})
    send({"jsonrpc": "2.0", "method": "notifications/cancelled"})
    reply(msg, {"tools": [tool("still-here")]})
"#;
    let client = connect_legacy(body).await;
    assert_tools(
        &client,
        &["still-here"],
        "cancellations that name no request of the server's change nothing",
    )
    .await;
    assert_eq!(tool_names(&client).await, ["still-here"]);
    client.close().await.expect("close");
}

#[tokio::test]
async fn progress_tokens_are_unique_across_requests() {
    // The server takes two calls before answering either, and answers each with its token.
    let body = r#"
calls = []
while len(calls) < 2:
    msg = read()
    if msg.get("method") == "tools/call":
        calls.append(msg)
for msg in calls:
    token = msg["params"]["_meta"]["progressToken"]
    reply(msg, {"content": [{"type": "text", "text": json.dumps(token)}]})
"#;
    let client = connect_legacy(body).await;
    let call = || {
        let (progress, _updates) =
            tokio::sync::mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
        let options = CallOptions {
            progress: Some(progress),
            ..CallOptions::default()
        };
        client.call_tool("work", None, options)
    };
    let (a, b) = tokio::join!(call(), call());
    let (a, b) = (
        first_text(&a.expect("call a")),
        first_text(&b.expect("call b")),
    );
    assert_ne!(
        a, b,
        "two requests in flight never share a progress token, or their updates would mix"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn an_empty_cursor_is_a_cursor() {
    let body = r#"
while True:
    msg = read()
    if msg.get("method") != "tools/list":
        continue
    cursor = (msg.get("params") or {}).get("cursor")
    if cursor is None:
        reply(msg, {"tools": [tool("first")], "nextCursor": ""})
    elif cursor == "":
        reply(msg, {"tools": [tool("second")]})
"#;
    let client = connect_legacy(body).await;
    assert_tools(
        &client,
        &["first", "second"],
        "an empty nextCursor means another page (pagination: only null ends the list)",
    )
    .await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn initialize_is_never_cancelled() {
    // The server never answers initialize and writes what it received to a file once its
    // input closes.
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("received.json");
    let source = format!(
        r#"
received = []
for line in sys.stdin:
    msg = json.loads(line)
    received.append(msg.get("method"))
    if msg.get("method") == "server/discover":
        fail(msg)
open({path:?}, "w").write(json.dumps(received))
"#,
        path = record.display().to_string()
    );
    let options = ClientOptions {
        initialize_timeout: Duration::from_millis(500),
        ..ClientOptions::default()
    };
    let error = Client::connect_stdio(&scripted(&source), options, Arc::new(RefusingHandler))
        .await
        .expect_err("an unanswered initialize fails the connection");
    assert!(
        matches!(&error, McpError::Timeout { method, .. } if method == "initialize"),
        "{error:?}"
    );
    let received = support::wait::until(
        "the server writes what it received",
        Duration::from_secs(5),
        || async {
            let text = std::fs::read_to_string(&record).map_err(|e| e.to_string())?;
            serde_json::from_str::<Vec<Option<String>>>(&text).map_err(|_| text)
        },
    )
    .await;
    assert_eq!(
        received,
        [
            Some("server/discover".to_owned()),
            Some("initialize".to_owned())
        ],
        "no notifications/cancelled for initialize (2025-11-25 cancellation)"
    );
}

#[tokio::test]
async fn progress_does_not_extend_a_call_past_its_cap() {
    // The server reports progress every 100 ms and never answers.
    let body = r#"
import time
msg = read()
while True:
    token = msg["params"]["_meta"]["progressToken"]
    send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1}})
    # Behaviour, not synchronisation: the server reports progress every 100 ms.
    time.sleep(0.1)
"#;
    let client = connect_legacy(body).await;
    let (progress, _updates) = tokio::sync::mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let options = CallOptions {
        timeout: Duration::from_millis(300),
        max_total: Some(Duration::from_secs(1)),
        progress: Some(progress),
        ..CallOptions::default()
    };
    let started = std::time::Instant::now();
    let error = client
        .call_tool("endless", None, options)
        .await
        .expect_err("a call that only ever reports progress ends at its cap");
    assert!(matches!(error, McpError::Timeout { .. }), "{error:?}");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(900),
        "progress reset the 300 ms timeout until the cap: {took:?}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_resource_not_found_from_an_older_server_is_recognised() {
    let body = r#"
while True:
    msg = read()
    if msg.get("method") == "resources/read":
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32002, "message": "Resource not found"}})
"#;
    let source = format!("handshake({{\"resources\": {{}}}})\n{body}");
    let client = connect_stdio(&scripted(&source)).await.expect("connect");
    let error = client
        .read_resource("file:///gone")
        .await
        .expect_err("missing");
    assert!(
        matches!(&error, McpError::ResourceNotFound { uri, .. } if uri == "file:///gone"),
        "-32002 is taken as resource-not-found for backwards compatibility: {error:?}"
    );
    client.close().await.expect("close");
}
