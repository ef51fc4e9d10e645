//! [`LoopbackPrompt`]: a person signs in in their own browser, which comes back to Gatehouse on
//! a loopback redirect URI (RFC 8252 §7.3: `http://127.0.0.1:PORT/callback`, the port chosen by
//! the OS when the prompt is bound; §8.3: the loopback IP literal, not `localhost`).
//!
//! [`AuthorizationPrompt::authorize`] hands the authorization URL to an `open` callback (the
//! app's system browser opener; the CLI's `xdg-open` and a line on stderr), then waits for the
//! one request to `/callback` and answers the browser with a small page. Other requests (a
//! `/favicon.ico`, a probe) get a 404, and a redirect whose `state` is not this sign-in's a 400,
//! and are otherwise ignored; a connection that sends nothing
//! is dropped after [`REQUEST_TIMEOUT`] without holding up the others. The listener is closed
//! once the redirect came (or the wait timed out), so nothing listens after the sign-in. The
//! redirect's `state` and `iss` are checked by the authorizer, not here.

use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::auth::{AuthError, AuthorizationPrompt};
use gatehouse_mcp::transport::BoxFuture;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use url::Url;

use crate::error::{HostError, Result};

/// How long the browser has to send its request once connected.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest request head read; a longer one is refused.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024;
/// Most connections handled at once while waiting; past that, new ones are closed at once.
pub const MAX_CONNECTIONS: usize = 16;
/// How long a person has to sign in when the caller does not say.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5 * 60);

type Opener = Box<dyn Fn(&str) -> std::result::Result<(), String> + Send + Sync>;

/// Signs in through the person's browser and a loopback redirect; see the module documentation.
pub struct LoopbackPrompt {
    redirect_uri: String,
    open: Opener,
    timeout: Duration,
    /// Taken by the one authorization that uses it, and dropped after it.
    listener: tokio::sync::Mutex<Option<TcpListener>>,
}

impl std::fmt::Debug for LoopbackPrompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoopbackPrompt")
            .field("redirect_uri", &self.redirect_uri)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl LoopbackPrompt {
    /// Listens on `127.0.0.1` on a port the OS picks; `open` is given the authorization URL
    /// (only an `http` or `https` one), and the person has `timeout` to finish signing in.
    pub async fn bind(open: Opener, timeout: Duration) -> Result<Arc<LoopbackPrompt>> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| HostError::io("cannot listen on 127.0.0.1 for the sign-in", e))?;
        let port = listener
            .local_addr()
            .map_err(|e| HostError::io("cannot read the sign-in listener's port", e))?
            .port();
        Ok(Arc::new(LoopbackPrompt {
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
            open,
            timeout,
            listener: tokio::sync::Mutex::new(Some(listener)),
        }))
    }

    async fn run(&self, url: &Url) -> std::result::Result<String, AuthError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(AuthError::Authorization(format!(
                "the authorization URL is not a web address ({} scheme); not opening it",
                url.scheme()
            )));
        }
        let listener = self.listener.lock().await.take().ok_or_else(|| {
            AuthError::Authorization(
                "this sign-in was already used; start a new sign-in".to_owned(),
            )
        })?;
        (self.open)(url.as_str()).map_err(|e| {
            AuthError::Authorization(format!("cannot open the browser to sign in: {e}"))
        })?;
        let state = url
            .query_pairs()
            .find(|(k, _)| k == "state")
            .map(|(_, v)| v.into_owned());
        let waited = tokio::time::timeout(self.timeout, wait_for_callback(&listener, state)).await;
        drop(listener);
        waited.map_err(|_| {
            AuthError::Authorization(format!(
                "the sign-in was not finished within {} (the browser never came back to \
                 Gatehouse); start it again and finish it in the browser",
                minutes(self.timeout)
            ))
        })
    }
}

fn minutes(duration: Duration) -> String {
    let secs = duration.as_secs();
    if secs >= 60 && secs.is_multiple_of(60) {
        let m = secs / 60;
        format!("{m} minute{}", if m == 1 { "" } else { "s" })
    } else {
        format!("{secs} s")
    }
}

impl AuthorizationPrompt for LoopbackPrompt {
    fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    fn authorize<'a>(
        &'a self,
        url: &'a Url,
    ) -> BoxFuture<'a, std::result::Result<String, AuthError>> {
        Box::pin(self.run(url))
    }
}

/// Accepts connections until one brings the redirect (with `state`, when the authorization URL
/// has one); returns its query.
async fn wait_for_callback(listener: &TcpListener, state: Option<String>) -> String {
    let mut readers: JoinSet<Option<String>> = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) if readers.len() < MAX_CONNECTIONS => {
                    readers.spawn(serve(stream, state.clone()));
                }
                Ok(_) => tracing::info!(
                    "the sign-in listener has {MAX_CONNECTIONS} connections open; closing another"
                ),
                Err(e) => tracing::info!("the sign-in listener could not accept: {e}"),
            },
            Some(done) = readers.join_next(), if !readers.is_empty() => {
                if let Ok(Some(query)) = done {
                    return query;
                }
            }
        }
    }
}

/// Reads one request and answers it: the redirect's query for `GET /callback?…` carrying
/// `state`; `None` (and a 404, or a 400 for a redirect of another sign-in) for anything else.
async fn serve(mut stream: TcpStream, state: Option<String>) -> Option<String> {
    let head = tokio::time::timeout(REQUEST_TIMEOUT, read_head(&mut stream))
        .await
        .ok()??;
    let mut words = head.lines().next().unwrap_or_default().split(' ');
    let (method, target) = (words.next()?, words.next().unwrap_or_default());
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if method != "GET" || path != "/callback" {
        respond(&mut stream, "404 Not Found", "Not found.").await;
        return None;
    }
    let field = |name: &str| {
        url::form_urlencoded::parse(query.as_bytes())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    if state.is_some() && field("state") != state {
        // Not the answer to this sign-in (an old tab, another program): the wait goes on.
        respond(
            &mut stream,
            "400 Bad Request",
            "This is not the sign-in Gatehouse is waiting for. Start the sign-in again.",
        )
        .await;
        return None;
    }
    // 2026-07-28 basic/authorization, "Authorization Response Validation": an `error` is not
    // displayed before `state` and `iss` are validated, which the authorizer does; so the page
    // never repeats it, and Gatehouse shows it once it is known to be this sign-in's answer.
    let page = if field("error").is_none() {
        "Signed in to Gatehouse. You can close this tab."
    } else {
        "Signing in to Gatehouse did not finish. You can close this tab: Gatehouse says why."
    };
    respond(&mut stream, "200 OK", page).await;
    Some(query.to_owned())
}

/// The request line and headers, up to the blank line; `None` if too long or cut short.
async fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || head.len() + n > MAX_REQUEST_BYTES {
            return None;
        }
        head.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8(head).ok()
}

async fn respond(stream: &mut TcpStream, status: &str, message: &str) {
    let body = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Gatehouse</title></head>\
         <body style=\"font-family:sans-serif;margin:3em\"><p>{message}</p></body></html>"
    );
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}
