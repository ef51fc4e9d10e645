//! The HTTP client of the authorization flow: one that never follows redirects (RFC 6749 §10 and
//! the oauth2 crate's advice: a token endpoint that redirects must not get the code elsewhere),
//! and the adapter that lets the oauth2 crate send its token requests over reqwest 0.13 (its own
//! integration is for reqwest 0.12).

use std::time::Duration;

use super::AuthError;
use crate::transport::BoxFuture;

/// Longest token endpoint answer read, in bytes.
const MAX_TOKEN_RESPONSE_BYTES: usize = 256 * 1024;

/// A client for metadata, registration and token requests: no redirects, bounded time.
pub fn auth_http_client() -> Result<reqwest::Client, AuthError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| AuthError::Http(format!("cannot create an HTTP client: {e}")))
}

/// oauth2's async HTTP client over a reqwest 0.13 client.
#[derive(Debug, Clone)]
pub struct OAuthHttp(pub reqwest::Client);

/// A failed token endpoint exchange (the message names no secret: reqwest's errors carry the
/// URL at most, and the token endpoint URL has none).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct OAuthHttpError(String);

impl<'c> oauth2::AsyncHttpClient<'c> for OAuthHttp {
    type Error = OAuthHttpError;
    type Future = BoxFuture<'c, Result<oauth2::HttpResponse, OAuthHttpError>>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(async move {
            let request = reqwest::Request::try_from(request)
                .map_err(|e| OAuthHttpError(format!("invalid token request: {e}")))?;
            let response = self
                .0
                .execute(request)
                .await
                .map_err(|e| OAuthHttpError(format!("the token request failed: {e}")))?;
            let mut builder = oauth2::http::Response::builder().status(response.status());
            for (name, value) in response.headers() {
                builder = builder.header(name, value);
            }
            let body =
                crate::transport::http_config::bounded_body(response, MAX_TOKEN_RESPONSE_BYTES)
                    .await
                    .map_err(OAuthHttpError)?;
            builder
                .body(body)
                .map_err(|e| OAuthHttpError(format!("invalid token response: {e}")))
        })
    }
}
