//! One keyring entry of Gatehouse: which secret it holds ([`SecretKey`], [`SecretKind`]) and
//! its value as stored.
//!
//! A key is a server's secret env value or header, a server's OAuth tokens, an issuer's OAuth
//! client, a person's sign-in at an enterprise identity provider, the audit log's key or head
//! checkpoint, or a gateway client's bearer token. Its account (the keyring's user) is
//! `server/<id>/env/<NAME>`, `server/<id>/header/<Name>`, `server/<id>/oauth-tokens`,
//! `oauth-client/<issuer>`, `idp-session/<client id>@<IdP issuer>`, `audit/<data dir id>/key`,
//! `audit/<data dir id>/head` or `client/<name>/token`.
//! Values are stored as UTF-8 bytes.

use keyring_core::Error;

/// Which part of a server's config a secret belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    Env,
    Header,
    /// The secret of a pre-registered OAuth client.
    OAuthClientSecret,
}

impl SecretKind {
    pub(super) fn as_str(self) -> &'static str {
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
    /// The key that seals the backups `gatehouse connect` keeps of agents' config files (see
    /// `agent_connect::sealed`), by the data directory's id.
    BackupKey { data_dir_id: String },
    /// The bearer token a gateway client presents to the HTTP endpoint (see `gateway::clients`),
    /// by the data directory's id (two data directories may each have a client of one name);
    /// `None`: where tokens were kept before, by the client's name alone, only ever read.
    ClientToken {
        data_dir_id: Option<String>,
        client: String,
    },
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
            SecretKey::BackupKey { data_dir_id } => format!("agent-backups/{data_dir_id}/key"),
            SecretKey::ClientToken {
                data_dir_id: Some(id),
                client,
            } => format!("client/{id}/{client}/token"),
            SecretKey::ClientToken {
                data_dir_id: None,
                client,
            } => format!("client/{client}/token"),
        }
    }
}

/// A value as stored: UTF-8 bytes. (Raw bytes rather than the stores' "password", which
/// Credential Manager keeps as UTF-16 in half the room.)
pub(super) fn text(bytes: Vec<u8>) -> keyring_core::Result<String> {
    String::from_utf8(bytes).map_err(|e| Error::BadEncoding(e.into_bytes()))
}
