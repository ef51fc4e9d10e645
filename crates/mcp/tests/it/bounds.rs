//! Bounds on what a server can make the client hold: requests from the server answered at once
//! (a scripted server sends 100 that the handler never answers), the reconnection delay a
//! server asks for with SSE `retry:` (a raw local HTTP server asks for 11 days), the bytes
//! of one listing (a scripted server pages forever with 1 MiB pages), and the bytes of the
//! result cache (reads of many distinct URIs with large, cacheable bodies).

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use gatehouse_mcp::transport::sse::{SseReader, StreamEnd};
use gatehouse_mcp::{Client, ClientOptions};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A handler that never answers (a person who never comes back to the dialog).
struct NeverAnswers;

impl Handler for NeverAnswers {
    fn on_request(
        &self,
        _method: String,
        _params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        Box::pin(std::future::pending())
    }
}

#[tokio::test]
async fn requests_from_the_server_beyond_the_limit_are_refused_at_once() {
    // On tools/list the server sends 100 roots/list requests, reads answers for two seconds,
    // and lists one tool named for how many refusals (errors) it got. (The wait is a timer, not
    // `select` on stdin: Python's buffered stdin may hold lines `select` does not see.)
    let body = r#"
import signal
class Done(Exception):
    pass
def stop(*_):
    raise Done()
listing = read()
for n in range(100):
    send({"jsonrpc": "2.0", "id": f"r{n}", "method": "roots/list"})
refused = 0
signal.signal(signal.SIGALRM, stop)
signal.setitimer(signal.ITIMER_REAL, 2.0)
try:
    while refused < 100:
        message = read()
        if "error" in message:
            refused += 1
except Done:
    pass
signal.setitimer(signal.ITIMER_REAL, 0)
reply(listing, {"tools": [tool(str(refused))]})
while True:
    read()
"#;
    let source = format!("handshake({{\"tools\": {{}}}})\n{body}");
    let client = Client::connect_stdio(
        &support::scripted(&source),
        ClientOptions::default(),
        Arc::new(NeverAnswers),
    )
    .await
    .expect("connect");
    let refused = support::tool_names(&client).await;
    assert_eq!(
        refused,
        [(100 - gatehouse_mcp::peer::MAX_SERVER_REQUESTS).to_string()],
        "beyond the limit the server's requests are refused, not queued without end"
    );
    drop(client);
}

#[tokio::test]
async fn a_server_cannot_make_the_client_wait_days_to_reconnect() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listen");
    let port = listener.local_addr().expect("address").port();
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        let body = "retry: 999999999\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n";
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        socket.write_all(response.as_bytes()).await.expect("write");
    });
    let response = reqwest::get(format!("http://127.0.0.1:{port}/"))
        .await
        .expect("GET");
    let mut end = StreamEnd::default();
    let mut reader = SseReader::new(response, 65536, &mut end);
    while reader.next().await.is_some() {}
    drop(reader);
    server.await.expect("server");
    let retry = end.retry.expect("the server's retry: is kept");
    assert!(
        retry <= Duration::from_secs(60),
        "a server's retry: is capped, not taken as {retry:?}"
    );
}

#[tokio::test]
async fn a_listing_is_bounded_in_bytes_across_its_pages() {
    // Every page is one tool with a 1 MiB description and a cursor to the next, without end:
    // 1,000 pages would be 1 GiB held at once.
    let body = r#"
handshake({"tools": {}})
n = 0
while True:
    message = read()
    if message.get("method") != "tools/list":
        if "id" in message:
            fail(message)
        continue
    n += 1
    reply(message, {"tools": [tool(f"t{n}", description="x" * (1 << 20))], "nextCursor": str(n)})
"#;
    let client = support::connect_stdio(&support::scripted(body))
        .await
        .expect("connect");
    let listing = tokio::time::timeout(Duration::from_secs(60), client.list_tools())
        .await
        .expect("the listing ends");
    let error = listing.expect_err("pages past the byte limit are refused");
    let text = error.to_string();
    assert!(
        text.contains("33554432 bytes (32 MiB)") && text.contains("limit of one listing"),
        "the error names the limit: {text}"
    );
    assert!(
        text.contains("its 32 pages"),
        "it stops at the page that passes 32 MiB, not after 1,000: {text}"
    );
    assert_eq!(
        gatehouse_mcp::client::MAX_LIST_BYTES,
        32 << 20,
        "the documented default"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn reads_of_many_distinct_uris_stay_within_the_cache_bytes() {
    // Every read of every URI is a 256 KiB body the server says stays fresh for a minute, as a
    // view reading URIs of its choosing through its server would get.
    let body = r#"
def answer(method, params):
    if method == "tools/list":
        return {"tools": [tool("t")], "ttlMs": 60000}
    if method == "resources/read":
        return {"contents": [{"uri": params["uri"], "text": "x" * (256 << 10)}], "ttlMs": 60000}
serve({"tools": {}, "resources": {}}, answer)
"#;
    let client = support::connect_stdio(&support::scripted(body))
        .await
        .expect("connect");
    support::assert_tools(&client, &["t"], "listed and cached").await;
    for n in 0..100 {
        client
            .read_resource(&format!("ui://app/{n}"))
            .await
            .expect("read");
    }
    let cache = client.peer().cache();
    assert!(
        cache.bytes() <= gatehouse_mcp::cache::MAX_CACHED_BYTES / 2,
        "reads hold {} bytes, past their half of the cache",
        cache.bytes()
    );
    assert!(
        cache.get("tools/list", None).is_some(),
        "the reads did not push the tool list out"
    );
    client.close().await.expect("close");
}
