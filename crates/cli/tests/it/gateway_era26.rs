//! The gateway as a 2026-07-28 server, with a real `gatehouse serve`: requests with no
//! `initialize` and no session, each carrying its `_meta`, over HTTP (`server/discover`, a call
//! through the gate audited with the request's `clientInfo`; the token, `Origin` and the
//! `Mcp-Method`/`Mcp-Name` headers checked: a header naming another tool is refused before
//! anything runs), and `subscriptions/listen` streams told of a server added, only what they
//! asked for, over HTTP and (the TypeScript SDK v2 client) over stdio.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::gateway_http::{
    bearer, client_with_token, exchange, header, http_engine, message, post,
};
use crate::support::engine::{Gathered, Reaped};
use crate::support::gateway::{add_a_server_and_wait_until_the_agents_list_again, client_command};
use crate::support::ok_json;
use serde_json::{Value, json};

const VERSION: &str = "MCP-Protocol-Version: 2026-07-28";

/// A 2026-07-28 request: `params` with the era's `_meta`.
fn request(id: u64, method: &str, mut params: Value) -> String {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "raw-2026", "version": "9.1" },
    });
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

/// Every POST carries the token and the request's method (and name) as headers.
fn headers(token: &str, method: &str, name: Option<&str>) -> Vec<String> {
    let mut lines = vec![
        bearer(token),
        VERSION.to_owned(),
        format!("Mcp-Method: {method}"),
    ];
    if let Some(name) = name {
        lines.push(format!("Mcp-Name: {name}"));
    }
    lines
}

#[test]
fn a_2026_client_is_served_over_http_with_no_session_and_its_headers_checked() {
    let data = crate::support::gateway::everything_for_agents();
    let data = data.path();
    let token = client_with_token(data, "modern-http");
    let (port, _serve) = http_engine(data);
    let host = format!("127.0.0.1:{port}");

    // `server/discover`, answered without a session.
    let discover = request(1, "server/discover", json!({}));
    let sent = post(
        "/mcp",
        &host,
        &headers(&token, "server/discover", None),
        &discover,
    );
    let (status, got, body) = exchange(port, &sent);
    assert_eq!(status, 200, "{body}");
    assert_eq!(header(&got, "mcp-session-id"), None, "no session is made");
    let found = &message(&body)["result"];
    assert_eq!(found["supportedVersions"], json!(["2026-07-28"]), "{found}");
    assert_eq!(
        found["capabilities"]["tools"]["listChanged"], true,
        "{found}"
    );
    assert_eq!(
        found["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "gatehouse"
    );
    assert_eq!(found["cacheScope"], "private", "{found}");
    assert!(
        found["instructions"]
            .as_str()
            .is_some_and(|i| i.starts_with("Gatehouse:"))
    );

    // A call through the gate, audited with the client's name and the request's clientInfo.
    let call = request(
        2,
        "tools/call",
        json!({ "name": "e__echo", "arguments": { "message": "modern" } }),
    );
    let sent = post(
        "/mcp",
        &host,
        &headers(&token, "tools/call", Some("e__echo")),
        &call,
    );
    let (status, _, body) = exchange(port, &sent);
    assert_eq!(status, 200, "{body}");
    let result = &message(&body)["result"];
    assert_eq!(result["content"][0]["text"], "Echo: modern", "{result}");
    assert_eq!(result["resultType"], "complete", "{result}");
    let audit = ok_json(
        data,
        &["audit", "list", "--json", "--client", "modern-http"],
    );
    let row = audit["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|r| r["kind"] == "request_received" && r["tool"] == "echo")
        })
        .cloned()
        .unwrap_or_else(|| panic!("the call is audited: {audit}"));
    assert_eq!(row["source"], "gateway", "{row}");
    assert_eq!(row["detail"]["client_info"]["name"], "raw-2026", "{row}");

    // The attack: a header naming another tool than the body. Refused before anything runs.
    let sum = request(
        3,
        "tools/call",
        json!({ "name": "e__get-sum", "arguments": { "a": 1, "b": 2 } }),
    );
    let sent = post(
        "/mcp",
        &host,
        &headers(&token, "tools/call", Some("e__echo")),
        &sum,
    );
    let (status, _, body) = exchange(port, &sent);
    assert_eq!(status, 400, "{body}");
    let refused = message(&body);
    assert_eq!(refused["error"]["code"], -32020, "{refused}");
    assert_eq!(refused["id"], 3, "{refused}");
    let sent = post("/mcp", &host, &headers(&token, "tools/list", None), &sum);
    let (status, _, body) = exchange(port, &sent);
    assert_eq!(
        (status, message(&body)["error"]["code"].clone()),
        (400, json!(-32020))
    );
    let audit = ok_json(
        data,
        &["audit", "list", "--json", "--client", "modern-http"],
    );
    assert!(
        !audit.to_string().contains("get-sum"),
        "a refused request never reached the gate: {audit}"
    );

    // No token, a foreign Origin: refused as for every request.
    let no_token: Vec<String> = headers(&token, "tools/call", Some("e__echo"))[1..].to_vec();
    let (status, got, _) = exchange(port, &post("/mcp", &host, &no_token, &call));
    assert_eq!(status, 401);
    assert_eq!(header(&got, "www-authenticate"), Some("Bearer"));
    let mut foreign = headers(&token, "tools/call", Some("e__echo"));
    foreign.push("Origin: http://evil.example".to_owned());
    assert_eq!(exchange(port, &post("/mcp", &host, &foreign, &call)).0, 403);

    // The 2025 era's `ping` and an unknown method are not found in this era: 404.
    for method in ["ping", "no/such"] {
        let asked = request(4, method, json!({}));
        let (status, _, body) = exchange(
            port,
            &post("/mcp", &host, &headers(&token, method, None), &asked),
        );
        assert_eq!(status, 404, "{method}: {body}");
        assert_eq!(message(&body)["error"]["code"], -32601, "{method}: {body}");
    }
    // A version Gatehouse does not speak: the versions it does.
    let mut future = message(&request(5, "tools/list", json!({})));
    future["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let lines = vec![
        bearer(&token),
        "MCP-Protocol-Version: 2099-01-01".to_owned(),
        "Mcp-Method: tools/list".to_owned(),
    ];
    let (status, _, body) = exchange(port, &post("/mcp", &host, &lines, &future.to_string()));
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        message(&body)["error"]["data"]["supported"],
        json!(["2026-07-28"]),
        "{body}"
    );
}

/// Reads an open SSE response until it has carried `wanted`, at most `within`.
fn read_until(stream: &mut TcpStream, seen: &mut String, wanted: &str, within: Duration) {
    let deadline = Instant::now() + within;
    let mut buffer = [0u8; 8192];
    while !seen.contains(wanted) {
        assert!(
            Instant::now() < deadline,
            "no `{wanted}` on the stream within {within:?}: {seen}"
        );
        stream
            .set_read_timeout(Some(Duration::from_millis(500)))
            .expect("a read timeout");
        match stream.read(&mut buffer) {
            Ok(0) => panic!("the stream ended before `{wanted}`: {seen}"),
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&buffer[..n])),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("reading the stream: {e}"),
        }
    }
}

#[test]
fn listen_streams_are_told_of_a_server_added_and_only_what_they_asked_for() {
    let data = crate::support::gateway::everything_for_agents();
    let data = data.path();
    let token = client_with_token(data, "listener");
    let (port, _serve) = http_engine(data);

    // Over HTTP: a stream for tool changes and two resources, one that no server has.
    let features = "demo://resource/static/document/features.md";
    let listen = request(
        41,
        "subscriptions/listen",
        json!({ "notifications": {
            "toolsListChanged": true,
            "resourceSubscriptions": [features, "demo://no/such/resource"],
        } }),
    );
    let host = format!("127.0.0.1:{port}");
    let sent = post(
        "/mcp",
        &host,
        &headers(&token, "subscriptions/listen", None),
        &listen,
    );
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream.write_all(sent.as_bytes()).expect("sends");
    let mut seen = String::new();
    read_until(
        &mut stream,
        &mut seen,
        "acknowledged",
        Duration::from_secs(20),
    );
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    assert!(
        seen.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{seen}"
    );

    // Over stdio: the TypeScript SDK v2 client opens its own, in the 2026-07-28 era.
    let node = std::path::PathBuf::from("node");
    let mut command = client_command(
        data,
        &node,
        "ts_sdk_v2_client.mjs",
        "ts2-listener",
        &[],
        &["--wait-list-changed"],
    );
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the client starts");
    let mut agent = Reaped(child);
    let out = Gathered::from(agent.0.stdout.take().expect("the client's stdout"));
    add_a_server_and_wait_until_the_agents_list_again(data, &mut [(&mut agent, &out)]);
    let said: Vec<Value> = out
        .text()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let server = said
        .iter()
        .find(|l| l["step"] == "server")
        .expect("the server line");
    assert_eq!(server["value"]["era"], "modern", "{server}");
    let ready = said.iter().find(|l| l["step"] == "ready").expect("ready");
    assert_eq!(ready["value"]["listening"], true, "{ready}");
    let after = said
        .iter()
        .find(|l| l["step"] == "tools-after-change")
        .expect("the new list");
    assert!(
        after["value"].to_string().contains("m__create_entities"),
        "{after}"
    );

    // The HTTP stream heard the tools change, tagged with its id, and nothing it did not ask for
    // (a server added changes the prompts and resources lists too).
    read_until(
        &mut stream,
        &mut seen,
        "tools/list_changed",
        Duration::from_secs(20),
    );
    let events: Vec<Value> = seen
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|j| serde_json::from_str(j).ok())
        .collect();
    assert_eq!(
        events[0]["method"], "notifications/subscriptions/acknowledged",
        "{seen}"
    );
    // Acknowledged: what it honours, the resource subscribed on its server through the gate.
    assert_eq!(
        events[0]["params"]["notifications"],
        json!({ "toolsListChanged": true, "resourceSubscriptions": [features] }),
        "{seen}"
    );
    let audit = ok_json(data, &["audit", "list", "--json", "--client", "listener"]);
    assert!(
        audit.to_string().contains("features.md"),
        "the subscription passed the gate: {audit}"
    );
    for event in &events {
        assert_eq!(
            event["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 41,
            "{event}"
        );
        assert!(
            !event["method"]
                .as_str()
                .unwrap_or_default()
                .contains("prompts")
                && !event["method"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("resources"),
            "only what the stream asked for: {seen}"
        );
    }
}
