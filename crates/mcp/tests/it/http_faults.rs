//! Streamable HTTP faults that real servers do not produce on demand, against the scripted
//! server in tests/fixtures/faults/http_faults.py: an expired session (404), a response stream
//! cut before its answer, an HTTP error instead of an answer, a `HeaderMismatch` after a tool
//! changed, a legacy server that takes the era probe for `initialize`, and a session forgotten
//! on the standalone GET stream or on the GET that resumes an answer (404).

use crate::support;

use std::time::Duration;

use crate::support::{HttpServer, first_text};
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::{CallOptions, Client, ClientOptions, HttpMode};
use serde_json::Value;
use tokio::sync::mpsc;

async fn connect(server: &HttpServer) -> Client {
    support::connect_http(&server.config("/mcp"), HttpMode::StreamableHttp)
        .await
        .expect("connect")
}

/// What the server received, in order.
async fn server_log(server: &HttpServer) -> Vec<Value> {
    let body = reqwest::get(format!("http://127.0.0.1:{}/log", server.port))
        .await
        .expect("log request")
        .text()
        .await
        .expect("log body");
    serde_json::from_str(&body).expect("log JSON")
}

#[tokio::test]
async fn an_expired_session_is_reinitialized_and_the_request_retried_once() {
    let server = HttpServer::faults("session-expiry").await;
    let client = connect(&server).await;
    client
        .list_tools()
        .await
        .expect("tools/list in the first session");
    let result = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect("the call survives the 404");
    assert_eq!(
        first_text(&result),
        "ok in s2",
        "the retry must run in the new session"
    );
    client.close().await.expect("close");
    let log = server_log(&server).await;
    let inits = log.iter().filter(|e| e["method"] == "initialize").count();
    assert_eq!(inits, 2, "exactly one re-initialization: {log:?}");
    let calls: Vec<&Value> = log.iter().filter(|e| e["method"] == "tools/call").collect();
    assert_eq!(calls.len(), 2, "the call is retried once: {log:?}");
    assert_eq!(calls[0]["session"], "s1");
    assert_eq!(calls[1]["session"], "s2");
    assert!(
        calls.iter().all(|c| c["version"] == "2025-11-25"),
        "MCP-Protocol-Version on every request after init"
    );
    assert!(
        log.iter()
            .any(|e| e["http"] == "DELETE" && e["session"] == "s2"),
        "closing ends the current session with DELETE: {log:?}"
    );
}

/// Hands the server's notifications on, in order.
struct Told(mpsc::UnboundedSender<(String, Option<Value>)>);

impl Handler for Told {
    fn on_notification(&self, method: &str, params: Option<Value>) {
        let _ = self.0.send((method.to_owned(), params));
    }
}

#[tokio::test]
async fn a_404_on_the_get_stream_starts_a_new_session() {
    let server = HttpServer::faults("get-expiry").await;
    let (told, mut notes) = mpsc::unbounded_channel();
    let client = Client::connect_http(
        &server.config("/mcp"),
        HttpMode::StreamableHttp,
        ClientOptions::default(),
        std::sync::Arc::new(Told(told)),
    )
    .await
    .expect("connect");
    // The first session's GET stream is answered 404; the new session's stream greets us.
    let greeting = tokio::time::timeout(Duration::from_secs(10), notes.recv())
        .await
        .expect("a new session's GET stream opens within 10 s of the 404")
        .expect("a notification");
    assert_eq!(
        greeting.1.as_ref().and_then(|p| p.get("data")),
        Some(&Value::from("hello from s2")),
        "{greeting:?}"
    );
    let result = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect("the call goes out in the new session");
    assert_eq!(first_text(&result), "ok in s2");
    client.close().await.expect("close");
    let log = server_log(&server).await;
    let inits = log.iter().filter(|e| e["method"] == "initialize").count();
    assert_eq!(inits, 2, "one new session: {log:?}");
    let calls: Vec<&Value> = log.iter().filter(|e| e["method"] == "tools/call").collect();
    assert_eq!(
        calls
            .iter()
            .map(|c| c["session"].clone())
            .collect::<Vec<_>>(),
        [Value::from("s2")],
        "the call goes out once, in the new session, not first into the forgotten one: {log:?}"
    );
}

#[tokio::test]
async fn a_server_that_forgets_every_session_on_its_get_stream_gets_three_new_ones() {
    let server = HttpServer::faults("get-expiry-always").await;
    let client = connect(&server).await;
    // The first session's GET stream and those of the three new ones, each answered 404.
    let log = support::wait::until(
        "the four sessions' GET streams",
        Duration::from_secs(10),
        || async {
            let log = server_log(&server).await;
            if log.iter().filter(|e| e["http"] == "GET").count() >= 4 {
                Ok(log)
            } else {
                Err(log)
            }
        },
    )
    .await;
    let gets = log.iter().filter(|e| e["http"] == "GET").count();
    assert_eq!(
        gets, 4,
        "the four sessions' GET streams within 10 s: {log:?}"
    );
    let result = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect("the call goes out");
    assert_eq!(
        first_text(&result),
        "ok in s4",
        "the GET stream started three new sessions in a row, then no more"
    );
    client.close().await.expect("close");
    let log = server_log(&server).await;
    let inits = log.iter().filter(|e| e["method"] == "initialize").count();
    assert_eq!(inits, 4, "one session and three new ones: {log:?}");
}

#[tokio::test]
async fn a_404_on_a_resumption_get_starts_a_new_session_and_fails_the_pending_call() {
    let server = HttpServer::faults("resume-expiry").await;
    let client = connect(&server).await;
    let lost = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect_err("the answer went with the forgotten session");
    let text = lost.to_string();
    assert!(
        text.contains("forgot the session") && text.contains("may or may not have run"),
        "the error says what happened and that the call may have run: {text}"
    );
    let result = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect("the next call goes out in the new session");
    assert_eq!(first_text(&result), "ok in s2");
    client.close().await.expect("close");
    let log = server_log(&server).await;
    let inits = log.iter().filter(|e| e["method"] == "initialize").count();
    assert_eq!(inits, 2, "one new session: {log:?}");
    let calls: Vec<Value> = log
        .iter()
        .filter(|e| e["method"] == "tools/call")
        .map(|c| c["session"].clone())
        .collect();
    assert_eq!(
        calls,
        [Value::from("s1"), Value::from("s2")],
        "the lost call is not sent again, and the next goes straight to the new session: {log:?}"
    );
}

#[tokio::test]
async fn a_stream_cut_before_its_answer_is_resumed_with_last_event_id() {
    let server = HttpServer::faults("cut-stream").await;
    let client = connect(&server).await;
    let started = std::time::Instant::now();
    let result = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect("the answer arrives on resume");
    assert_eq!(first_text(&result), "resumed");
    assert!(
        started.elapsed() >= Duration::from_millis(180),
        "the server's retry: 200 must be honoured"
    );
    client.close().await.expect("close");
    let log = server_log(&server).await;
    assert!(
        log.iter()
            .any(|e| e["http"] == "GET" && e["lastEventId"] == "ev-1"),
        "the resumption GET names the last event: {log:?}"
    );
    assert_eq!(
        log.iter().filter(|e| e["method"] == "tools/call").count(),
        1,
        "the call is not re-sent"
    );
}

#[tokio::test]
async fn an_http_error_fails_the_request_with_its_status_and_body() {
    let server = HttpServer::faults("plain-error").await;
    let client = connect(&server).await;
    let error = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect_err("HTTP 500");
    assert_eq!(error.http_status(), Some(500));
    assert!(
        error.to_string().contains("database on fire"),
        "the body explains the failure: {error}"
    );
    client
        .peer()
        .request("ping", None, Duration::from_secs(5))
        .await
        .expect("the connection survives");
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_url_elicitation_required_error_names_the_url_to_open() {
    let server = HttpServer::faults("url-elicitation").await;
    let client = connect(&server).await;
    let error = client
        .call_tool("slow", None, CallOptions::default())
        .await
        .expect_err("-32042");
    match &error {
        gatehouse_mcp::McpError::UrlElicitationRequired { elicitations, .. } => {
            assert_eq!(elicitations.len(), 1);
            assert_eq!(elicitations[0].url, "https://auth.example.test/connect?e=1");
            assert_eq!(elicitations[0].elicitation_id, "e-1");
        }
        other => panic!("a -32042 error must be recognised, got {other:?}"),
    }
    let message = error.to_string();
    assert!(
        message.contains("https://auth.example.test/connect?e=1")
            && message.contains("Connect your account"),
        "the user is told what to open and why: {message}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_broken_modern_stream_reissues_safe_requests_with_a_new_id() {
    let server = HttpServer::faults("modern-cut").await;
    let client = connect(&server).await;
    assert_eq!(client.era(), gatehouse_mcp::Era::Modern);

    // tools/list and a read-only tool are sent again after their streams broke; no
    // Last-Event-ID resumption in this era.
    let tools = client.list_tools().await.expect("tools/list, re-issued");
    assert_eq!(tools.items.len(), 2);
    let looked = client
        .call_tool("lookup", None, CallOptions::default())
        .await
        .expect("a read-only tool is re-issued");
    assert_eq!(first_text(&looked), "lookup answered on attempt 2");

    // A tool with side effects is not run again: the caller learns it may have run.
    let charged = client
        .call_tool("charge", None, CallOptions::default())
        .await
        .expect_err("a side-effecting tool is not re-issued");
    assert!(
        charged.to_string().contains("may or may not have run"),
        "{charged}"
    );
    client.close().await.expect("close");

    let log = server_log(&server).await;
    assert!(
        !log.iter().any(|e| e["http"] == "GET"),
        "no resumption GET in the modern era: {log:?}"
    );
    let ids = |method: &str, name: Option<&str>| -> Vec<Value> {
        log.iter()
            .filter(|e| e["method"] == method && name.is_none_or(|n| e["name"] == n))
            .map(|e| e["id"].clone())
            .collect()
    };
    for (method, name) in [("tools/list", None), ("tools/call", Some("lookup"))] {
        let sent = ids(method, name);
        assert_eq!(sent.len(), 2, "{method} {name:?} sent twice: {log:?}");
        assert_ne!(sent[0], sent[1], "the re-issue has a new id");
    }
    assert_eq!(
        ids("tools/call", Some("charge")).len(),
        1,
        "charge ran once"
    );
}

#[tokio::test]
async fn a_header_mismatch_refreshes_the_tools_and_retries_once() {
    let server = HttpServer::faults("header-mismatch").await;
    let client = connect(&server).await;
    let listed = client.list_tools().await.expect("tools/list");
    assert_eq!(listed.items.len(), 2);

    // Since that listing `query` mirrors `region` into a header the client does not know of.
    let args = serde_json::json!({"region": "eu-north1"});
    let result = client
        .call_tool("query", Some(args), CallOptions::default())
        .await
        .expect("the call succeeds once the changed tool is listed again");
    assert_eq!(first_text(&result), "queried eu-north1");

    // A server that keeps refusing is not asked forever.
    let refused = client
        .call_tool("stubborn", None, CallOptions::default())
        .await
        .expect_err("a second HeaderMismatch is the answer");
    assert!(refused.to_string().contains("-32020"), "{refused}");
    client.close().await.expect("close");

    let log = server_log(&server).await;
    let calls = |name: &str| -> Vec<&Value> {
        log.iter()
            .filter(|e| e["method"] == "tools/call" && e["name"] == name)
            .collect()
    };
    let query = calls("query");
    assert_eq!(query.len(), 2, "one retry after the mismatch: {log:?}");
    assert!(
        query[0]["paramHeaders"]
            .as_object()
            .is_some_and(serde_json::Map::is_empty),
        "the first call knew no header: {log:?}"
    );
    assert_eq!(
        query[1]["paramHeaders"]["mcp-param-region"], "eu-north1",
        "the retry carries the header the refreshed definition asks for"
    );
    assert_eq!(
        calls("stubborn").len(),
        2,
        "retried once, not more: {log:?}"
    );
    let lists = log.iter().filter(|e| e["method"] == "tools/list").count();
    assert_eq!(
        lists, 3,
        "the tools are listed again before each retry: {log:?}"
    );
}

#[tokio::test]
async fn a_probe_answered_as_initialize_over_http_is_followed_by_initialize() {
    let server = HttpServer::faults("naive-initialize").await;
    let client = connect(&server).await;
    assert_eq!(client.era(), gatehouse_mcp::Era::Legacy);
    let tools = client
        .list_tools()
        .await
        .expect("tools/list in the session that initialize opened");
    assert_eq!(tools.items.len(), 1);
    client.close().await.expect("close");

    let log = server_log(&server).await;
    let posts: Vec<&Value> = log.iter().filter(|e| e["http"] == "POST").collect();
    let methods: Vec<&str> = posts.iter().filter_map(|e| e["method"].as_str()).collect();
    assert_eq!(
        methods,
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/list"
        ],
        "a real initialize comes before notifications/initialized: {log:?}"
    );
    for entry in &posts[2..] {
        assert_eq!(
            entry["session"], "s2",
            "the session initialize opened: {log:?}"
        );
        assert_eq!(
            entry["version"], "2025-11-25",
            "the negotiated version: {log:?}"
        );
    }
}

#[tokio::test]
async fn requests_that_meet_an_expired_session_at_once_reinitialize_it_once() {
    let server = HttpServer::faults("session-expiry").await;
    let client = connect(&server).await;
    client.list_tools().await.expect("tools/list expires s1");
    // Five calls meet the 404 together; a sixth is sent while the new session is being made
    // (the server takes 300 ms to answer that initialize: the sixth goes once it has arrived).
    let calls = (0..5).map(|_| client.call_tool("slow", None, CallOptions::default()));
    let late = async {
        support::wait::until(
            "the new session's initialize reaches the server",
            Duration::from_secs(10),
            || async {
                let log = server_log(&server).await;
                let inits = log.iter().filter(|e| e["method"] == "initialize").count();
                if inits >= 2 { Ok(()) } else { Err(log) }
            },
        )
        .await;
        client.call_tool("slow", None, CallOptions::default()).await
    };
    let (results, late) = tokio::join!(futures_util::future::join_all(calls), late);
    for result in results.into_iter().chain([late]) {
        let result = result.expect("every call survives the expiry");
        assert_eq!(
            first_text(&result),
            "ok in s2",
            "all run in the one new session"
        );
    }
    client.close().await.expect("close");

    let log = server_log(&server).await;
    let inits = log.iter().filter(|e| e["method"] == "initialize").count();
    assert_eq!(inits, 2, "one re-initialization for all of them: {log:?}");
    let calls: Vec<&Value> = log.iter().filter(|e| e["method"] == "tools/call").collect();
    assert!(
        calls
            .iter()
            .all(|c| c["session"] == "s1" || c["session"] == "s2"),
        "no call goes out without a session, or in a session of its own: {log:?}"
    );
    assert_eq!(
        calls.iter().filter(|c| c["session"] == "s2").count(),
        6,
        "each call runs once in the new session: {log:?}"
    );
    let deleted: Vec<&Value> = log.iter().filter(|e| e["http"] == "DELETE").collect();
    assert_eq!(deleted.len(), 1, "one session to end: {log:?}");
    assert_eq!(deleted[0]["session"], "s2");
}

#[tokio::test]
async fn a_server_error_that_looks_like_a_broken_stream_is_not_reissued() {
    let server = HttpServer::faults("modern-lookalike").await;
    let client = connect(&server).await;
    assert_eq!(client.era(), gatehouse_mcp::Era::Modern);
    let error = client
        .peer()
        .request("tools/list", None, Duration::from_secs(10))
        .await
        .expect_err("the server's error");
    match &error {
        gatehouse_mcp::McpError::Rpc { error: rpc, .. } => {
            assert_eq!(
                (rpc.code, rpc.message.as_str()),
                (-32000, "upstream unavailable")
            );
        }
        other => panic!("the server's own error is reported as such: {other:?}"),
    }
    assert!(!error.is_broken_stream(), "{error:?}");
    assert_eq!(error.http_status(), None, "the answer came with HTTP 200");
    client.close().await.expect("close");
    let log = server_log(&server).await;
    let lists = log.iter().filter(|e| e["method"] == "tools/list").count();
    assert_eq!(lists, 1, "not sent again: {log:?}");
}

#[tokio::test]
async fn a_server_error_that_names_an_http_status_does_not_cause_the_sse_fallback() {
    let server = HttpServer::faults("lookalike-errors").await;
    let error = support::connect_http(&server.config("/mcp"), gatehouse_mcp::HttpMode::Auto)
        .await
        .expect_err("initialize is refused");
    match &error {
        gatehouse_mcp::McpError::Rpc { error: rpc, .. } => {
            assert_eq!(
                (rpc.code, rpc.message.as_str()),
                (-32000, "upstream unavailable")
            );
        }
        other => panic!("the server's own error is reported as such: {other:?}"),
    }
    let log = server_log(&server).await;
    assert!(
        !log.iter().any(|e| e["http"] == "GET"),
        "no HTTP+SSE attempt: {log:?}"
    );
}
