//! What an HTTP transport asks of whatever authorizes its requests ([`HttpAuthorizer`]): the
//! access token to present ([`AccessToken`]) and the headers that present it, and what to do
//! with a 401 or a 403 `insufficient_scope`. The transports use this interface and
//! [`crate::auth::Authorizer`] implements it, so neither folder depends on the other.

use url::Url;

use crate::future::BoxFuture;
use crate::sensitive::Sensitive;

/// The access token to present, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessToken {
    pub token: Sensitive<String>,
    /// DPoP-bound: `Authorization: DPoP` and a proof on every request (RFC 9449 §7.1).
    pub dpop: bool,
}

/// The authorization an HTTP transport consults on every request.
pub trait HttpAuthorizer: Send + Sync + std::fmt::Debug + 'static {
    /// The access token to send now; `None` before the first authorization.
    fn access_token(&self) -> BoxFuture<'_, Option<AccessToken>>;

    /// The headers that present `token` on a `method` request to `url`.
    fn authorization_headers(
        &self,
        token: &AccessToken,
        method: &str,
        url: &Url,
    ) -> Vec<(&'static str, String)>;

    /// How many times one request may be authorized before it fails.
    fn max_attempts(&self) -> u32;

    /// Whether a 403 with these `WWW-Authenticate` values asks for more scope (a Bearer
    /// `insufficient_scope` challenge), which a step-up authorization may answer.
    fn is_step_up(&self, www_authenticate: &[String]) -> bool;

    /// Answers a 401, or a 403 that [`HttpAuthorizer::is_step_up`], to a request that carried
    /// `sent`: `Ok` to send the request again; `Err` says why authorizing failed, in words for
    /// the user.
    fn challenged<'a>(
        &'a self,
        status: u16,
        www_authenticate: &'a [String],
        dpop_nonce: Option<&'a str>,
        sent: Option<&'a Sensitive<String>>,
    ) -> BoxFuture<'a, Result<(), String>>;
}
