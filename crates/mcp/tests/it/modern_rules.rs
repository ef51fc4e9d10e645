//! Rules of the 2026-07-28 revision that no conformance scenario checks, against scripted stdio
//! servers: an unknown `resultType` is an invalid response, a modern client answers no server
//! request and sends no `ping`, a server that ends a subscription has it reopened, a legacy
//! server that takes the era probe for `initialize` still gets a real `initialize`, and a modern
//! server too slow to answer the probe is found modern when it refuses `initialize`.

use std::time::Duration;

use std::sync::Arc;

use crate::support::{assert_tools, connect_stdio, scripted, tool_names};
use gatehouse_mcp::peer::RefusingHandler;
use gatehouse_mcp::{
    CallOptions, Client, ClientOptions, Era, Listener, ListenerEvent, McpError, NotificationFilter,
};

async fn connect_modern(body: &str) -> Client {
    let client = connect_stdio(&scripted(body)).await.expect("connect");
    assert_eq!(client.era(), Era::Modern, "{}", client.era_reason());
    client
}

#[tokio::test]
async fn an_unknown_result_type_is_an_invalid_response() {
    let body = r#"
discover({"tools": {}, "prompts": {}, "resources": {}})
answers = {"tools/list": "partial", "prompts/list": "input_required", "tools/call": "deferred",
           "prompts/get": "task", "resources/read": 7}
while True:
    msg = read()
    if "id" in msg:
        reply(msg, {"resultType": answers.get(msg["method"], "complete"), "tools": [], "prompts": [],
                    "content": [], "messages": [], "contents": []})
"#;
    let client = connect_modern(body).await;
    let refused = |what: &str, result: Result<(), McpError>| {
        assert!(
            matches!(&result, Err(McpError::InvalidResponse { message, .. }) if message.contains("resultType")),
            "{what}: a resultType the client does not know must not pass as complete: {result:?}"
        );
    };
    refused("tools/list", client.list_tools().await.map(drop));
    refused(
        "prompts/list (a list cannot ask for input)",
        client.list_prompts().await.map(drop),
    );
    refused(
        "tools/call",
        client
            .call_tool("t", None, CallOptions::default())
            .await
            .map(drop),
    );
    refused(
        "prompts/get (only tools/call may become a task)",
        client.get_prompt("p", &Default::default()).await.map(drop),
    );
    refused(
        "resources/read (not even a string)",
        client.read_resource("x://r").await.map(drop),
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_modern_client_never_answers_a_server_request() {
    // On the first tools/list the server sends two requests of its own; the second listing
    // reports, as tool names, every message without a method (a response) it got in between.
    let body = r#"
discover({"tools": {}})
first = read()
send({"jsonrpc": "2.0", "id": "srv-1", "method": "roots/list"})
send({"jsonrpc": "2.0", "id": "srv-2", "method": "ping"})
reply(first, {"tools": []})
heard = []
while True:
    msg = read()
    if msg.get("method") == "tools/list":
        reply(msg, {"tools": [{"name": "heard " + json.dumps(m), "inputSchema": {}} for m in heard]})
    elif "method" not in msg:
        heard.append(msg)
"#;
    let client = connect_modern(body).await;
    assert!(tool_names(&client).await.is_empty());
    // The first listing's reply came after both requests, and the client routes what it reads
    // in order: by the time it had that reply, it had met both requests, so an answer to
    // either was written before the second listing, which reports it.
    assert_tools(
        &client,
        &[],
        "a 2026-07-28 client writes no JSON-RPC responses; the server's requests are its error",
    )
    .await;
    assert!(
        client.peer().closed_reason().is_none(),
        "the protocol error is logged, not fatal"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn ping_is_not_sent_to_a_modern_server() {
    let body = r#"
discover({"tools": {}})
seen = []
while True:
    msg = read()
    seen.append(msg.get("method"))
    if msg.get("method") == "server/discover":
        reply(msg, {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "resultType": "complete"})
    elif msg.get("method") == "tools/list":
        reply(msg, {"tools": [{"name": str(m), "inputSchema": {}} for m in seen]})
    elif "id" in msg:
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}})
"#;
    let client = connect_modern(body).await;
    let round_trip = client
        .ping()
        .await
        .expect("liveness is measured without ping");
    assert!(round_trip < Duration::from_secs(5), "{round_trip:?}");
    assert_tools(
        &client,
        &["server/discover", "tools/list"],
        "2026-07-28 removed ping: the round trip is a server/discover",
    )
    .await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_discover_probe_answered_as_initialize_is_followed_by_initialize() {
    // A naive legacy server: it answers whatever comes first as `initialize`, then records what
    // it receives and reports it through tools/list.
    let source = r#"
seen = []
for line in sys.stdin:
    msg = json.loads(line)
    seen.append(msg.get("method"))
    if len(seen) == 1 or msg.get("method") == "initialize":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-11-25",
              "capabilities": {"tools": {}}, "serverInfo": {"name": "naive", "version": "1"}}})
    elif msg.get("method") == "tools/list":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": [{"name": m, "inputSchema": {}} for m in seen]}})
"#;
    let client = connect_stdio(&scripted(source)).await.expect("connect");
    assert_eq!(client.era(), Era::Legacy);
    assert_tools(
        &client,
        &[
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/list",
        ],
        "notifications/initialized is only ever sent after a real initialize",
    )
    .await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_modern_server_too_slow_for_the_probe_is_found_modern_when_it_refuses_initialize() {
    // It answers the probe only once `initialize` has come (too late for the client, which
    // gave up on it), refuses `initialize` as a modern server does, then answers a new probe.
    let body = r#"
probe = read()
assert probe["method"] == "server/discover", probe
init = read()
assert init["method"] == "initialize", init
reply(probe, {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "resultType": "complete"})
fail(init, -32022, "connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted")
discover({"tools": {}})
seen = []
while True:
    msg = read()
    seen.append(msg.get("method"))
    if msg.get("method") == "tools/list":
        reply(msg, {"tools": [{"name": str(m), "inputSchema": {}} for m in seen]})
    elif "id" in msg:
        fail(msg)
"#;
    let options = ClientOptions {
        discover_timeout: Duration::from_millis(200),
        ..ClientOptions::default()
    };
    let client = Client::connect_stdio(&scripted(body), options, Arc::new(RefusingHandler))
        .await
        .expect("connect");
    assert_eq!(client.era(), Era::Modern, "{}", client.era_reason());
    assert!(
        client
            .era_reason()
            .contains("answered server/discover again"),
        "{}",
        client.era_reason()
    );
    assert_tools(&client, &["tools/list"], "served as a modern server").await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_subscription_cancelled_by_the_server_is_reopened() {
    // The first subscription is torn down by the server with notifications/cancelled naming
    // its request; the second one delivers a tools change.
    let body = r#"
discover({"tools": {"listChanged": True}})
opened = 0
while True:
    msg = read()
    if msg.get("method") != "subscriptions/listen":
        continue
    opened += 1
    meta = {"io.modelcontextprotocol/subscriptionId": msg["id"]}
    send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
          "params": {"notifications": {"toolsListChanged": True}, "_meta": meta}})
    if opened == 1:
        send({"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": msg["id"], "reason": "shutting down"}})
    else:
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": meta}})
"#;
    let client = connect_modern(body).await;
    let mut listener = Listener::new(NotificationFilter::all_lists(Vec::new()));
    let mut next = async || {
        tokio::time::timeout(Duration::from_secs(10), listener.next(&client))
            .await
            .expect("the listener must not wait on a subscription the server has ended")
    };
    assert!(matches!(next().await, ListenerEvent::Opened(_)));
    let lost = next().await;
    assert!(
        matches!(&lost, ListenerEvent::Lost { reason, .. } if reason.contains("shutting down")),
        "the server's cancellation ends the subscription, with its reason: {lost:?}"
    );
    assert!(
        matches!(next().await, ListenerEvent::Opened(_)),
        "reopened after the backoff"
    );
    let event = next().await;
    assert!(
        matches!(&event, ListenerEvent::Notification { method, .. } if method == "notifications/tools/list_changed"),
        "the new subscription delivers: {event:?}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_refused_cursor_discards_the_cached_pages_and_lists_again() {
    // The first page may be kept for a minute; after one full listing the server's list
    // changes, so the cursor on the cached first page is refused.
    let body = r#"
discover({"tools": {}})
version = "v1"
while True:
    msg = read()
    if msg.get("method") != "tools/list":
        continue
    cursor = (msg.get("params") or {}).get("cursor")
    if cursor is None:
        reply(msg, {"tools": [tool(version + "-a")], "nextCursor": version, "ttlMs": 60000})
    elif cursor == version:
        reply(msg, {"tools": [tool(version + "-b")], "ttlMs": 0})
        version = "v2"
    else:
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32602, "message": "Invalid cursor"}})
"#;
    let client = connect_modern(body).await;
    assert_eq!(tool_names(&client).await, ["v1-a", "v1-b"]);
    assert_tools(
        &client,
        &["v2-a", "v2-b"],
        "a refused cursor drops the cached first page and the list is fetched from the start",
    )
    .await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn an_expired_page_is_fetched_again_with_its_cursor() {
    // The first page stays fresh for a minute, the second for 1 ms; the script counts the
    // requests it gets for each page and reports them in the names.
    let body = r#"
discover({"tools": {}})
asked = {}
while True:
    msg = read()
    if msg.get("method") != "tools/list":
        continue
    cursor = (msg.get("params") or {}).get("cursor")
    asked[cursor] = asked.get(cursor, 0) + 1
    if cursor is None:
        reply(msg, {"tools": [tool(f"first-{asked[cursor]}")], "nextCursor": "c", "ttlMs": 60000})
    else:
        reply(msg, {"tools": [tool(f"second-{asked[cursor]}")], "ttlMs": 1})
"#;
    let client = connect_modern(body).await;
    assert_eq!(tool_names(&client).await, ["first-1", "second-1"]);
    // The second page's 1 ms of life runs out on tokio's clock, which the cache reads.
    tokio::time::pause();
    tokio::time::advance(Duration::from_millis(2)).await;
    tokio::time::resume();
    assert_tools(
        &client,
        &["first-1", "second-2"],
        "the fresh first page is reused and the expired one fetched again with its cursor",
    )
    .await;
    client.close().await.expect("close");
}
