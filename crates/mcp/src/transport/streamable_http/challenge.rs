//! The auth challenge: a 401, or a 403 whose Bearer challenge is `insufficient_scope`, answered
//! by the connection's authorizer (2025-11-25 basic/authorization), and the access token each
//! request carries.

use reqwest::StatusCode;

use super::shared::Shared;
use crate::http_auth::{AccessToken, HttpAuthorizer};
use crate::transport::TransportFailure;
use crate::transport::http_config::{
    dpop_nonce, no_authorizer_failure, unauthorized_message, www_authenticate,
};

/// A 401, or a 403 whose Bearer challenge is `insufficient_scope`: what an authorizer answers.
pub(super) struct AuthChallenge {
    pub(super) status: u16,
    pub(super) www_authenticate: Vec<String>,
    pub(super) dpop_nonce: Option<String>,
}

impl AuthChallenge {
    /// Only an authorizer can answer a step-up: without one a 403 is any other HTTP error.
    pub(super) fn of(
        response: &reqwest::Response,
        authorizer: Option<&dyn HttpAuthorizer>,
    ) -> Option<Self> {
        let status = response.status();
        let www_authenticate = www_authenticate(response);
        let step_up = status == StatusCode::FORBIDDEN
            && authorizer.is_some_and(|a| a.is_step_up(&www_authenticate));
        (status == StatusCode::UNAUTHORIZED || step_up).then(|| Self {
            status: status.as_u16(),
            www_authenticate,
            dpop_nonce: dpop_nonce(response),
        })
    }
}

/// The access token for the next request, if the server is authorized.
pub(super) async fn access_token(shared: &Shared) -> Option<AccessToken> {
    match &shared.config.authorizer {
        Some(authorizer) => authorizer.access_token().await,
        None => None,
    }
}

/// Answers an authorization challenge: `Ok` to send the request again with new tokens,
/// `Err(Some)` to fail it with a 401/403 that says what to do, `Err(None)` to report the
/// response as any other HTTP error (a 403 with no authorizer to step up).
pub(super) async fn authorize(
    shared: &Shared,
    challenge: &AuthChallenge,
    sent: Option<&AccessToken>,
    authorizations: &mut u32,
) -> std::result::Result<(), Option<TransportFailure>> {
    let url = &shared.config.url;
    let Some(authorizer) = &shared.config.authorizer else {
        if challenge.status != 401 {
            return Err(None);
        }
        return Err(Some(no_authorizer_failure(url)));
    };
    if *authorizations >= authorizer.max_attempts() {
        let message = format!(
            "HTTP {} from {url}: still refused after {} authorization attempts; the \
             authorization server does not grant what the server asks for",
            challenge.status, authorizations
        );
        return Err(Some(TransportFailure::Status {
            status: challenge.status,
            message,
        }));
    }
    *authorizations += 1;
    match authorizer
        .challenged(
            challenge.status,
            &challenge.www_authenticate,
            challenge.dpop_nonce.as_deref(),
            sent.map(|t| &t.token),
        )
        .await
    {
        Ok(()) => Ok(()),
        Err(e) => {
            tracing::info!("authorizing for {url} failed: {e}");
            Err(Some(TransportFailure::Status {
                status: 401,
                message: unauthorized_message(url, &e.to_string()),
            }))
        }
    }
}
