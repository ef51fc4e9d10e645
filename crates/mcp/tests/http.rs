//! The HTTP transports against server-everything's own HTTP modes (`streamableHttp` and the
//! legacy `sse`), including the automatic fallback from Streamable HTTP to HTTP+SSE.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::peer::RefusingHandler;
use gatehouse_mcp::{Client, ClientOptions, HttpConfig, HttpMode};
use tokio::process::{Child, Command};

/// A server-everything process in one of its HTTP modes, killed when dropped.
struct HttpServer {
    _child: Child,
    port: u16,
}

impl HttpServer {
    async fn start(mode: &str) -> HttpServer {
        let js = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
            "../../tests/fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
        );
        assert!(
            js.is_file(),
            "server-everything is missing: run scripts/install-test-deps.sh"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new("node")
            .arg(&js)
            .arg(mode)
            .env("PORT", port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("node starts");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return HttpServer {
                    _child: child,
                    port,
                };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("server-everything {mode} did not listen on port {port} within 10 s");
    }

    fn url(&self, path: &str) -> HttpConfig {
        let url = format!("http://127.0.0.1:{}{path}", self.port);
        HttpConfig::new(url::Url::parse(&url).expect("url"))
    }
}

async fn connect(config: &HttpConfig, mode: HttpMode) -> Client {
    Client::connect_http(
        config,
        mode,
        ClientOptions::default(),
        Arc::new(RefusingHandler),
    )
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
    let server = HttpServer::start("streamableHttp").await;
    let client = connect(&server.url("/mcp"), HttpMode::StreamableHttp).await;
    assert_lists_everything(client, "streamable-http").await;
}

#[tokio::test]
async fn auto_prefers_streamable_http() {
    let server = HttpServer::start("streamableHttp").await;
    let client = connect(&server.url("/mcp"), HttpMode::Auto).await;
    assert_lists_everything(client, "streamable-http").await;
}

#[tokio::test]
async fn legacy_sse_lists_tools() {
    let server = HttpServer::start("sse").await;
    let client = connect(&server.url("/sse"), HttpMode::Sse).await;
    assert_lists_everything(client, "sse").await;
}

#[tokio::test]
async fn auto_falls_back_to_legacy_sse() {
    let server = HttpServer::start("sse").await;
    let client = connect(&server.url("/sse"), HttpMode::Auto).await;
    assert_lists_everything(client, "sse").await;
}

#[tokio::test]
async fn an_unreachable_server_is_a_clear_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let config =
        HttpConfig::new(url::Url::parse(&format!("http://127.0.0.1:{port}/mcp")).expect("url"));
    let error = Client::connect_http(
        &config,
        HttpMode::Auto,
        ClientOptions::default(),
        Arc::new(RefusingHandler),
    )
    .await
    .expect_err("nothing listens there");
    assert!(error.to_string().contains("cannot reach"), "got: {error}");
}
