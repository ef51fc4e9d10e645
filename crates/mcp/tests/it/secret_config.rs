//! Secret env values and headers in the transport configs: they reach the server, and printing
//! a config (or the HTTP client made from it) never shows them.

use crate::support;

use gatehouse_mcp::{HttpMode, Sensitive, StdioConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const SECRET: &str = "tok-5e1c2b-do-not-print";

#[test]
fn configs_holding_secrets_never_print_them() {
    let mut stdio = StdioConfig::new("python3");
    stdio.env = vec![("PLAIN".into(), "visible-value".into())];
    stdio.secret_env = vec![("API_TOKEN".into(), Sensitive::new(SECRET.into()))];
    let mut http = support::http_config(9, "/mcp");
    http.headers = vec![("X-Team".into(), "blue-team".into())];
    http.secret_headers = vec![(
        "Authorization".into(),
        Sensitive::new(format!("Bearer {SECRET}")),
    )];
    let client = http.client().expect("an HTTP client");
    for (what, printed) in [
        ("the stdio config", format!("{stdio:?}")),
        ("the stdio config, pretty", format!("{stdio:#?}")),
        ("the HTTP config", format!("{http:?}")),
        ("the HTTP client", format!("{client:?}")),
    ] {
        assert!(
            !printed.contains(SECRET),
            "{what} shows the secret: {printed}"
        );
        assert!(
            printed.contains("visible-value") || printed.contains("blue-team"),
            "{what} still shows what is not secret (else this test shows nothing): {printed}"
        );
    }
    assert!(format!("{stdio:?}").contains("<redacted>"));
    assert!(
        format!("{client:?}").contains("Sensitive"),
        "the client holds the header as sensitive: {client:?}"
    );
}

#[tokio::test]
async fn a_secret_env_value_reaches_a_stdio_server() {
    let mut config = support::scripted(
        r#"
import os
handshake({"tools": {}})
msg = read()
reply(msg, {"tools": [tool("token=" + os.environ.get("API_TOKEN", "none"))]})
sys.stdin.read()
"#,
    );
    config.secret_env = vec![("API_TOKEN".into(), Sensitive::new(SECRET.into()))];
    let client = support::connect_stdio(&config).await.expect("connect");
    assert_eq!(
        support::tool_names(&client).await,
        [format!("token={SECRET}")]
    );
}

/// Reads one request's head from `socket`.
async fn request_head(socket: &mut tokio::net::TcpStream) -> String {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = socket.read(&mut buf).await.expect("read");
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&head).to_lowercase()
}

#[tokio::test]
async fn a_secret_header_reaches_an_http_server() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("listen");
    let port = listener.local_addr().expect("address").port();
    // Reads one request's head, answers 500, and hands the head back.
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("a request");
        let head = request_head(&mut socket).await;
        let _ = socket
            .write_all(b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            .await;
        head
    });
    let mut config = support::http_config(port, "/mcp");
    config.secret_headers = vec![(
        "Authorization".into(),
        Sensitive::new(format!("Bearer {SECRET}")),
    )];
    let _ = support::connect_http(&config, HttpMode::StreamableHttp).await;
    let head = server.await.expect("the server task");
    assert!(
        head.contains(&format!("authorization: bearer {SECRET}")),
        "the request carries the secret header: {head}"
    );
}

#[tokio::test]
async fn a_secret_header_never_follows_a_redirect_to_another_origin() {
    // The server redirects every request to another origin, which records what it gets.
    let other = TcpListener::bind("127.0.0.1:0").await.expect("listen");
    let elsewhere = format!(
        "http://127.0.0.1:{}/collect",
        other.local_addr().expect("address").port()
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("listen");
    let port = listener.local_addr().expect("address").port();
    let location = elsewhere.clone();
    let server = tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.expect("a request");
            request_head(&mut socket).await;
            let answer = format!(
                "HTTP/1.1 307 Temporary Redirect\r\nlocation: {location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            );
            let _ = socket.write_all(answer.as_bytes()).await;
        }
    });
    let mut config = support::http_config(port, "/mcp");
    config.secret_headers = vec![("X-Api-Key".into(), Sensitive::new(SECRET.into()))];
    let Err(error) = support::connect_http(&config, HttpMode::StreamableHttp).await else {
        panic!("a server that only redirects elsewhere cannot be connected to");
    };
    server.abort();
    let message = error.to_string();
    assert!(
        message.contains("redirected to another origin") && message.contains(&elsewhere),
        "the failure says where the redirect led and why it was not followed: {message}"
    );
    // The client has given up, so a request it sent to the other origin is waiting by now.
    let reached = tokio::time::timeout(std::time::Duration::ZERO, other.accept()).await;
    if let Ok(Ok((mut socket, _))) = reached {
        let head = request_head(&mut socket).await;
        panic!("the redirect was followed to the other origin: {head}");
    }
}
