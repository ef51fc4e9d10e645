//! Secret values (secret environment variables and HTTP headers) live only in the OS keyring,
//! reached through the freedesktop Secret Service (gnome-keyring, KWallet). SQLite keeps just a
//! marker that a value exists. The store is a small trait so the engine does not depend on one
//! keyring implementation; the real one connects per operation and never caches a value.

use std::collections::HashMap;

use gatehouse_mcp::transport::BoxFuture;
use secret_service::{EncryptionType, SecretService};

use crate::error::{HostError, Result};

/// Which part of a server's config a secret belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    Env,
    Header,
}

impl SecretKind {
    fn as_str(self) -> &'static str {
        match self {
            SecretKind::Env => "env",
            SecretKind::Header => "header",
        }
    }
}

/// Identifies one secret value: a server's env variable or header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretKey {
    pub server_id: String,
    pub kind: SecretKind,
    pub name: String,
}

impl SecretKey {
    fn attributes(&self) -> HashMap<&str, &str> {
        HashMap::from([
            ("application", APPLICATION),
            ("gatehouse-server", self.server_id.as_str()),
            ("gatehouse-kind", self.kind.as_str()),
            ("gatehouse-name", self.name.as_str()),
        ])
    }
}

const APPLICATION: &str = "gatehouse";

/// Where secret values are kept.
pub trait SecretStore: Send + Sync + std::fmt::Debug + 'static {
    /// The value, or `None` if the keyring has none.
    fn get<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<Option<String>>>;
    /// Stores or replaces a value; `label` is what keyring tools show.
    fn set<'a>(
        &'a self,
        key: &'a SecretKey,
        label: &'a str,
        value: &'a str,
    ) -> BoxFuture<'a, Result<()>>;
    /// Deletes one value; a missing one is fine.
    fn delete<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<()>>;
}

/// The freedesktop Secret Service.
#[derive(Debug, Default)]
pub struct SecretServiceStore;

fn keyring_error(action: &str, error: secret_service::Error) -> HostError {
    HostError::Secrets(format!(
        "cannot {action} in the OS keyring (Secret Service): {error}; is a keyring such as gnome-keyring running and unlocked?"
    ))
}

async fn connect() -> Result<SecretService<'static>> {
    SecretService::connect(EncryptionType::Dh)
        .await
        .map_err(|e| keyring_error("connect", e))
}

impl SecretStore for SecretServiceStore {
    fn get<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<Option<String>>> {
        Box::pin(async move {
            let service = connect().await?;
            let found = service
                .search_items(key.attributes())
                .await
                .map_err(|e| keyring_error("search", e))?;
            let item = match (found.unlocked.first(), found.locked.first()) {
                (Some(item), _) => item,
                (None, Some(item)) => {
                    item.unlock()
                        .await
                        .map_err(|e| keyring_error("unlock a secret", e))?;
                    item
                }
                (None, None) => return Ok(None),
            };
            let bytes = item
                .get_secret()
                .await
                .map_err(|e| keyring_error("read a secret", e))?;
            String::from_utf8(bytes).map(Some).map_err(|_| {
                HostError::Secrets(format!("the keyring value for `{}` is not UTF-8", key.name))
            })
        })
    }

    fn set<'a>(
        &'a self,
        key: &'a SecretKey,
        label: &'a str,
        value: &'a str,
    ) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            let service = connect().await?;
            let collection = match service.get_default_collection().await {
                Ok(collection) => collection,
                Err(secret_service::Error::NoResult) => service
                    .get_collection_by_alias("login")
                    .await
                    .map_err(|e| keyring_error("find the default collection", e))?,
                Err(e) => return Err(keyring_error("find the default collection", e)),
            };
            collection
                .ensure_unlocked()
                .await
                .map_err(|e| keyring_error("unlock the collection", e))?;
            collection
                .create_item(
                    label,
                    key.attributes(),
                    value.as_bytes(),
                    true,
                    "text/plain",
                )
                .await
                .map_err(|e| keyring_error("store a secret", e))?;
            Ok(())
        })
    }

    fn delete<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            let service = connect().await?;
            let found = service
                .search_items(key.attributes())
                .await
                .map_err(|e| keyring_error("search", e))?;
            for item in found.unlocked.iter().chain(found.locked.iter()) {
                item.delete()
                    .await
                    .map_err(|e| keyring_error("delete a secret", e))?;
            }
            Ok(())
        })
    }
}
