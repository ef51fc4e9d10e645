//! Fault scenario 7 of issue #10: invalid UTF-8 on a server's stdout. Raw bytes and a
//! notification that is not UTF-8, before the handshake, are skipped; an answer that carries a
//! request's id but is not UTF-8 fails that request at once with a clear error; nothing panics
//! and the connection stays usable.

use std::time::{Duration, Instant};

use crate::support::{fixtures, open_host, stdio};
use gatehouse_host::connect::open_client;
use gatehouse_mcp::CallOptions;

#[tokio::test]
async fn invalid_utf8_on_stdout_is_skipped_or_fails_its_request_clearly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let script = fixtures().join("faults/flood.py").display().to_string();
    let view = host
        .add_server(stdio("utf8", "python3", vec![script]))
        .await
        .expect("add");
    let client = open_client(&view.config, host.registry())
        .await
        .expect("invalid UTF-8 before the handshake is skipped");
    let tools = client.list_tools().await.expect("tools/list");
    assert_eq!(tools.items.len(), 2);

    let started = Instant::now();
    let error = tokio::time::timeout(
        Duration::from_secs(5),
        client.call_tool("bad-utf8", None, CallOptions::default()),
    )
    .await
    .expect("the request fails at once, not after its timeout")
    .expect_err("an answer that is not UTF-8 is not a result");
    let message = error.to_string();
    assert!(
        message.contains("malformed") && message.contains("UTF-8"),
        "the error says what was wrong: {message}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    client.ping().await.expect("the connection is still usable");
    client.close().await.expect("close");
    host.shutdown().await;
}
