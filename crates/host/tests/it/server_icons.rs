//! Servers' icons (issue 25, "server icons from `serverInfo.icons`, fetched safely"): the icon a
//! real server (the Python SDK, `tests/fixtures/python/icons_server.py`) declares reaches the
//! window as a checked `data:` URI; `file:`, `javascript:` and plain `http:` sources are never
//! touched, bytes that are not an allowed image are refused whatever MIME type they claim, and
//! an `https:` icon is fetched without credentials, under the size cap, with redirects only on
//! its own origin (an HTTPS site with the test certificate authority, `support/icon_site.rs`);
//! a remote server's icon on another origin is not fetched at all.

use std::collections::HashMap;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use gatehouse_host::icons::{IconOrigin, ServerIcons, fetch};
use serde_json::json;

use crate::support;
use crate::support::icon_site::{IconSite, Page, ca};

/// A 1×1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

fn png_uri() -> String {
    format!("data:image/png;base64,{}", STANDARD.encode(PNG))
}

fn icons_server(name: &str, icons: serde_json::Value) -> gatehouse_host::ServerInput {
    support::python_server(
        name,
        "icons_server.py",
        vec!["stdio".into(), icons.to_string()],
    )
}

/// A plain TCP listener that counts the connections it was asked for.
fn tripwire() -> (std::net::TcpListener, u16) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    (listener, port)
}

fn untouched(listener: &std::net::TcpListener) -> bool {
    matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

#[tokio::test]
async fn a_servers_inline_icon_is_shown_and_unsafe_sources_are_never_touched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = support::open_host(dir.path(), true).await;
    let (wire, port) = tripwire();
    let hostile = json!([
        {"src": "file:///etc/passwd", "mimeType": "image/png"},
        {"src": "javascript:alert(1)"},
        {"src": format!("http://127.0.0.1:{port}/icon.png")},
        {"src": format!("data:image/png;base64,{}", STANDARD.encode("<html><script>alert(1)</script>"))},
    ]);
    let mut with_one_good = hostile.as_array().expect("list").clone();
    with_one_good.push(json!({"src": png_uri(), "sizes": ["16x16"]}));

    host.add_server(icons_server("good", json!(with_one_good)))
        .await
        .expect("add");
    host.add_server(icons_server("bad", hostile))
        .await
        .expect("add");
    support::settled(&host, "good").await;
    support::settled(&host, "bad").await;

    let icon = host.server_icon("good", Some("dark")).await.expect("asked");
    assert_eq!(
        icon,
        Some(png_uri()),
        "the PNG, re-encoded from its checked bytes"
    );
    assert_eq!(host.server_icon("bad", None).await.expect("asked"), None);
    assert!(untouched(&wire), "a plain http: icon is never fetched");
    assert!(
        host.server_icon("nobody", None).await.is_err(),
        "an unknown server is an error, not an empty icon"
    );
}

fn pages(site_port: u16, elsewhere_port: u16) -> HashMap<String, Page> {
    let png = || {
        (
            200,
            vec![("Content-Type".into(), "image/png".into())],
            PNG.to_vec(),
        )
    };
    let redirect = |to: String| (302, vec![("Location".to_owned(), to)], Vec::new());
    HashMap::from([
        ("/ok.png".to_owned(), png()),
        (
            "/fake.png".to_owned(),
            (
                200,
                vec![("Content-Type".into(), "image/png".into())],
                b"<html>hi</html>".to_vec(),
            ),
        ),
        (
            "/big.png".to_owned(),
            (200, Vec::new(), vec![0u8; 200 * 1024]),
        ),
        ("/same".to_owned(), redirect("/ok.png".to_owned())),
        (
            "/away".to_owned(),
            redirect(format!("https://localhost:{elsewhere_port}/ok.png")),
        ),
        (
            "/downgrade".to_owned(),
            redirect(format!("http://127.0.0.1:{site_port}/ok.png")),
        ),
    ])
}

#[tokio::test]
async fn https_icons_are_fetched_without_credentials_and_redirected_only_on_their_origin() {
    let elsewhere = IconSite::start(HashMap::new()).await;
    let site = IconSite::start_with(|port| pages(port, elsewhere.port)).await;
    let client = fetch::client_builder()
        .tls_certs_only([ca()])
        .build()
        .expect("client");
    let icons = ServerIcons::with_client(client);
    let resolve = |path: &str, n: usize| {
        let declared = json!([{ "src": site.url(path) }]);
        let icons = &icons;
        async move {
            icons
                .resolve(&format!("s{n}"), Some(&declared), None, &IconOrigin::Any)
                .await
        }
    };

    assert_eq!(resolve("/ok.png", 1).await, Some(png_uri()));
    assert_eq!(
        resolve("/same", 2).await,
        Some(png_uri()),
        "a same-origin redirect"
    );
    assert_eq!(
        resolve("/fake.png", 3).await,
        None,
        "HTML claiming to be a PNG"
    );
    assert_eq!(resolve("/big.png", 4).await, None, "over the size cap");
    assert_eq!(
        resolve("/away", 5).await,
        None,
        "a redirect to another origin"
    );
    assert_eq!(resolve("/downgrade", 6).await, None, "a redirect to http:");
    assert_eq!(resolve("/missing.png", 7).await, None, "a 404");
    assert!(
        elsewhere.seen().is_empty(),
        "the other origin was never asked"
    );

    let seen = site.seen();
    assert!(seen.iter().any(|r| r.path == "/ok.png"));
    for request in &seen {
        for credential in ["authorization", "cookie", "proxy-authorization"] {
            assert!(
                !request.headers.contains_key(credential),
                "{credential} sent with {}",
                request.path
            );
        }
    }

    // Once resolved, an icon is not fetched again.
    let before = site.seen().len();
    assert_eq!(resolve("/ok.png", 1).await, Some(png_uri()));
    assert_eq!(site.seen().len(), before, "served from the cache");
}

#[tokio::test]
async fn a_remote_servers_icon_on_another_origin_is_not_fetched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = support::open_host(dir.path(), true).await;
    let site = IconSite::start_with(|port| pages(port, port)).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let dir_python = support::fixtures().join("python");
    let _server = tokio::process::Command::new(dir_python.join(".venv/bin/python"))
        .arg(dir_python.join("icons_server.py"))
        .args(["streamable-http", &port.to_string()])
        .arg(json!([{ "src": site.url("/ok.png") }]).to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("python starts");
    let step = format!("the Python server listens on port {port}");
    support::wait::until(&step, Duration::from_secs(20), || async {
        tokio::net::TcpStream::connect(("127.0.0.1", port)).await
    })
    .await;
    host.add_server(support::http(
        "remote",
        &format!("http://127.0.0.1:{port}/mcp"),
    ))
    .await
    .expect("add");
    support::settled(&host, "remote").await;

    assert_eq!(host.server_icon("remote", None).await.expect("asked"), None);
    assert!(
        site.seen().is_empty(),
        "an icon on another origin than the server is never fetched"
    );
}
