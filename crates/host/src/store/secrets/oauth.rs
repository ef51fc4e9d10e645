//! OAuth material in the keyring, in the protocol crate's own shapes: a server's [`Tokens`] (access
//! token, refresh token, expiry, scopes, issuer) in one entry per server id, the
//! [`ClientCredentials`] registered with an authorization server in one entry per issuer, and a
//! person's sign-in at an enterprise identity provider ([`IdpSession`]: the ID token and refresh
//! token) in one entry per IdP issuer and client id. Each entry holds the JSON of that type; its
//! secrets come back as [`gatehouse_mcp::Sensitive`]. A removed server's tokens are deleted with it
//! ([`crate::store::registry::Registry::remove`]); client credentials belong to the issuer and
//! stay.
//!
//! Values are stored as UTF-8 bytes. Windows Credential Manager holds at most 2,560 bytes per
//! entry, so a very large token set fails to store there: an error, never a fallback.

use gatehouse_mcp::Sensitive;
use gatehouse_mcp::auth::{ClientCredentials, IdpSession, Tokens};
use serde::{Deserialize, Serialize};

use super::entry::SecretKey;
use super::store::SecretStore;
use crate::error::{HostError, Result};

fn to_json(value: &impl Serialize) -> Result<Sensitive<String>> {
    serde_json::to_string(value)
        .map(Sensitive::new)
        .map_err(|e| HostError::Secrets(format!("cannot encode OAuth material: {e}")))
}

/// Parses an entry, saying which without quoting it (it holds secrets).
fn from_json<T: for<'de> Deserialize<'de>>(text: &Sensitive<String>, what: &str) -> Result<T> {
    serde_json::from_str(text.expose()).map_err(|e| {
        HostError::Secrets(format!(
            "the keyring entry of {what} is not valid (line {}, column {}); sign in again",
            e.line(),
            e.column()
        ))
    })
}

/// Stores (replaces) the tokens of server `server_id`; `server_name` labels the entry.
pub async fn put_tokens(
    store: &dyn SecretStore,
    server_id: &str,
    server_name: &str,
    tokens: &Tokens,
) -> Result<()> {
    let json = to_json(tokens)?;
    let key = SecretKey::OAuthTokens {
        server_id: server_id.to_owned(),
    };
    let label = format!("Gatehouse: OAuth tokens for server {server_name}");
    store.set(&key, &label, json.expose()).await
}

/// The tokens of server `server_id`, if it has any.
pub async fn tokens(store: &dyn SecretStore, server_id: &str) -> Result<Option<Tokens>> {
    let key = SecretKey::OAuthTokens {
        server_id: server_id.to_owned(),
    };
    match store.get(&key).await? {
        Some(text) => from_json(&text, "a server's OAuth tokens").map(Some),
        None => Ok(None),
    }
}

/// Deletes the tokens of server `server_id`; none is fine.
pub async fn delete_tokens(store: &dyn SecretStore, server_id: &str) -> Result<()> {
    let key = SecretKey::OAuthTokens {
        server_id: server_id.to_owned(),
    };
    store.delete(&key).await
}

/// Stores (replaces) the client credentials registered with the authorization server
/// `client.issuer` (its issuer identifier, compared as exact text: RFC 8414 §2).
pub async fn put_client(store: &dyn SecretStore, client: &ClientCredentials) -> Result<()> {
    let json = to_json(client)?;
    let key = SecretKey::OAuthClient {
        issuer: client.issuer.clone(),
    };
    let label = format!("Gatehouse: OAuth client for {}", client.issuer);
    store.set(&key, &label, json.expose()).await
}

/// The client credentials registered with `issuer`, if any.
pub async fn client(store: &dyn SecretStore, issuer: &str) -> Result<Option<ClientCredentials>> {
    let key = SecretKey::OAuthClient {
        issuer: issuer.to_owned(),
    };
    match store.get(&key).await? {
        Some(text) => from_json(&text, "an OAuth client").map(Some),
        None => Ok(None),
    }
}

/// Deletes the client credentials registered with `issuer`; none is fine.
pub async fn delete_client(store: &dyn SecretStore, issuer: &str) -> Result<()> {
    let key = SecretKey::OAuthClient {
        issuer: issuer.to_owned(),
    };
    store.delete(&key).await
}

fn idp_key(issuer: &str, client_id: &str) -> SecretKey {
    SecretKey::IdpSession {
        issuer: issuer.to_owned(),
        client_id: client_id.to_owned(),
    }
}

/// Stores (replaces) a sign-in at the identity provider `session.issuer`.
pub async fn put_idp_session(store: &dyn SecretStore, session: &IdpSession) -> Result<()> {
    let json = to_json(session)?;
    let label = format!("Gatehouse: sign-in at identity provider {}", session.issuer);
    store
        .set(
            &idp_key(&session.issuer, &session.client_id),
            &label,
            json.expose(),
        )
        .await
}

/// The kept sign-in at identity provider `issuer` as client `client_id`, if any.
pub async fn idp_session(
    store: &dyn SecretStore,
    issuer: &str,
    client_id: &str,
) -> Result<Option<IdpSession>> {
    match store.get(&idp_key(issuer, client_id)).await? {
        Some(text) => from_json(&text, "a sign-in at an identity provider").map(Some),
        None => Ok(None),
    }
}

/// Forgets the sign-in at identity provider `issuer` as client `client_id`; none is fine.
pub async fn delete_idp_session(
    store: &dyn SecretStore,
    issuer: &str,
    client_id: &str,
) -> Result<()> {
    store.delete(&idp_key(issuer, client_id)).await
}
