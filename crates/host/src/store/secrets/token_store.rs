//! [`KeyringTokenStore`]: the protocol crate's [`TokenStore`] on the host's [`SecretStore`], so
//! an HTTP server's OAuth tokens live in the OS keyring (see [`super::oauth`]). Tokens are keyed
//! by the server's id (the `server` the authorizer passes is the id: see
//! `Authorizer::with_store_key`), client credentials by their issuer. Every token loaded or
//! saved is noted in [`super::tokens_seen`] for the audit log to hide. Nothing is cached here:
//! the authorizer keeps what it read, and another process (the app, the CLI) may change the
//! entries at any time.

use std::sync::Arc;

use gatehouse_mcp::auth::{AuthError, ClientCredentials, TokenStore, Tokens};
use gatehouse_mcp::transport::BoxFuture;

use super::store::SecretStore;
use super::{oauth, tokens_seen};
use crate::error::HostError;

/// OAuth tokens and client credentials in the keyring.
#[derive(Debug, Clone)]
pub struct KeyringTokenStore {
    secrets: Arc<dyn SecretStore>,
}

impl KeyringTokenStore {
    pub fn new(secrets: Arc<dyn SecretStore>) -> Self {
        Self { secrets }
    }
}

fn store_error(e: HostError) -> AuthError {
    AuthError::Store(e.to_string())
}

impl TokenStore for KeyringTokenStore {
    fn load_tokens<'a>(
        &'a self,
        server: &'a str,
    ) -> BoxFuture<'a, Result<Option<Tokens>, AuthError>> {
        Box::pin(async move {
            let tokens = oauth::tokens(self.secrets.as_ref(), server)
                .await
                .map_err(store_error)?;
            if let Some(tokens) = &tokens {
                tokens_seen::saw(server, tokens);
            }
            Ok(tokens)
        })
    }

    fn save_tokens<'a>(
        &'a self,
        server: &'a str,
        tokens: Tokens,
    ) -> BoxFuture<'a, Result<(), AuthError>> {
        // Noted first: a request may carry the new token before the keyring write returns.
        tokens_seen::saw(server, &tokens);
        Box::pin(async move {
            oauth::put_tokens(self.secrets.as_ref(), server, server, &tokens)
                .await
                .map_err(store_error)
        })
    }

    fn remove_tokens<'a>(&'a self, server: &'a str) -> BoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            oauth::delete_tokens(self.secrets.as_ref(), server)
                .await
                .map_err(store_error)
        })
    }

    fn load_client<'a>(
        &'a self,
        issuer: &'a str,
    ) -> BoxFuture<'a, Result<Option<ClientCredentials>, AuthError>> {
        Box::pin(async move {
            oauth::client(self.secrets.as_ref(), issuer)
                .await
                .map_err(store_error)
        })
    }

    fn save_client<'a>(
        &'a self,
        client: ClientCredentials,
    ) -> BoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            oauth::put_client(self.secrets.as_ref(), &client)
                .await
                .map_err(store_error)
        })
    }

    fn remove_client<'a>(&'a self, issuer: &'a str) -> BoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            oauth::delete_client(self.secrets.as_ref(), issuer)
                .await
                .map_err(store_error)
        })
    }
}
