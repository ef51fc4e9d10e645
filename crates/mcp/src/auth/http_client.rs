//! The HTTP client of the authorization flow: one that never follows redirects (RFC 6749 §10 and
//! the oauth2 crate's advice: a token endpoint that redirects must not get the code elsewhere),
//! and the adapter that lets the oauth2 crate send its token requests over reqwest 0.13 (its own
//! integration is for reqwest 0.12).

use std::time::Duration;

use std::sync::Arc;

use super::AuthError;
use super::dpop::DpopKey;
use crate::future::BoxFuture;

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

/// oauth2's async HTTP client over a reqwest 0.13 client. With a DPoP key, every request gets
/// a proof, and a `use_dpop_nonce` answer (RFC 9449 §8) is retried once with the nonce.
#[derive(Debug, Clone)]
pub struct OAuthHttp {
    pub client: reqwest::Client,
    pub dpop: Option<Arc<DpopKey>>,
}

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
            let mut response = self.send(request.clone()).await?;
            if let Some(dpop) = &self.dpop
                && response.status() == reqwest::StatusCode::BAD_REQUEST
                && let Some(nonce) = response
                    .headers()
                    .get("dpop-nonce")
                    .and_then(|v| v.to_str().ok())
            {
                let url = url::Url::parse(&request.uri().to_string())
                    .map_err(|e| OAuthHttpError(format!("invalid token endpoint: {e}")))?;
                dpop.remember_nonce(&url, nonce);
                response = self.send(request).await?;
            }
            let mut builder = oauth2::http::Response::builder().status(response.status());
            for (name, value) in response.headers() {
                builder = builder.header(name, value);
            }
            let body = crate::http_body::bounded_body(response, MAX_TOKEN_RESPONSE_BYTES)
                .await
                .map_err(OAuthHttpError)?;
            builder
                .body(body)
                .map_err(|e| OAuthHttpError(format!("invalid token response: {e}")))
        })
    }
}

impl OAuthHttp {
    /// Sends one request, with a fresh DPoP proof when there is a key.
    async fn send(
        &self,
        request: oauth2::HttpRequest,
    ) -> Result<reqwest::Response, OAuthHttpError> {
        let mut request = reqwest::Request::try_from(request)
            .map_err(|e| OAuthHttpError(format!("invalid token request: {e}")))?;
        if let Some(dpop) = &self.dpop {
            let proof = dpop
                .proof(request.method().as_str(), request.url(), None)
                .map_err(|e| OAuthHttpError(e.to_string()))?;
            let value = reqwest::header::HeaderValue::from_str(&proof)
                .map_err(|e| OAuthHttpError(format!("invalid DPoP proof: {e}")))?;
            request.headers_mut().insert("dpop", value);
        }
        self.client
            .execute(request)
            .await
            .map_err(|e| OAuthHttpError(format!("the token request failed: {e}")))
    }
}
