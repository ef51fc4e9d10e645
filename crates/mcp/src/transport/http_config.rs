//! Settings shared by the HTTP transports, and the request headers every POST and GET carries.
//!
//! Secret headers (`HttpConfig::secret_headers`, like a stdio server's
//! `StdioConfig::secret_env`) are [`Sensitive`], so `{:?}` of a configuration shows
//! `<redacted>`, and they are marked sensitive for reqwest: hidden from its `Debug` and never
//! indexed by HTTP/2 HPACK. A client with secret headers or an authorizer follows redirects only
//! within the origin it started at and fails on one that leaves it: reqwest itself drops only
//! `Authorization` and `Cookie` across origins, and a secret header such as `X-Api-Key` would go
//! along.

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use crate::error::{McpError, Result};
use crate::http_auth::{AccessToken, HttpAuthorizer};
use crate::sensitive::Sensitive;

/// How to reach an HTTP server.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    pub url: url::Url,
    /// Extra headers from the server's configuration.
    pub headers: Vec<(String, String)>,
    /// Secret headers (resolved from the keyring): marked sensitive for reqwest and HTTP/2
    /// (never indexed, hidden from `Debug`), and `{:?}` of the config shows `<redacted>`.
    pub secret_headers: Vec<(String, Sensitive<String>)>,
    pub connect_timeout: Duration,
    /// Longest accepted JSON body or SSE event, in bytes.
    pub max_message_bytes: usize,
    /// Reconnect delay for SSE streams when the server gave no `retry:`.
    pub default_retry: Duration,
    /// Consecutive failed reconnects before a stream is given up.
    pub max_reconnects: u32,
    /// OAuth for servers that require it: puts the bearer token on every request and answers
    /// 401 and 403 `insufficient_scope` (see [`crate::auth`]). `None`: a 401 fails the request.
    pub authorizer: Option<Arc<dyn HttpAuthorizer>>,
}

impl HttpConfig {
    pub fn new(url: url::Url) -> Self {
        Self {
            url,
            headers: Vec::new(),
            secret_headers: Vec::new(),
            connect_timeout: Duration::from_secs(10),
            max_message_bytes: 16 * 1024 * 1024,
            default_retry: Duration::from_secs(1),
            max_reconnects: 5,
            authorizer: None,
        }
    }

    /// An HTTP client with the configured headers as defaults.
    pub fn client(&self) -> Result<reqwest::Client> {
        let mut defaults = HeaderMap::new();
        let plain = self.headers.iter().map(|(n, v)| (n, v.as_str(), false));
        let secret = (self.secret_headers.iter()).map(|(n, v)| (n, v.expose().as_str(), true));
        for (name, value, sensitive) in plain.chain(secret) {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| transport_error(format!("invalid header name `{name}`")))?;
            let mut value = HeaderValue::from_str(value)
                .map_err(|_| transport_error(format!("invalid value for header `{name}`")))?;
            value.set_sensitive(sensitive);
            defaults.insert(name, value);
        }
        let mut builder = reqwest::Client::builder()
            .default_headers(defaults)
            .connect_timeout(self.connect_timeout);
        if !self.secret_headers.is_empty() || self.authorizer.is_some() {
            builder = builder.redirect(same_origin_redirects());
        }
        builder
            .build()
            .map_err(|e| transport_error(format!("cannot create an HTTP client: {e}")))
    }
}

/// Redirects for a client that carries secrets: reqwest drops only `Authorization`, `Cookie`
/// and the like when a redirect leaves the origin, and a secret custom header (`X-Api-Key`)
/// would go along. So such a client follows a redirect (at most 10) only within the origin it
/// started at, and fails on one that leaves it, naming where it led.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let Some(first) = attempt.previous().first() else {
            return attempt.follow();
        };
        if attempt.previous().len() > 10 {
            attempt.error("too many redirects")
        } else if first.origin() == attempt.url().origin() {
            attempt.follow()
        } else {
            let message = format!(
                "the server redirected to another origin ({}); Gatehouse does not follow it \
                 with this server's secret headers or tokens: configure the server's URL \
                 as {}",
                attempt.url().origin().ascii_serialization(),
                attempt.url()
            );
            attempt.error(message)
        }
    })
}

/// "cannot reach URL: …" for a request that failed, with the causes reqwest keeps behind its
/// own message (such as why a redirect was not followed).
pub(crate) fn unreachable(url: impl std::fmt::Display, error: &reqwest::Error) -> String {
    let mut message = format!("cannot reach {url}: {error}");
    let mut cause = std::error::Error::source(error);
    while let Some(inner) = cause {
        let text = inner.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = inner.source();
    }
    message
}

pub(crate) fn transport_error(message: String) -> McpError {
    McpError::Transport { message }
}

/// Presents `token` on a `method` request to this configuration's URL (`Authorization:
/// Bearer`, or `DPoP` with a proof), the values marked sensitive so reqwest never shows them.
pub(crate) fn with_authorization(
    request: reqwest::RequestBuilder,
    config: &HttpConfig,
    token: Option<&AccessToken>,
    method: &str,
) -> reqwest::RequestBuilder {
    let (Some(token), Some(authorizer)) = (token, &config.authorizer) else {
        return request;
    };
    let mut request = request;
    for (name, value) in authorizer.authorization_headers(token, method, &config.url) {
        match HeaderValue::from_str(&value) {
            Ok(mut value) => {
                value.set_sensitive(true);
                request = request.header(name, value);
            }
            Err(_) => tracing::warn!("the access token cannot be sent in a header; sending none"),
        }
    }
    request
}

/// The `DPoP-Nonce` a response carries (RFC 9449 §8, §9).
pub(crate) fn dpop_nonce(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get("dpop-nonce")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// The `WWW-Authenticate` values of a response.
pub(crate) fn www_authenticate(response: &reqwest::Response) -> Vec<String> {
    response
        .headers()
        .get_all(reqwest::header::WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(str::to_owned)
        .collect()
}

/// What the user is told when a server wants authorization this connection cannot give.
pub(crate) fn unauthorized_message(url: &url::Url, detail: &str) -> String {
    format!("HTTP 401 Unauthorized: {url} requires authorization; {detail}")
}

/// The failure of a request refused with 401 on a connection without an authorizer. Its
/// `http_status()` is 401, which the host shows as "auth required".
pub(crate) fn no_authorizer_failure(url: &url::Url) -> super::TransportFailure {
    super::TransportFailure::Status {
        status: 401,
        message: unauthorized_message(
            url,
            "no authorization is set up for this connection; connect it from the Gatehouse app \
             to sign in, or configure an Authorization header for it",
        ),
    }
}
