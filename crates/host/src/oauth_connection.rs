//! The OAuth side of an HTTP server's connection: the [`Authorizer`] the host attaches, with the
//! server's tokens in the keyring ([`KeyringTokenStore`], keyed by the server's id), and how an
//! [`AuthError`] reads as a [`HostError`].
//!
//! A background connection (the app's live sessions, the CLI's commands) gets no prompt: kept
//! tokens are sent, refreshed when due and once on a 401, and a step-up or a first sign-in fails
//! the connection with HTTP status 401, which the sessions show as `AuthRequired` until the
//! person signs in ([`crate::Host::sign_in`]). A server without OAuth never answers 401, so the
//! authorizer only costs one keyring read per connection there.

use std::sync::Arc;

use gatehouse_mcp::auth::{AuthConfig, AuthError, AuthorizationPrompt, Authorizer};

use crate::error::{HostError, Result};
use crate::registry::model::ServerConfig;
use crate::secrets::{KeyringTokenStore, SecretStore};

/// The authorizer of `config`'s connection to `url`; `prompt` is `None` for background
/// connections.
pub fn authorizer(
    config: &ServerConfig,
    url: &url::Url,
    secrets: Arc<dyn SecretStore>,
    prompt: Option<Arc<dyn AuthorizationPrompt>>,
) -> Result<Authorizer> {
    let store = Arc::new(KeyringTokenStore::new(secrets));
    Authorizer::new(url.clone(), AuthConfig::default(), store, prompt)
        .map(|a| a.with_store_key(config.id.clone()))
        .map_err(|e| authorization_error(&config.name, &e))
}

/// `error` from authorizing server `name`, with what to do about it.
pub fn authorization_error(name: &str, error: &AuthError) -> HostError {
    let hint = match error {
        AuthError::NeedsUser => {
            format!("sign in to it from the Gatehouse app or with `gatehouse auth login {name}`")
        }
        AuthError::Store(_) => {
            "make sure the OS keyring is available and unlocked, then sign in again".to_owned()
        }
        AuthError::Authorization(_) => "sign in again, and finish the sign-in in the browser \
             (allow Gatehouse's access when asked)"
            .to_owned(),
        AuthError::ResourceMismatch { .. } | AuthError::IssuerMismatch { .. } => {
            "the server's authorization setup is inconsistent; tell its operator".to_owned()
        }
        AuthError::Discovery(_)
        | AuthError::Registration { .. }
        | AuthError::Token(_)
        | AuthError::Http(_) => "check that the server and its authorization server are \
             reachable and that the server's URL is right, then sign in again"
            .to_owned(),
    };
    HostError::Authorization {
        server: name.to_owned(),
        detail: error.to_string(),
        hint,
    }
}
