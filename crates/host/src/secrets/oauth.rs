//! OAuth material in the keyring: a server's tokens (access token, refresh token, expiry,
//! granted scopes) in one entry per server, and the client credentials registered with an
//! authorization server (client id, client secret, private key) in one entry per issuer URL.
//! Each entry holds JSON; the values come back as [`Sensitive`]. A removed server's tokens are
//! deleted with it ([`crate::registry::Registry::remove`]); client credentials belong to the
//! issuer and stay.

use gatehouse_mcp::Sensitive;
use serde::{Deserialize, Serialize};

use super::{SecretKey, SecretStore};
use crate::error::{HostError, Result};

/// The tokens an authorization server granted for one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthTokens {
    pub access_token: Sensitive<String>,
    pub refresh_token: Option<Sensitive<String>>,
    /// When the access token expires, in seconds since the Unix epoch; `None` if not told.
    pub expires_at: Option<i64>,
    /// The scopes granted (which may differ from those asked for).
    pub scopes: Vec<String>,
}

/// A client registered with an authorization server (statically or by dynamic registration).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthClient {
    pub client_id: String,
    pub client_secret: Option<Sensitive<String>>,
    /// A PEM private key, for `private_key_jwt` client authentication.
    pub private_key: Option<Sensitive<String>>,
}

/// The JSON of a tokens entry.
#[derive(Serialize, Deserialize)]
struct TokensJson {
    access_token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refresh_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expires_at: Option<i64>,
    #[serde(default)]
    scopes: Vec<String>,
}

/// The JSON of a client entry.
#[derive(Serialize, Deserialize)]
struct ClientJson {
    client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client_secret: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    private_key: Option<String>,
}

fn exposed(value: &Option<Sensitive<String>>) -> Option<String> {
    value.as_ref().map(|v| v.expose().clone())
}

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
    tokens: &OAuthTokens,
) -> Result<()> {
    let json = to_json(&TokensJson {
        access_token: tokens.access_token.expose().clone(),
        refresh_token: exposed(&tokens.refresh_token),
        expires_at: tokens.expires_at,
        scopes: tokens.scopes.clone(),
    })?;
    let key = SecretKey::OAuthTokens {
        server_id: server_id.to_owned(),
    };
    let label = format!("Gatehouse: OAuth tokens for server {server_name}");
    store.set(&key, &label, json.expose()).await
}

/// The tokens of server `server_id`, if it has any.
pub async fn tokens(store: &dyn SecretStore, server_id: &str) -> Result<Option<OAuthTokens>> {
    let key = SecretKey::OAuthTokens {
        server_id: server_id.to_owned(),
    };
    let Some(text) = store.get(&key).await? else {
        return Ok(None);
    };
    let json: TokensJson = from_json(&text, "a server's OAuth tokens")?;
    Ok(Some(OAuthTokens {
        access_token: Sensitive::new(json.access_token),
        refresh_token: json.refresh_token.map(Sensitive::new),
        expires_at: json.expires_at,
        scopes: json.scopes,
    }))
}

/// Deletes the tokens of server `server_id`; none is fine.
pub async fn delete_tokens(store: &dyn SecretStore, server_id: &str) -> Result<()> {
    let key = SecretKey::OAuthTokens {
        server_id: server_id.to_owned(),
    };
    store.delete(&key).await
}

/// Stores (replaces) the client credentials registered with the authorization server `issuer`
/// (its issuer identifier, compared as exact text: RFC 8414 §2).
pub async fn put_client(store: &dyn SecretStore, issuer: &str, client: &OAuthClient) -> Result<()> {
    let json = to_json(&ClientJson {
        client_id: client.client_id.clone(),
        client_secret: exposed(&client.client_secret),
        private_key: exposed(&client.private_key),
    })?;
    let key = SecretKey::OAuthClient {
        issuer: issuer.to_owned(),
    };
    let label = format!("Gatehouse: OAuth client for {issuer}");
    store.set(&key, &label, json.expose()).await
}

/// The client credentials registered with `issuer`, if any.
pub async fn client(store: &dyn SecretStore, issuer: &str) -> Result<Option<OAuthClient>> {
    let key = SecretKey::OAuthClient {
        issuer: issuer.to_owned(),
    };
    let Some(text) = store.get(&key).await? else {
        return Ok(None);
    };
    let json: ClientJson = from_json(&text, "an OAuth client")?;
    Ok(Some(OAuthClient {
        client_id: json.client_id,
        client_secret: json.client_secret.map(Sensitive::new),
        private_key: json.private_key.map(Sensitive::new),
    }))
}

/// Deletes the client credentials registered with `issuer`; none is fine.
pub async fn delete_client(store: &dyn SecretStore, issuer: &str) -> Result<()> {
    let key = SecretKey::OAuthClient {
        issuer: issuer.to_owned(),
    };
    store.delete(&key).await
}
