//! The HTTP transports against server-everything's own HTTP modes (`streamableHttp` and the
//! legacy `sse`), including the automatic fallback from Streamable HTTP to HTTP+SSE.

use crate::support;

use std::time::Duration;

use crate::support::{HttpServer, free_port, http_config};
use gatehouse_mcp::{Client, HttpConfig, HttpMode};

async fn connect(config: &HttpConfig, mode: HttpMode) -> Client {
    support::connect_http(config, mode)
        .await
        .unwrap_or_else(|e| panic!("connecting to {} ({mode:?}) must work: {e}", config.url))
}

async fn assert_lists_everything(client: Client, transport: &str) {
    assert_eq!(
        client.transport_kind(),
        transport,
        "the negotiated transport is recorded"
    );
    assert_eq!(client.initialize_result().protocol_version, "2025-11-25");
    let page = client.list_tools().await.expect("tools/list over HTTP");
    let names: Vec<&str> = page.items.iter().map(|t| t.name.as_str()).collect();
    assert!(
        names.contains(&"echo") && names.contains(&"get-sum"),
        "got {names:?}"
    );
    // A second request on the same session proves the session id and version header work.
    client
        .peer()
        .request("ping", None, Duration::from_secs(10))
        .await
        .expect("ping");
    client.close().await.expect("close");
}

#[tokio::test]
async fn streamable_http_lists_tools() {
    let server = HttpServer::everything("streamableHttp").await;
    let client = connect(&server.config("/mcp"), HttpMode::StreamableHttp).await;
    assert_lists_everything(client, "streamable-http").await;
}

#[tokio::test]
async fn auto_prefers_streamable_http() {
    let server = HttpServer::everything("streamableHttp").await;
    let client = connect(&server.config("/mcp"), HttpMode::Auto).await;
    assert_lists_everything(client, "streamable-http").await;
}

#[tokio::test]
async fn legacy_sse_lists_tools() {
    let server = HttpServer::everything("sse").await;
    let client = connect(&server.config("/sse"), HttpMode::Sse).await;
    assert_lists_everything(client, "sse").await;
}

#[tokio::test]
async fn auto_falls_back_to_legacy_sse() {
    let server = HttpServer::everything("sse").await;
    let client = connect(&server.config("/sse"), HttpMode::Auto).await;
    assert_lists_everything(client, "sse").await;
}

#[tokio::test]
async fn an_unreachable_server_is_a_clear_error() {
    let config = http_config(free_port(), "/mcp");
    let error = support::connect_http(&config, HttpMode::Auto)
        .await
        .expect_err("nothing listens there");
    assert!(error.to_string().contains("cannot reach"), "got: {error}");
}
