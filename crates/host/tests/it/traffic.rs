//! The Traffic record against real servers: every JSON-RPC message of a connection kept with
//! its direction, method, id and latency; secrets hidden before anything leaves the engine; a
//! flooding server held to the per-server bounds by count and bytes, with a drop counter.
//! The secret test uses the real Secret Service: run under `scripts/with-keyring.sh`.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use gatehouse_host::server_requests::HostHandler;
use gatehouse_host::traffic::{TrafficDirection, TrafficEntry, TrafficPage, ring};
use gatehouse_host::{EnvVar, Host, ServerSpec, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde_json::{Value, json};

use crate::support::{self, wait};

/// Every message kept for `server`, oldest first.
fn kept(host: &Host, server_id: &str) -> TrafficPage {
    host.traffic().after(server_id, 0, usize::MAX, usize::MAX)
}

async fn server_id(host: &Host, name: &str) -> String {
    host.server(name)
        .await
        .expect("the server exists")
        .config
        .id
}

fn call(tool: &str, arguments: Value) -> ToolCall {
    ToolCall {
        tool: tool.into(),
        arguments: Some(arguments),
        source: Source::User,
        caller: None,
    }
}

fn find<'a>(
    entries: &'a [TrafficEntry],
    direction: TrafficDirection,
    method: &str,
) -> Vec<&'a TrafficEntry> {
    entries
        .iter()
        .filter(|e| e.direction == direction && e.method.as_deref() == Some(method))
        .collect()
}

#[tokio::test]
async fn messages_both_ways_are_kept_with_method_id_and_latency() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    host.add_server(support::everything("everything"))
        .await
        .expect("add");
    let id = server_id(&host, "everything").await;
    let connection = host
        .connect("everything", |config| {
            Arc::new(HostHandler::for_config(config))
        })
        .await
        .expect("connect");
    connection
        .call_tool(
            call("echo", json!({"message": "traffic-probe"})),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("echo");

    let page = kept(&host, &id);
    let sent = find(&page.entries, TrafficDirection::Sent, "tools/call");
    let received = find(&page.entries, TrafficDirection::Received, "tools/call");
    assert_eq!(
        sent.len(),
        1,
        "the request is kept once: {:#?}",
        page.entries
    );
    assert_eq!(
        received.len(),
        1,
        "its response carries the request's method"
    );
    let (request, response) = (sent[0], received[0]);
    assert!(request.id.is_some(), "a request has an id");
    assert_eq!(request.id, response.id, "the response is matched by id");
    assert!(
        request.latency_ms.is_none(),
        "only responses have a latency"
    );
    assert!(
        response.latency_ms.is_some_and(|ms| ms >= 0.0),
        "the response's latency is measured from its request"
    );
    assert!(response.seq > request.seq, "kept in the order they passed");
    assert!(
        request.message.contains("traffic-probe") && response.message.contains("traffic-probe"),
        "the messages themselves are kept"
    );
    assert_eq!(request.size as usize, request.message.len());
    assert!(!request.truncated);
    let handshake = find(&page.entries, TrafficDirection::Received, "initialize");
    assert!(
        handshake.len() == 1 && handshake[0].latency_ms.is_some(),
        "the handshake is kept too"
    );
    assert!(
        !find(
            &page.entries,
            TrafficDirection::Sent,
            "notifications/initialized"
        )
        .is_empty(),
        "notifications are kept, with their method and no id"
    );
    assert_eq!(page.dropped, 0);
    assert_eq!(page.last_seq, page.entries.last().map_or(0, |e| e.seq));

    let later = host.traffic().after(&id, request.seq, 1, usize::MAX);
    assert_eq!(
        later.entries.first().map(|e| e.seq),
        Some(request.seq + 1),
        "a reader continues after the sequence number it has"
    );
    connection.close(Ok(())).await.expect("close");
    host.shutdown().await;
}

fn unique_secret() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("tok-{nanos:x}-{}", std::process::id())
}

/// A server that sends its secret environment value back in a tool result and a notification,
/// and a value under a secret-named key.
fn leaking_server(name: &str, secret: &str) -> gatehouse_host::ServerInput {
    let source = support::scripted_source(
        r#"
import os
token = os.environ.get("API_TOKEN", "")
handshake({"tools": {}})
while True:
    message = read()
    if message.get("method") == "tools/list":
        reply(message, {"tools": [tool("leak")]})
    elif message.get("method") == "tools/call":
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": "info", "data": "env says " + token}})
        reply(message, {"content": [{"type": "text", "text": "the token is " + token}],
                        "structuredContent": {"password": "hunter2-other", "token": token}})
    elif "id" in message:
        fail(message)
"#,
    );
    let mut input = support::stdio(name, "python3", vec!["-c".into(), source]);
    if let ServerSpec::Stdio { env, .. } = &mut input.spec {
        env.push(EnvVar {
            key: "API_TOKEN".into(),
            value: secret.into(),
            secret: true,
        });
    }
    input
}

#[tokio::test]
async fn a_secret_a_server_sends_back_is_redacted_before_it_leaves_the_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secret = unique_secret();
    let host = support::open_host(dir.path(), false).await;
    host.add_server(leaking_server("leaky", &secret))
        .await
        .expect("add");
    let id = server_id(&host, "leaky").await;
    let connection = host
        .connect("leaky", |config| Arc::new(HostHandler::for_config(config)))
        .await
        .expect("connect");
    let outcome = connection
        .call_tool(
            call("leak", json!({"api_key": "sent-key-value"})),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("leak");
    assert!(
        format!("{outcome:?}").contains(&secret),
        "the server really sent the secret back (else this test proves nothing)"
    );
    let note = "notifications/message";
    let page = wait::until("the notification is kept", Duration::from_secs(10), || {
        let page = kept(&host, &id);
        let seen = !find(&page.entries, TrafficDirection::Received, note).is_empty();
        async move {
            if seen {
                Ok(page)
            } else {
                Err(page.entries.len())
            }
        }
    })
    .await;
    let all = serde_json::to_string(&page).expect("serialises");
    assert!(
        !all.contains(&secret),
        "the secret value never leaves the engine"
    );
    assert!(
        !all.contains("hunter2-other"),
        "nor a value under a secret-named key"
    );
    assert!(!all.contains("sent-key-value"), "in either direction");
    let response = find(&page.entries, TrafficDirection::Received, "tools/call")[0];
    assert!(
        response.message.contains("the token is [redacted]"),
        "the rest of the message is kept: {}",
        response.message
    );
    let notification = find(&page.entries, TrafficDirection::Received, note)[0];
    assert!(notification.message.contains("env says [redacted]"));
    connection.close(Ok(())).await.expect("close");
    host.shutdown().await;
}

/// A server that, on `flood`, sends `count` notifications of `size` bytes each, then one larger
/// than a kept message, then `notifications/done`.
fn flooding_server(name: &str, count: usize, size: usize) -> gatehouse_host::ServerInput {
    let body = format!(
        r#"
handshake({{"tools": {{}}}})
pad = "x" * {size}
while True:
    message = read()
    if message.get("method") == "tools/list":
        reply(message, {{"tools": [tool("flood")]}})
    elif message.get("method") == "tools/call":
        for n in range({count}):
            send({{"jsonrpc": "2.0", "method": "notifications/flood", "params": {{"n": n, "pad": pad}}}})
        send({{"jsonrpc": "2.0", "method": "notifications/big", "params": {{"pad": "y" * {big}}}}})
        send({{"jsonrpc": "2.0", "method": "notifications/done"}})
        reply(message, {{"content": []}})
    elif "id" in message:
        fail(message)
"#,
        big = 400 * 1024,
    );
    support::stdio(
        name,
        "python3",
        vec!["-c".into(), support::scripted_source(&body)],
    )
}

/// Floods the server and returns what is kept once `notifications/done` is.
async fn flood(host: &Host, name: &str, count: usize, size: usize) -> (String, TrafficPage) {
    host.add_server(flooding_server(name, count, size))
        .await
        .expect("add");
    let id = server_id(host, name).await;
    let connection = host
        .connect(name, |config| Arc::new(HostHandler::for_config(config)))
        .await
        .expect("connect");
    connection
        .call_tool(
            call("flood", json!({})),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("flood");
    let page = wait::until(
        "the flood's last message is kept",
        Duration::from_secs(30),
        || {
            let page = kept(host, &id);
            let done = !find(
                &page.entries,
                TrafficDirection::Received,
                "notifications/done",
            )
            .is_empty();
            async move { if done { Ok(page) } else { Err(page.last_seq) } }
        },
    )
    .await;
    connection.close(Ok(())).await.expect("close");
    (id, page)
}

#[tokio::test]
async fn a_flood_is_held_to_the_count_and_byte_bounds_and_drops_are_counted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;

    let (id, by_count) = flood(&host, "many", 3_000, 10).await;
    assert_eq!(
        by_count.entries.len(),
        ring::MAX_MESSAGES,
        "at most the count bound"
    );
    assert_eq!(
        by_count.dropped,
        by_count.last_seq - ring::MAX_MESSAGES as u64,
        "every message not kept is counted as dropped"
    );
    assert!(
        by_count.dropped >= 1_000,
        "3,000 notifications cannot all fit"
    );
    assert_eq!(
        by_count.entries.first().map(|e| e.seq),
        Some(by_count.dropped + 1),
        "the oldest went first"
    );
    let (_, bytes) = host.traffic().size(&id);
    assert!(bytes <= ring::MAX_BYTES);

    let (id, by_bytes) = flood(&host, "heavy", 200, 100 * 1024).await;
    let (count, bytes) = host.traffic().size(&id);
    assert!(
        bytes <= ring::MAX_BYTES,
        "{bytes} bytes kept, past the {} byte bound",
        ring::MAX_BYTES
    );
    assert!(
        count < 200,
        "20 MiB of messages cannot all fit in 8 MiB: {count} kept"
    );
    assert_eq!(by_bytes.dropped, by_bytes.last_seq - count as u64);
    let big = find(
        &by_bytes.entries,
        TrafficDirection::Received,
        "notifications/big",
    )[0];
    assert!(big.truncated, "a message past the cut is marked");
    assert_eq!(
        big.message.len(),
        gatehouse_host::traffic::MAX_MESSAGE_BYTES
    );
    assert!(
        big.size as usize > 400 * 1024,
        "its whole size is still told"
    );
    host.shutdown().await;
}
