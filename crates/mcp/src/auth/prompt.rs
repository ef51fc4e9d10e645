//! How a person authorizes: [`AuthorizationPrompt`] takes the authorization URL and returns the
//! query of the redirect back to the client. The desktop app will open the browser and listen on
//! a loopback redirect URI; [`HeadlessPrompt`] is for automated runs against authorization
//! servers that answer at once (the conformance suite's mock): it GETs the URL without following
//! redirects and reads the `Location`.

use url::Url;

use super::AuthError;
use crate::future::BoxFuture;

/// Asks a person to authorize the client.
pub trait AuthorizationPrompt: Send + Sync + 'static {
    /// The redirect URI registered for the client and sent with the authorization request.
    fn redirect_uri(&self) -> &str;
    /// Has the authorization at `url` done and returns the query string of the redirect to
    /// [`redirect_uri`](Self::redirect_uri) (`code=…&state=…&iss=…`, or an `error=…`).
    fn authorize<'a>(&'a self, url: &'a Url) -> BoxFuture<'a, Result<String, AuthError>>;
}

/// Authorizes without a person: follows nothing, reads the redirect from the first response.
pub struct HeadlessPrompt {
    http: reqwest::Client,
    redirect_uri: String,
}

impl std::fmt::Debug for HeadlessPrompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeadlessPrompt")
            .field("redirect_uri", &self.redirect_uri)
            .finish()
    }
}

impl HeadlessPrompt {
    pub fn new(redirect_uri: impl Into<String>) -> Result<Self, AuthError> {
        Ok(Self {
            http: super::http_client::auth_http_client()?,
            redirect_uri: redirect_uri.into(),
        })
    }
}

impl AuthorizationPrompt for HeadlessPrompt {
    fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    fn authorize<'a>(&'a self, url: &'a Url) -> BoxFuture<'a, Result<String, AuthError>> {
        Box::pin(async move {
            let response = self.http.get(url.clone()).send().await.map_err(|e| {
                AuthError::Authorization(format!(
                    "cannot reach the authorization endpoint: {}",
                    e.without_url()
                ))
            })?;
            let status = response.status();
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .filter(|_| status.is_redirection())
                .ok_or_else(|| {
                    AuthError::Authorization(format!(
                        "the authorization endpoint answered HTTP {status} instead of redirecting back"
                    ))
                })?;
            let target = Url::parse(location).map_err(|e| {
                AuthError::Authorization(format!("the authorization redirect is no URL: {e}"))
            })?;
            let expected = Url::parse(&self.redirect_uri).ok();
            let same_target = expected
                .is_some_and(|e| e.origin() == target.origin() && e.path() == target.path());
            if !same_target {
                return Err(AuthError::Authorization(
                    "the authorization server redirected somewhere other than the redirect URI"
                        .into(),
                ));
            }
            Ok(target.query().unwrap_or_default().to_owned())
        })
    }
}
