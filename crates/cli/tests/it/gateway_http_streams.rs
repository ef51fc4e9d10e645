//! The gateway's HTTP endpoint's SSE streams, read by hand off the wire from a real
//! `gatehouse serve` in front of server-everything: a call's POST stream opens with a priming
//! event (SEP-1699), and cut after its first progress it resumes with GET and `Last-Event-ID`,
//! the result arriving exactly once; an event id is refused in another session; a server's
//! request relayed to the agent during its call arrives on that call's POST stream, not on the
//! session's GET stream, and the agent's answer POSTed back reaches the server.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::gateway_http::{bearer, client_with_token, exchange, header, http_engine, post};
use serde_json::Value;

/// One SSE event: its id, its `retry`, its data.
#[derive(Debug)]
struct Event {
    id: Option<String>,
    retry: Option<String>,
    data: String,
}

/// An HTTP/1.1 response read as SSE events as they come (chunk-size lines skipped: each event
/// is one chunk).
struct Sse {
    status: u16,
    headers: Vec<(String, String)>,
    reader: BufReader<TcpStream>,
}

impl Sse {
    fn open(port: u16, request: &str) -> Sse {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a read timeout");
        stream.write_all(request.as_bytes()).expect("sends");
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        if let Err(e) = reader.read_line(&mut status_line) {
            panic!("the response's status line did not come within 30 s: {e}");
        }
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a header line");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
            }
        }
        Sse {
            status,
            headers,
            reader,
        }
    }

    /// The next event, `None` when the response ends; a read timing out fails the test.
    fn next(&mut self, step: &str) -> Option<Event> {
        let mut event = Event {
            id: None,
            retry: None,
            data: String::new(),
        };
        let mut fields = false;
        loop {
            let mut line = String::new();
            let read = self
                .reader
                .read_line(&mut line)
                .unwrap_or_else(|e| panic!("{step}: {e}"));
            if read == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if fields {
                    return Some(event);
                }
                continue;
            }
            if let Some(id) = line.strip_prefix("id:") {
                event.id = Some(id.trim().to_owned());
            } else if let Some(retry) = line.strip_prefix("retry:") {
                event.retry = Some(retry.trim().to_owned());
            } else if let Some(data) = line.strip_prefix("data:") {
                event.data = data.trim_start().to_owned();
            } else if !line.starts_with("event:") {
                continue; // a chunk's size
            }
            fields = true;
        }
    }

    /// Every event until the response ends.
    fn rest(&mut self, step: &str) -> Vec<Event> {
        std::iter::from_fn(|| self.next(step)).collect()
    }

    /// Events until one whose data has `needle`.
    fn until(&mut self, step: &str, needle: &str) -> (Vec<Event>, Event) {
        let mut before = Vec::new();
        while let Some(event) = self.next(step) {
            if event.data.contains(needle) {
                return (before, event);
            }
            before.push(event);
        }
        panic!("{step}: the stream ended first: {before:?}");
    }
}

fn get(host: &str, extra: &[String]) -> String {
    let mut request = format!(
        "GET /mcp HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\nConnection: close\r\n"
    );
    for line in extra {
        request.push_str(line);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    request
}

/// server-everything as `e`, its tools allowed for agents, the endpoint on with a client `raw`:
/// the data dir, the engine, the port, the token.
fn endpoint() -> (
    tempfile::TempDir,
    crate::support::engine::Reaped,
    u16,
    String,
) {
    let data = crate::support::gateway::everything_for_agents();
    let token = client_with_token(data.path(), "raw");
    let (port, serve) = http_engine(data.path());
    (data, serve, port, token)
}

/// A session of revision 2025-11-25 with `capabilities`: the headers its requests carry.
fn session(port: u16, token: &str, capabilities: &str) -> Vec<String> {
    let local = format!("127.0.0.1:{port}");
    let initialize = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{capabilities},"clientInfo":{{"name":"raw","version":"1"}}}}}}"#
    );
    let (status, headers, body) =
        exchange(port, &post("/mcp", &local, &[bearer(token)], &initialize));
    assert_eq!(status, 200, "{body}");
    let id = header(&headers, "mcp-session-id").expect("a session id");
    let headers = vec![
        bearer(token),
        format!("Mcp-Session-Id: {id}"),
        "MCP-Protocol-Version: 2025-11-25".to_owned(),
    ];
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let (status, _, _) = exchange(port, &post("/mcp", &local, &headers, initialized));
    assert_eq!(status, 202);
    headers
}

fn with(headers: &[String], line: String) -> Vec<String> {
    let mut headers = headers.to_vec();
    headers.push(line);
    headers
}

#[test]
fn a_post_stream_cut_mid_call_resumes_with_last_event_id_and_gets_its_result_once() {
    let (_data, _serve, port, token) = endpoint();
    let local = format!("127.0.0.1:{port}");
    let ours = session(port, &token, "{}");
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"e__trigger-long-running-operation","arguments":{"duration":1,"steps":4},"_meta":{"progressToken":"p7"}}}"#;
    let mut stream = Sse::open(port, &post("/mcp", &local, &ours, call));
    assert_eq!(stream.status, 200);
    assert_eq!(
        header(&stream.headers, "content-type"),
        Some("text/event-stream")
    );
    let priming = stream.next("the priming event").expect("a priming event");
    assert!(
        priming.data.is_empty() && priming.id.is_some(),
        "{priming:?}"
    );
    assert_eq!(priming.retry.as_deref(), Some("1000"), "a retry hint");
    let first = stream.next("the first progress").expect("a first event");
    assert!(first.data.contains("notifications/progress"), "{first:?}");
    let last = first.id.clone().expect("every event has an id");
    // The client loses the connection after the first event.
    drop(stream);

    // Another session cannot resume it, nor see anything of it.
    let theirs = session(port, &token, "{}");
    let (status, _, body) = exchange(
        port,
        &get(&local, &with(&theirs, format!("Last-Event-ID: {last}"))),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        !body.contains("progress") && !body.contains("Long running"),
        "nothing leaks: {body}"
    );
    // Nor does an id this session never gave.
    let forged = last.replace("-1-", "-9-");
    let (status, _, _) = exchange(
        port,
        &get(&local, &with(&ours, format!("Last-Event-ID: {forged}"))),
    );
    assert_eq!(status, 400, "a stream this session never had");

    let mut resumed = Sse::open(
        port,
        &get(&local, &with(&ours, format!("Last-Event-ID: {last}"))),
    );
    assert_eq!(resumed.status, 200);
    let events = resumed.rest("the resumed stream");
    let results: Vec<&Event> = events
        .iter()
        .filter(|e| {
            e.data.contains(r#""id":7"#) && e.data.contains("Long running operation completed")
        })
        .collect();
    assert_eq!(results.len(), 1, "the result exactly once: {events:?}");
    assert!(
        events.last().is_some_and(|e| std::ptr::eq(e, results[0])),
        "the result last, then the stream ends: {events:?}"
    );
    assert!(
        events
            .iter()
            .all(|e| e.id.as_deref() != Some(last.as_str())),
        "what the client had is not sent again: {events:?}"
    );
    assert!(
        events
            .iter()
            .all(|e| e.data.contains(r#""p7""#) || e.data.contains(r#""id":7"#)),
        "only that call's stream: {events:?}"
    );
}

#[test]
fn a_servers_request_during_an_agents_call_arrives_on_that_calls_post_stream() {
    let (_data, _serve, port, token) = endpoint();
    let local = format!("127.0.0.1:{port}");
    let ours = session(port, &token, r#"{"sampling":{}}"#);
    // The session's GET stream is open: the request must still take the POST stream.
    let mut standalone = Sse::open(port, &get(&local, &ours));
    assert_eq!(standalone.status, 200);

    let call = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"e__trigger-sampling-request","arguments":{"prompt":"on the post stream"}}}"#;
    let mut stream = Sse::open(port, &post("/mcp", &local, &ours, call));
    assert_eq!(stream.status, 200);
    let (_, asked) = stream.until("the server's sampling request", "sampling/createMessage");
    let asked: Value = serde_json::from_str(&asked.data).expect("a JSON-RPC request");
    assert!(asked.to_string().contains("on the post stream"), "{asked}");
    let answer = serde_json::json!({
        "jsonrpc": "2.0", "id": asked["id"],
        "result": { "role": "assistant", "model": "raw", "stopReason": "endTurn",
                    "content": { "type": "text", "text": "answered from the post stream" } },
    });
    let (status, _, _) = exchange(port, &post("/mcp", &local, &ours, &answer.to_string()));
    assert_eq!(status, 202, "the answer is POSTed back");
    let (_, result) = stream.until("the call's result", r#""id":9"#);
    assert!(
        result.data.contains("answered from the post stream"),
        "the agent's answer reached the server: {}",
        result.data
    );
    assert!(stream.next("the end of the POST stream").is_none());

    // The GET stream carried none of it: end the session, and read what it had.
    let mut delete = format!("DELETE /mcp HTTP/1.1\r\nHost: {local}\r\nConnection: close\r\n");
    for line in &ours {
        delete.push_str(line);
        delete.push_str("\r\n");
    }
    delete.push_str("\r\n");
    let (status, _, _) = exchange(port, &delete);
    assert_eq!(status, 200);
    let on_get = standalone.rest("the GET stream until the session ends");
    assert!(
        on_get
            .iter()
            .all(|e| !e.data.contains("sampling/createMessage")),
        "{on_get:?}"
    );
}
