//! One server's tokens as the authorizer keeps them: read from the [`TokenStore`] once, then held
//! (so a request does not cost a keyring round trip), written through on every change, and
//! taken as none when they were requested for another resource.

use std::sync::{Arc, Mutex};

use url::Url;

use super::AuthError;
use super::resource;
use super::store::{TokenStore, Tokens};

/// One server's tokens in the store, and the copy last read or written.
pub(super) struct KeptTokens {
    /// The store key of this server's tokens.
    key: String,
    server: Url,
    store: Arc<dyn TokenStore>,
    /// The tokens as last read from or written to the store (`None`: not read yet), so that a
    /// request does not cost a store read (a keyring round trip).
    cached: Mutex<Option<Option<Tokens>>>,
}

impl KeptTokens {
    /// The tokens of `server`, keyed by its URL.
    pub(super) fn new(server: Url, store: Arc<dyn TokenStore>) -> Self {
        Self {
            key: server.to_string(),
            server,
            store,
            cached: Mutex::new(None),
        }
    }

    /// The same tokens keyed by `key` instead of the server's URL.
    pub(super) fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = key.into();
        self
    }

    /// The store itself (client registrations are kept there too).
    pub(super) fn store(&self) -> &dyn TokenStore {
        self.store.as_ref()
    }

    /// Forgets the copy, so the next [`KeptTokens::load`] reads the store again (another
    /// process, the app or the CLI, may have new tokens).
    pub(super) fn reread(&self) {
        *self.cache() = None;
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Option<Option<Tokens>>> {
        self.cached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// This server's tokens: read from the store once, then kept. Tokens requested for another
    /// resource are taken as none: the store key may outlive the server's URL (the host keys
    /// tokens by the server's id, and its URL can be edited), and a token issued for another
    /// server must never be sent to this one (2025-11-25 basic/authorization, "Token
    /// Handling"). They stay in the store until this server's own tokens replace them.
    pub(super) async fn load(&self) -> Option<Tokens> {
        if let Some(known) = self.cache().clone() {
            return known;
        }
        match self.store.load_tokens(&self.key).await {
            Ok(tokens) => {
                let tokens = tokens.filter(|t| {
                    let ours = resource::identifies(&t.resource, &self.server);
                    if !ours {
                        tracing::warn!(
                            "the kept tokens of {} were requested for {}; not sending them",
                            self.server,
                            t.resource
                        );
                    }
                    ours
                });
                *self.cache() = Some(tokens.clone());
                tokens
            }
            Err(e) => {
                // Taken as none until the next 401 reads again, so that a keyring that is not
                // there costs one failed read per connection, not one per request.
                tracing::warn!("reading the tokens of {} failed: {e}", self.server);
                *self.cache() = Some(None);
                None
            }
        }
    }

    /// Stores `tokens` and keeps them.
    pub(super) async fn keep(&self, tokens: Tokens) -> Result<(), AuthError> {
        *self.cache() = Some(Some(tokens.clone()));
        self.store.save_tokens(&self.key, tokens).await
    }

    /// Drops this server's tokens.
    pub(super) async fn forget(&self) -> Result<(), AuthError> {
        *self.cache() = Some(None);
        self.store.remove_tokens(&self.key).await
    }
}
