//! The [`Authorizer`] as the HTTP transports see it: their [`HttpAuthorizer`] interface,
//! answered by the authorizer's own methods, so the transports need nothing from this folder.

use url::Url;

use super::authorizer::Authorizer;
use super::challenge::BearerChallenge;
use crate::Sensitive;
use crate::future::BoxFuture;
use crate::http_auth::{AccessToken, HttpAuthorizer};

/// What the HTTP transports ask of an authorizer, answered by its own methods.
impl HttpAuthorizer for Authorizer {
    fn access_token(&self) -> BoxFuture<'_, Option<AccessToken>> {
        Box::pin(Authorizer::access_token(self))
    }

    fn authorization_headers(
        &self,
        token: &AccessToken,
        method: &str,
        url: &Url,
    ) -> Vec<(&'static str, String)> {
        Authorizer::authorization_headers(self, token, method, url)
    }

    fn max_attempts(&self) -> u32 {
        Authorizer::max_attempts(self)
    }

    fn is_step_up(&self, www_authenticate: &[String]) -> bool {
        BearerChallenge::from_headers(www_authenticate.iter().map(String::as_str))
            .is_some_and(|c| c.is_insufficient_scope())
    }

    fn challenged<'a>(
        &'a self,
        status: u16,
        www_authenticate: &'a [String],
        dpop_nonce: Option<&'a str>,
        sent: Option<&'a Sensitive<String>>,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            Authorizer::challenged(self, status, www_authenticate, dpop_nonce, sent)
                .await
                .map_err(|e| e.to_string())
        })
    }
}
