//! The stdio client against a real third-party server (`@modelcontextprotocol/server-everything`,
//! installed by `scripts/install-test-deps.sh`) and against small misbehaving scripts.

use std::time::Duration;

use crate::support::{connect_stdio, everything, scripted};
use gatehouse_mcp::McpError;

/// A legacy server's handshake at 2025-06-18 (tests/fixtures/scripts/scripted.py).
const HANDSHAKE: &str = r#"handshake({"tools": {}}, "2025-06-18")"#;

#[tokio::test]
async fn lists_the_tools_of_server_everything() {
    let client = connect_stdio(&everything())
        .await
        .expect("server-everything must initialize");
    assert_eq!(
        client.era(),
        gatehouse_mcp::Era::Legacy,
        "server-everything is legacy-only"
    );
    assert!(
        client.era_reason().contains("server/discover failed"),
        "why: {}",
        client.era_reason()
    );
    let init = client.initialize_result().clone();
    assert_eq!(
        init.protocol_version, "2025-11-25",
        "the offered revision is accepted"
    );
    assert!(
        init.capabilities.contains_key("tools"),
        "server-everything declares tools"
    );
    let page = client.list_tools().await.expect("tools/list");
    let names: Vec<&str> = page.items.iter().map(|t| t.name.as_str()).collect();
    for expected in ["echo", "get-sum", "trigger-long-running-operation"] {
        assert!(
            names.contains(&expected),
            "{expected} must be listed, got {names:?}"
        );
    }
    assert!(
        page.malformed.is_empty(),
        "server-everything's tools are all valid"
    );
    client.close().await.expect("a clean close");
}

#[tokio::test]
async fn skips_stdout_noise_and_accepts_an_older_revision() {
    let source = format!(
        "{HANDSHAKE}\nprint('starting up... not json', flush=True)\nsys.stdout.buffer.write(b'\\xff\\xfe invalid utf-8\\n')\nprint('x' * 5000, flush=True)\n\
         req = read()\nsend({{'jsonrpc': '2.0', 'id': req['id'], 'result': {{'tools': [{{'name': 'a', 'inputSchema': {{'type': 'object'}}}}, {{'name': 'bad'}}]}}}})\n\
         sys.stdin.read()"
    );
    let mut config = scripted(&source);
    config.max_message_bytes = 4096;
    let client = connect_stdio(&config)
        .await
        .expect("handshake with 2025-06-18");
    assert_eq!(client.initialize_result().protocol_version, "2025-06-18");
    let page = client
        .list_tools()
        .await
        .expect("noise on stdout must not break the connection");
    assert_eq!(page.items.len(), 1);
    assert_eq!(
        page.malformed.len(),
        1,
        "a tool without inputSchema is kept raw"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn refuses_an_unknown_protocol_version() {
    let source = r#"
handshake({}, "1999-01-01", "old")
sys.stdin.read()
"#;
    let error = connect_stdio(&scripted(source))
        .await
        .expect_err("an unknown version must be refused");
    assert!(
        matches!(&error, McpError::UnsupportedVersion { version, .. } if version == "1999-01-01"),
        "got {error:?}"
    );
}

#[tokio::test]
async fn a_server_that_dies_mid_request_fails_the_request() {
    let source = format!("{HANDSHAKE}\nread()\nsys.stderr.write('crashed hard\\n')\nsys.exit(1)");
    let client = connect_stdio(&scripted(&source)).await.expect("handshake");
    let error = tokio::time::timeout(Duration::from_secs(10), client.list_tools())
        .await
        .expect("a dead server must not hang the request")
        .expect_err("the request must fail");
    assert!(
        matches!(&error, McpError::Closed { reason } if reason.contains("crashed hard")),
        "got {error:?}"
    );
    client.close().await.expect("close after death");
}

#[tokio::test]
async fn a_timed_out_request_is_cancelled_on_the_server() {
    // The script answers the first tools/list only after the cancellation arrives, then reports
    // what it received through the second call.
    let source = format!(
        "{HANDSHAKE}\nfirst = read()\ncancel = read()\nsend({{'jsonrpc': '2.0', 'id': first['id'], 'result': {{'tools': []}}}})\n\
         second = read()\nsend({{'jsonrpc': '2.0', 'id': second['id'], 'result': {{'tools': [{{'name': cancel['method'] + '|' + str(cancel['params']['requestId']), 'inputSchema': {{}}}}]}}}})\n\
         sys.stdin.read()"
    );
    let client = connect_stdio(&scripted(&source)).await.expect("handshake");
    let timeout = Duration::from_millis(300);
    let first = client.peer().request("tools/list", None, timeout).await;
    assert!(
        matches!(first, Err(McpError::Timeout { .. })),
        "got {first:?}"
    );
    let second = client
        .list_tools()
        .await
        .expect("the connection survives a timeout and a late response");
    let seen = &second.items[0].name;
    assert!(
        seen.starts_with("notifications/cancelled|"),
        "the server must be told to stop: {seen}"
    );
    assert_eq!(
        client.peer().pending_count(),
        0,
        "the late response must not linger"
    );
    client.close().await.expect("close");
}
