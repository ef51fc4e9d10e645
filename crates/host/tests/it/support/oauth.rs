//! tests/fixtures/faults/oauth_server.py (an MCP server behind OAuth with its own authorization
//! server), and a browser played by the test: it GETs the authorization URL and follows the
//! redirect back to the loopback listener, as a person's browser would. Kept tokens and
//! sign-ins are aged in the keyring rather than waited out (the host reads their times from
//! there; the fixture's tokens do not expire on its clock, its ID tokens only when exchanged).

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::LoopbackPrompt;
use gatehouse_host::secrets::{KeyringStore, oauth};
use tokio::sync::mpsc;

/// The fixture, killed when dropped.
pub struct OAuthServer {
    _child: tokio::process::Child,
    pub port: u16,
}

/// The fixture in `mode`, and a started live host on a fresh data directory (kept while the
/// returned directory lives).
pub async fn fixture_and_host(
    mode: &str,
) -> (OAuthServer, tempfile::TempDir, gatehouse_host::Host) {
    let fixture = OAuthServer::start(mode).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let host = super::open_host(dir.path(), true).await;
    host.start().await.expect("start");
    (fixture, dir, host)
}

impl OAuthServer {
    /// Starts the fixture in `mode` (`plain`, `short-lived`, …).
    pub async fn start(mode: &str) -> OAuthServer {
        let port = std::net::TcpListener::bind(("127.0.0.1", 0))
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = tokio::process::Command::new("python3")
            .arg(super::fixtures().join("faults/oauth_server.py"))
            .args([port.to_string().as_str(), mode])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 starts");
        let step = format!("the OAuth fixture listens on port {port}");
        super::wait::until(&step, Duration::from_secs(10), || async {
            tokio::net::TcpStream::connect(("127.0.0.1", port)).await
        })
        .await;
        OAuthServer {
            _child: child,
            port,
        }
    }

    /// The MCP endpoint.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// The authorization server's issuer.
    pub fn issuer(&self) -> String {
        format!("http://127.0.0.1:{}/as", self.port)
    }

    /// The enterprise identity provider's issuer.
    pub fn idp_issuer(&self) -> String {
        format!("http://127.0.0.1:{}/idp", self.port)
    }

    /// What the fixture saw (its `GET /log`), entries of `kind` only.
    pub async fn log(&self, kind: &str) -> Vec<serde_json::Value> {
        let url = format!("http://127.0.0.1:{}/log", self.port);
        let entries: Vec<serde_json::Value> = reqwest::get(url)
            .await
            .expect("the log answers")
            .json()
            .await
            .expect("JSON");
        entries.into_iter().filter(|e| e["kind"] == kind).collect()
    }
}

/// What the played browser saw: the final URL and the page it showed.
#[derive(Debug)]
pub struct Visit {
    pub url: String,
    pub status: u16,
    pub page: String,
}

/// A loopback prompt whose `open` plays the browser; each visit is sent on the receiver.
pub async fn browser_prompt(timeout: Duration) -> (Arc<LoopbackPrompt>, mpsc::Receiver<Visit>) {
    let (visits, seen) = mpsc::channel(4);
    let open = move |url: &str| -> Result<(), String> {
        let url = url.to_owned();
        let visits = visits.clone();
        tokio::spawn(async move {
            let visit = match reqwest::get(&url).await {
                Ok(response) => Visit {
                    url: response.url().to_string(),
                    status: response.status().as_u16(),
                    page: response.text().await.unwrap_or_default(),
                },
                Err(e) => Visit {
                    url,
                    status: 0,
                    page: e.to_string(),
                },
            };
            let _ = visits.send(visit).await;
        });
        Ok(())
    };
    let prompt = LoopbackPrompt::bind(Box::new(open), timeout)
        .await
        .expect("the loopback prompt binds");
    (prompt, seen)
}

/// Ages the tokens kept for server `id` (named `name`) by `secs`: issued and expiring that
/// much earlier, as if kept that long.
pub async fn age_tokens(id: &str, name: &str, secs: u64) {
    let mut tokens = oauth::tokens(&KeyringStore, id)
        .await
        .expect("keyring")
        .expect("kept tokens");
    tokens.issued_at = tokens.issued_at.map(|at| at.saturating_sub(secs));
    tokens.expires_at = tokens.expires_at.map(|at| at.saturating_sub(secs));
    oauth::put_tokens(&KeyringStore, id, name, &tokens)
        .await
        .expect("keyring");
}

/// Ages the sign-in kept at identity provider `issuer` as `client_id` by `secs`: received and
/// expiring that much earlier, as if kept that long.
pub async fn age_idp_session(issuer: &str, client_id: &str, secs: u64) {
    let mut session = oauth::idp_session(&KeyringStore, issuer, client_id)
        .await
        .expect("keyring")
        .expect("a kept sign-in");
    session.received_at = session.received_at.saturating_sub(secs);
    session.expires_at = session.expires_at.saturating_sub(secs);
    oauth::put_idp_session(&KeyringStore, &session)
        .await
        .expect("keyring");
}
