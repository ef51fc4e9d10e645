//! The gateway's Streamable HTTP endpoint, served by a real `gatehouse serve`: real MCP clients
//! nobody here wrote (the TypeScript SDK's v1 and v2 `StreamableHTTPClientTransport`, the Python
//! SDK's `streamable_http_client`) list the servers' tools and call one with a client's token, the
//! calls audited as the gateway's under the client's name; and the attacks on the boundary
//! (no token, a wrong one, a revoked one; a foreign `Origin`; a `Host` that is not loopback;
//! sessions that ended or expired) are refused as the spec says.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::engine::Reaped;
use crate::support::gateway::{add_a_server_and_wait_until_the_agents_list_again, fixtures};
use crate::support::wait::until;
use crate::support::{ok, ok_json};
use serde_json::Value;

/// A port free on loopback now (the engine binds it a moment later).
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// `gatehouse serve` on `data` with `env`, and the endpoint accepting connections on `port`.
pub(crate) fn serve_http(data: &Path, port: u16, env: &[(&str, &str)]) -> Reaped {
    let mut command = crate::support::command(data);
    command
        .arg("serve")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let serve = Reaped(command.spawn().expect("gatehouse serve starts"));
    until(
        "the gateway's HTTP endpoint accepts connections",
        Duration::from_secs(20),
        || TcpStream::connect(("127.0.0.1", port)).map(drop),
    );
    serve
}

/// The HTTP endpoint turned on at a free port, `gatehouse serve` serving it, and its servers
/// connected: the port, and the engine (stopped when dropped).
pub(crate) fn http_engine(data: &Path) -> (u16, Reaped) {
    let port = free_port();
    ok(
        data,
        &["gateway", "http", "on", "--port", &port.to_string()],
    );
    let serve = serve_http(data, port, &[]);
    crate::support::engine::wait_connected(data);
    (port, serve)
}

/// A client with a fresh token.
pub(crate) fn client_with_token(data: &Path, name: &str) -> String {
    ok(data, &["clients", "add", name]);
    let token = ok(data, &["clients", "token", "create", name])
        .trim()
        .to_owned();
    assert!(token.starts_with("ghc_") && token.len() > 40, "{token}");
    token
}

/// The JSON-RPC message of a response body, JSON or one SSE event.
pub(crate) fn message(body: &str) -> serde_json::Value {
    let json = body
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or(body);
    serde_json::from_str(json.trim()).unwrap_or_else(|_| panic!("a JSON-RPC message: {body}"))
}

/// One HTTP/1.1 exchange written by hand, so that any `Host` can be sent: the status, the
/// headers (lower-cased names) and the body.
pub(crate) fn exchange(port: u16, request: &str) -> (u16, Vec<(String, String)>, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("a read timeout");
    stream.write_all(request.as_bytes()).expect("sends");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads the answer");
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
const PING: &str = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;

/// A POST of `body` to `path` with the given extra header lines.
pub(crate) fn post(path: &str, host: &str, extra: &[String], body: &str) -> String {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for line in extra {
        request.push_str(line);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    request.push_str(body);
    request
}

pub(crate) fn bearer(token: &str) -> String {
    format!("Authorization: Bearer {token}")
}

#[test]
fn real_sdk_clients_call_through_the_http_endpoint_with_their_tokens() {
    let data = crate::support::gateway::everything_for_agents();
    let data = data.path();
    let ts_token = client_with_token(data, "ts-http");
    let ts2_token = client_with_token(data, "ts2-http");
    let py_token = client_with_token(data, "py-http");
    let (port, _serve) = http_engine(data);

    let run = |program: &Path, script: &str, args: &[&str]| -> Vec<Value> {
        let output = Command::new(program)
            .current_dir(fixtures().join("clients"))
            .arg(script)
            .args(args)
            .arg("--")
            .output()
            .expect("the client runs");
        let out = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success(),
            "{script} failed: {out}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        out.lines()
            .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
            .collect()
    };
    let step = |lines: &[Value], name: &str| -> Vec<Value> {
        lines
            .iter()
            .filter(|l| l["step"] == name)
            .map(|l| l["value"].clone())
            .collect()
    };

    // The TS SDK's v1 and v2 clients send their tokens as a bearer header. The v2 client asks
    // `server/discover` first and speaks 2026-07-28 from then on, with no session.
    let url = format!("http://127.0.0.1:{port}/mcp");
    let ts_clients = [
        ("ts_sdk_v1_client.mjs", &ts_token),
        ("ts_sdk_v2_client.mjs", &ts2_token),
    ];
    for (script, token) in ts_clients {
        let ts = run(
            Path::new("node"),
            script,
            &[
                "--url",
                &url,
                "--token",
                token,
                "--call",
                r#"e__echo={"message":"over http"}"#,
                "--call",
                r#"e__trigger-long-running-operation={"duration":1,"steps":3}"#,
            ],
        );
        let server = &step(&ts, "server")[0];
        assert_eq!(server["info"]["name"], "gatehouse", "{script}");
        if script == "ts_sdk_v2_client.mjs" {
            // 2026-07-28: each request a POST of its own, no session.
            assert_eq!(server["protocolVersion"], "2026-07-28", "{server}");
            assert_eq!(server["era"], "modern", "{server}");
        }
        let tools = step(&ts, "tools")[0].as_array().expect("tools").clone();
        assert!(
            tools.iter().any(|t| t["name"] == "e__echo"),
            "{script}: the merged tools over HTTP: {tools:?}"
        );
        let calls = step(&ts, "call");
        assert_eq!(
            calls[0]["result"]["content"][0]["text"], "Echo: over http",
            "{script}"
        );
        let progress = calls[1]["progress"].as_array().expect("progress");
        assert!(
            progress.len() >= 2,
            "{script}: progress reached the client on the POST's stream: {progress:?}"
        );
    }

    // The Python SDK client, which sends no custom header here: its token is in the path.
    let python = fixtures().join("python/.venv/bin/python");
    let path_url = format!("http://127.0.0.1:{port}/mcp/c/{py_token}");
    let py = run(
        &python,
        "py_sdk_client.py",
        &[
            "--url",
            &path_url,
            "--call",
            r#"e__echo={"message":"from python"}"#,
        ],
    );
    assert!(
        step(&py, "tools")[0]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "e__echo"))
    );
    assert_eq!(
        step(&py, "call")[0]["result"]["content"][0]["text"],
        "Echo: from python"
    );

    // A server added while the clients hold their GET streams open: `list_changed` arrives on
    // each.
    let mut watchers: Vec<_> = ts_clients
        .iter()
        .map(|(script, token)| {
            let watcher = Command::new("node")
                .current_dir(fixtures().join("clients"))
                .args([*script, "--url", &url, "--token", token])
                .args(["--wait-list-changed", "--"])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("the client starts");
            let mut watcher = Reaped(watcher);
            let out = crate::support::engine::Gathered::from(
                watcher.0.stdout.take().expect("the client's stdout"),
            );
            (watcher, out)
        })
        .collect();
    add_a_server_and_wait_until_the_agents_list_again(
        data,
        &mut watchers
            .iter_mut()
            .map(|(watcher, out)| (watcher, &*out))
            .collect::<Vec<_>>(),
    );
    for ((script, _), (_, out)) in ts_clients.iter().zip(&watchers) {
        assert!(
            out.text().contains("m__"),
            "{script}: the new server's tools: {}",
            out.text()
        );
    }

    // Audited as the gateway's, naming each client.
    let audit = ok_json(data, &["audit", "list", "--json", "--limit", "200"]);
    let received: Vec<(String, String, String)> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["kind"] == "request_received" && r["method"] == "tools/call")
        .map(|r| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            (s(&r["source"]), s(&r["detail"]["caller"]), s(&r["tool"]))
        })
        .collect();
    for (caller, tool) in [
        ("ts-http", "echo"),
        ("ts-http", "trigger-long-running-operation"),
        ("ts2-http", "echo"),
        ("ts2-http", "trigger-long-running-operation"),
        ("py-http", "echo"),
    ] {
        assert!(
            received.contains(&("gateway".to_owned(), caller.to_owned(), tool.to_owned())),
            "{caller} calling {tool} over HTTP is audited as the gateway's: {received:?}"
        );
    }
    // The clients were seen; no token is in the database or the listing.
    let listed = ok_json(data, &["clients", "list", "--json"]);
    let listed = listed["clients"].as_array().expect("clients").clone();
    assert!(
        listed
            .iter()
            .all(|c| c["last_seen"].is_string() && c["has_token"] == true),
        "{listed:?}"
    );
    // The database and its write-ahead log.
    let mut database = std::fs::read(crate::support::database(data)).expect("the database");
    database.extend(std::fs::read(data.join("gatehouse.db-wal")).unwrap_or_default());
    for token in [&ts_token, &ts2_token, &py_token] {
        assert!(
            !database.windows(token.len()).any(|w| w == token.as_bytes())
                && !serde_json::to_string(&listed)
                    .expect("JSON")
                    .contains(token.as_str()),
            "a token is stored only in the keyring"
        );
    }
}

#[test]
fn the_http_endpoint_refuses_what_it_must() {
    let data = tempfile::tempdir().expect("a data directory");
    let data = data.path();
    let token = client_with_token(data, "raw");
    // Another data directory's client of the same name gets a token of its own, in its own
    // keyring entry: this one's stays valid, and that one is refused here.
    let other = tempfile::tempdir().expect("another data directory");
    let other_token = client_with_token(other.path(), "raw");
    assert_ne!(other_token, token);
    let port = free_port();
    ok(
        data,
        &["gateway", "http", "on", "--port", &port.to_string()],
    );
    // Idle sessions end after a second here.
    let _serve = serve_http(data, port, &[("GATEHOUSE_GATEWAY_IDLE_SECS", "1")]);
    let local = format!("127.0.0.1:{port}");

    // No token, a wrong one: 401 with a bearer challenge.
    // Which attempt failed is named by its place, never by the token it sent.
    let attempts = [
        vec![],
        vec![bearer("ghc_wrong")],
        vec![bearer(&other_token)],
    ];
    for (attempt, extra) in attempts.iter().enumerate() {
        let (status, headers, _) = exchange(port, &post("/mcp", &local, extra, INITIALIZE));
        assert_eq!(status, 401, "attempt {attempt}");
        assert_eq!(header(&headers, "www-authenticate"), Some("Bearer"));
    }
    let (status, _, _) = exchange(port, &post("/mcp/c/ghc_wrong", &local, &[], INITIALIZE));
    assert_eq!(status, 401, "a wrong token in the path");

    // The right token, from a loopback host: a session.
    let (status, headers, body) =
        exchange(port, &post("/mcp", &local, &[bearer(&token)], INITIALIZE));
    assert_eq!(status, 200, "{body}");
    let session = header(&headers, "mcp-session-id")
        .expect("a session id")
        .to_owned();
    assert!(body.contains("\"serverInfo\""), "{body}");
    let in_session = |s: &str| vec![bearer(&token), format!("Mcp-Session-Id: {s}")];
    let (status, _, body) = exchange(port, &post("/mcp", &local, &in_session(&session), PING));
    assert_eq!(status, 200, "{body}");

    // DNS rebinding: a Host that is not loopback, a foreign Origin: 403, token or not.
    let (status, _, _) = exchange(
        port,
        &post(
            "/mcp",
            &format!("evil.example:{port}"),
            &[bearer(&token)],
            INITIALIZE,
        ),
    );
    assert_eq!(status, 403, "a Host that is not loopback");
    let mut foreign = in_session(&session);
    foreign.push("Origin: http://evil.example".to_owned());
    let (status, _, _) = exchange(port, &post("/mcp", &local, &foreign, PING));
    assert_eq!(status, 403, "a foreign Origin");

    // No session id: 400; one that never was: 404.
    let (status, _, _) = exchange(port, &post("/mcp", &local, &[bearer(&token)], PING));
    assert_eq!(status, 400);
    let (status, _, _) = exchange(port, &post("/mcp", &local, &in_session("nope"), PING));
    assert_eq!(status, 404);

    // An idle session expires: 404 from then on. (The probe names the session with a revision
    // the gateway does not speak: 400 while the session lives, and it does not use the session,
    // so it does not keep it alive.)
    let mut probe = in_session(&session);
    probe.push("MCP-Protocol-Version: 1999-01-01".to_owned());
    let (status, _, _) = exchange(port, &post("/mcp", &local, &probe, PING));
    assert_eq!(status, 400, "an unsupported protocol revision");
    until("the idle session expires", Duration::from_secs(10), || {
        let (status, _, _) = exchange(port, &post("/mcp", &local, &probe, PING));
        if status == 404 { Ok(()) } else { Err(status) }
    });
    let (status, _, _) = exchange(port, &post("/mcp", &local, &in_session(&session), PING));
    assert_eq!(status, 404, "an expired session");

    // Revoked: 401 from the next request on, in the session it had and for a new one.
    let (_, headers, _) = exchange(port, &post("/mcp", &local, &[bearer(&token)], INITIALIZE));
    let session = header(&headers, "mcp-session-id")
        .expect("a session")
        .to_owned();
    ok(data, &["clients", "token", "revoke", "raw"]);
    let (status, _, _) = exchange(port, &post("/mcp", &local, &in_session(&session), PING));
    assert_eq!(status, 401, "a revoked token in its session");
    let (status, _, _) = exchange(port, &post("/mcp", &local, &[bearer(&token)], INITIALIZE));
    assert_eq!(status, 401, "a revoked token");
    // A new token works at once, the old one still does not.
    let renewed = ok(data, &["clients", "token", "create", "raw"])
        .trim()
        .to_owned();
    let (status, _, _) = exchange(
        port,
        &post(&format!("/mcp/c/{renewed}"), &local, &[], INITIALIZE),
    );
    assert_eq!(status, 200, "a new token in the path");
    let (status, _, _) = exchange(port, &post("/mcp", &local, &[bearer(&token)], INITIALIZE));
    assert_eq!(status, 401);
}
