//! Secret values (secret environment variables and HTTP headers of servers, OAuth tokens and
//! client credentials, the audit chain's key) live only in the OS keyring; SQLite keeps just a
//! marker that a value exists. The store is a small trait so the engine does not depend on one keyring
//! implementation; the real one, [`KeyringStore`], is the system's own keyring reached through
//! the `keyring-core` crate family, and never caches a value. Values come back as
//! [`Sensitive`], so printing one shows `<redacted>`.

mod keyring;
#[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
mod legacy;
pub mod oauth;
mod token_store;
pub mod tokens_seen;

use gatehouse_mcp::Sensitive;
use gatehouse_mcp::transport::BoxFuture;

use crate::error::Result;

pub use keyring::KeyringStore;
pub use token_store::KeyringTokenStore;

/// Which part of a server's config a secret belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    Env,
    Header,
    /// The secret of a pre-registered OAuth client.
    OAuthClientSecret,
}

impl SecretKind {
    fn as_str(self) -> &'static str {
        match self {
            SecretKind::Env => "env",
            SecretKind::Header => "header",
            SecretKind::OAuthClientSecret => "oauth-client-secret",
        }
    }
}

/// Identifies one keyring entry of Gatehouse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretKey {
    /// A server's secret env variable or header.
    Value {
        server_id: String,
        kind: SecretKind,
        name: String,
    },
    /// The OAuth tokens a server's authorization server granted (one JSON entry).
    OAuthTokens { server_id: String },
    /// The OAuth client registered with an authorization server, by its issuer URL (one JSON
    /// entry, shared by every server that authorization server protects).
    OAuthClient { issuer: String },
    /// A person's sign-in at an enterprise identity provider (its ID token and refresh token,
    /// one JSON entry), by the IdP's issuer and Gatehouse's client id there: shared by every
    /// server that uses that identity provider (enterprise-managed authorization).
    IdpSession { issuer: String, client_id: String },
    /// The key of a data directory's audit chain (see `audit::key`), by the directory's id.
    AuditKey { data_dir_id: String },
    /// The checkpoint of a data directory's audit chain head (see `audit::checkpoint`).
    AuditHead { data_dir_id: String },
}

impl SecretKey {
    /// The secret env variable `name` of a server.
    pub fn env(server_id: impl Into<String>, name: impl Into<String>) -> Self {
        SecretKey::Value {
            server_id: server_id.into(),
            kind: SecretKind::Env,
            name: name.into(),
        }
    }

    /// The secret header `name` of a server.
    pub fn header(server_id: impl Into<String>, name: impl Into<String>) -> Self {
        SecretKey::Value {
            server_id: server_id.into(),
            kind: SecretKind::Header,
            name: name.into(),
        }
    }

    /// The entry's account (user) name under the service [`keyring::SERVICE`]: unique per key,
    /// readable in the keyring's own tools.
    pub fn account(&self) -> String {
        match self {
            SecretKey::Value {
                server_id,
                kind,
                name,
            } => format!("server/{server_id}/{}/{name}", kind.as_str()),
            SecretKey::OAuthTokens { server_id } => format!("server/{server_id}/oauth-tokens"),
            SecretKey::OAuthClient { issuer } => format!("oauth-client/{issuer}"),
            SecretKey::IdpSession { issuer, client_id } => {
                format!("idp-session/{client_id}@{issuer}")
            }
            SecretKey::AuditKey { data_dir_id } => format!("audit/{data_dir_id}/key"),
            SecretKey::AuditHead { data_dir_id } => format!("audit/{data_dir_id}/head"),
        }
    }
}

/// Where secret values are kept.
pub trait SecretStore: Send + Sync + std::fmt::Debug + 'static {
    /// The value, or `None` if the keyring has none.
    fn get<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<Option<Sensitive<String>>>>;
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
