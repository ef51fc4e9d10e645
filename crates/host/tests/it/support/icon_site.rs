//! A small HTTPS site on 127.0.0.1 for the server icon tests: tokio-rustls with the test
//! certificate authority in `support/tls/` (a CA and a leaf for `localhost` and 127.0.0.1,
//! valid until 2126), answering fixed paths and recording each request's path and headers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

const CA: &[u8] = include_bytes!("tls/ca.der");
const LEAF: &[u8] = include_bytes!("tls/leaf.der");
const LEAF_KEY: &[u8] = include_bytes!("tls/leaf.key.der");

/// A request the site received: its path and its headers, names lowercased.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub headers: HashMap<String, String>,
}

/// A response: status, headers, body.
pub type Page = (u16, Vec<(String, String)>, Vec<u8>);

/// The running site; it stops when dropped.
pub struct IconSite {
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for IconSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The test certificate authority, for a client that trusts the site.
pub fn ca() -> reqwest::Certificate {
    reqwest::Certificate::from_der(CA).expect("the test CA parses")
}

impl IconSite {
    /// Serves `pages` by path (anything else is a 404).
    pub async fn start(pages: HashMap<String, Page>) -> IconSite {
        Self::start_with(|_| pages).await
    }

    /// Serves the pages `pages` makes from the port the site listens on.
    pub async fn start_with(pages: impl FnOnce(u16) -> HashMap<String, Page>) -> IconSite {
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("protocol versions")
            .with_no_client_auth()
            .with_single_cert(
                vec![CertificateDer::from(LEAF.to_vec())],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(LEAF_KEY.to_vec())),
            )
            .expect("the test certificate");
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recorded = seen.clone();
        let pages = Arc::new(pages(port));
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (acceptor, pages, recorded) =
                    (acceptor.clone(), pages.clone(), recorded.clone());
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(stream).await else {
                        return;
                    };
                    let Some(request) = read_head(&mut tls).await else {
                        return;
                    };
                    let page = pages.get(&request.path).cloned();
                    recorded.lock().expect("seen").push(request);
                    let (status, headers, body) =
                        page.unwrap_or((404, Vec::new(), b"not found".to_vec()));
                    let mut head = format!(
                        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                        body.len()
                    );
                    for (name, value) in headers {
                        head.push_str(&format!("{name}: {value}\r\n"));
                    }
                    head.push_str("\r\n");
                    let _ = tls.write_all(head.as_bytes()).await;
                    let _ = tls.write_all(&body).await;
                    let _ = tls.shutdown().await;
                });
            }
        });
        IconSite { port, seen, task }
    }

    /// `https://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("https://127.0.0.1:{}{path}", self.port)
    }

    /// The requests received so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("seen").clone()
    }
}

/// The request line's path and the headers, up to the blank line (at most 16 KiB).
async fn read_head(
    tls: &mut tokio_rustls::server::TlsStream<tokio::net::TcpStream>,
) -> Option<Seen> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tls.read(&mut buf).await.ok()?;
        if n == 0 || head.len() > 16 * 1024 {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_owned();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    Some(Seen { path, headers })
}
