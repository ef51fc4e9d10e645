//! Who may reach the HTTP endpoint. Every request must name a loopback `Host` (a page that
//! rebinds its own domain name to 127.0.0.1 cannot) and, when it carries an `Origin`, a loopback
//! one (2025-11-25 basic/transports, "Security Warning"); otherwise 403. Then it must present a
//! client's token, as `Authorization: Bearer TOKEN` or in the path (`/mcp/c/TOKEN`); otherwise
//! 401 with `WWW-Authenticate: Bearer`.
//!
//! [`Tokens`] holds the tokens of the clients that have one, read from the keyring when the
//! endpoint starts and again when a presented token matches none (one reading at a time, and
//! only the tokens whose serial moved are read from the keyring). A token that matches is
//! checked against its client's serial in the store on every request, so a token revoked or
//! replaced by another process is refused from the next request on. Tokens are compared in
//! constant time and never logged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, header};
use gatehouse_mcp::Sensitive;
use subtle::ConstantTimeEq;

use crate::host::Host;

/// How often a client's `last_seen` is written, at most.
const SEEN_EVERY: Duration = Duration::from_secs(60);

/// Whether the request's `Host` and `Origin` are loopback ones.
pub fn loopback_request(headers: &HeaderMap, port: u16) -> bool {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| loopback_host(h, port));
    let origin = match headers.get(header::ORIGIN) {
        None => true,
        Some(origin) => origin.to_str().ok().is_some_and(loopback_origin),
    };
    host && origin
}

/// `127.0.0.1`, `localhost` or `[::1]`, with this port or none.
fn loopback_host(host: &str, port: u16) -> bool {
    let (name, given) = match host.rsplit_once(':') {
        Some((name, p)) if !name.is_empty() && !p.contains(']') => (name, Some(p)),
        _ => (host, None),
    };
    let name_ok = matches!(
        name.to_ascii_lowercase().as_str(),
        "127.0.0.1" | "localhost" | "[::1]"
    );
    name_ok && given.is_none_or(|p| p.parse::<u16>() == Ok(port))
}

/// An `http(s)` origin on a loopback host (any port: a page the person serves locally).
fn loopback_origin(origin: &str) -> bool {
    let Ok(url) = url::Url::parse(origin) else {
        return false;
    };
    matches!(url.scheme(), "http" | "https")
        && matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"))
}

/// The token of a bearer `Authorization` header.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

struct Held {
    client: String,
    serial: i64,
    token: Sensitive<String>,
}

/// The clients' tokens the endpoint accepts.
pub struct Tokens {
    host: Arc<Host>,
    held: Mutex<Vec<Held>>,
    reading: tokio::sync::Mutex<()>,
    seen: Mutex<HashMap<String, Instant>>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tokens(<redacted>)")
    }
}

impl Tokens {
    /// Reads the tokens of every client that has one.
    pub async fn load(host: Arc<Host>) -> Tokens {
        let tokens = Tokens {
            host,
            held: Mutex::default(),
            reading: tokio::sync::Mutex::default(),
            seen: Mutex::default(),
        };
        tokens.read().await;
        tokens
    }

    /// The client whose current token `presented` is, if any.
    pub async fn client_of(&self, presented: &str) -> Option<String> {
        for attempt in 0..2 {
            if let Some((client, serial)) = self.matching(presented) {
                let current = self.host.clients().token_serial(&client).await;
                match current {
                    Ok(Some(now)) if now == serial => {
                        self.seen(&client).await;
                        return Some(client);
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::warn!("cannot check the gateway client `{client}`'s token: {e}");
                        return None;
                    }
                }
            }
            if attempt == 0 {
                self.read().await;
            }
        }
        None
    }

    /// The held token equal to `presented`, every one compared in constant time.
    fn matching(&self, presented: &str) -> Option<(String, i64)> {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let mut found = None;
        for h in held.iter() {
            let equal: bool = h
                .token
                .expose()
                .as_bytes()
                .ct_eq(presented.as_bytes())
                .into();
            if equal && found.is_none() {
                found = Some((h.client.clone(), h.serial));
            }
        }
        found
    }

    /// Brings the held tokens in line with the store: drops those revoked or replaced, reads
    /// from the keyring those created since.
    async fn read(&self) {
        let _one_at_a_time = self.reading.lock().await;
        let serials = match self.host.clients().token_serials().await {
            Ok(serials) => serials,
            Err(e) => {
                tracing::warn!("cannot read the gateway clients: {e}");
                return;
            }
        };
        let mut missing = Vec::new();
        {
            let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
            held.retain(|h| serials.contains(&(h.client.clone(), h.serial)));
            for (client, serial) in &serials {
                if !held.iter().any(|h| &h.client == client) {
                    missing.push((client.clone(), *serial));
                }
            }
        }
        for (client, serial) in missing {
            match self.host.clients().token(&client).await {
                Ok(Some(token)) => self
                    .held
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(Held {
                        client,
                        serial,
                        token,
                    }),
                Ok(None) => {}
                Err(e) => tracing::warn!("cannot read the gateway client `{client}`'s token: {e}"),
            }
        }
    }

    async fn seen(&self, client: &str) {
        let due = {
            let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
            let due = seen.get(client).is_none_or(|at| at.elapsed() >= SEEN_EVERY);
            if due {
                seen.insert(client.to_owned(), Instant::now());
            }
            due
        };
        if due && let Err(e) = self.host.clients().seen(client).await {
            tracing::warn!("cannot record that the gateway client `{client}` was seen: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), value.parse().expect("a header value"));
        }
        map
    }

    #[test]
    fn only_loopback_hosts_and_origins_pass() {
        let ok = |h: &[(header::HeaderName, &str)]| loopback_request(&headers(h), 47821);
        assert!(ok(&[(header::HOST, "127.0.0.1:47821")]));
        assert!(ok(&[(header::HOST, "localhost:47821")]));
        assert!(ok(&[(header::HOST, "[::1]:47821")]));
        assert!(ok(&[(header::HOST, "localhost")]));
        assert!(ok(&[
            (header::HOST, "localhost:47821"),
            (header::ORIGIN, "http://localhost:3000")
        ]));
        assert!(!ok(&[]));
        assert!(!ok(&[(header::HOST, "evil.example:47821")]));
        assert!(!ok(&[(header::HOST, "127.0.0.1:80")]));
        assert!(!ok(&[(header::HOST, "127.0.0.1.evil.example:47821")]));
        assert!(!ok(&[
            (header::HOST, "127.0.0.1:47821"),
            (header::ORIGIN, "http://evil.example")
        ]));
        assert!(!ok(&[
            (header::HOST, "127.0.0.1:47821"),
            (header::ORIGIN, "null")
        ]));
    }

    #[test]
    fn bearer_tokens_are_read() {
        let h = headers(&[(header::AUTHORIZATION, "Bearer ghc_abc")]);
        assert_eq!(bearer(&h), Some("ghc_abc"));
        let h = headers(&[(header::AUTHORIZATION, "Basic Zm9v")]);
        assert_eq!(bearer(&h), None);
    }
}
