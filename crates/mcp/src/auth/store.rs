//! Where tokens and client credentials are kept between requests and runs. [`TokenStore`] is
//! the seam: the desktop host implements it on the OS keyring; [`MemoryTokenStore`] keeps them
//! for one process (the CLI's conformance client, tests).
//!
//! Tokens are kept per MCP server (its URL); client credentials per authorization server
//! issuer, never shared between issuers (2026-07-28 basic/authorization/client-registration,
//! "Authorization Server Binding").

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::AuthError;
use crate::Sensitive;
use crate::future::BoxFuture;

/// The tokens one MCP server accepts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tokens {
    #[serde(with = "secret_json")]
    pub access_token: Sensitive<String>,
    #[serde(default, with = "optional_secret_json")]
    pub refresh_token: Option<Sensitive<String>>,
    /// When the access token expires, in seconds since the Unix epoch, if the server said.
    #[serde(default)]
    pub expires_at: Option<u64>,
    /// When it was issued, in seconds since the Unix epoch.
    #[serde(default)]
    pub issued_at: Option<u64>,
    /// The scopes requested for (or granted to) the token.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The authorization server that issued them.
    pub issuer: String,
    /// The `resource` they were requested for.
    pub resource: String,
    /// DPoP-bound (RFC 9449): sent as `Authorization: DPoP` with a proof.
    #[serde(default)]
    pub dpop: bool,
    /// Scopes a 403 `insufficient_scope` asked for that no one could grant then (the
    /// connection had nobody to sign in): the next sign-in requests them too, and the tokens it
    /// gets no longer carry them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub step_up_scopes: Vec<String>,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}

impl Tokens {
    /// Whether the access token is due for a refresh: it expires within `margin`, or within
    /// half its lifetime for tokens shorter-lived than twice the margin (so that a token
    /// issued for 30 s is not refreshed before every request).
    pub fn due_for_refresh(&self, margin: Duration) -> bool {
        let Some(at) = self.expires_at else {
            return false;
        };
        let lifetime = self
            .issued_at
            .map_or(u64::MAX, |issued| at.saturating_sub(issued));
        let margin = margin.as_secs().min(lifetime / 2);
        at <= now().saturating_add(margin)
    }

    /// `issued_at` and `expires_at` for a token issued now that lives `lifetime`.
    pub fn lifetime_from_now(lifetime: Option<Duration>) -> (Option<u64>, Option<u64>) {
        let issued = now();
        (
            Some(issued),
            lifetime.map(|l| issued.saturating_add(l.as_secs())),
        )
    }
}

/// How the client authenticates at the token endpoint (RFC 7591 §2
/// `token_endpoint_auth_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenEndpointAuth {
    /// HTTP Basic with the URL-encoded id and secret.
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the form body.
    ClientSecretPost,
    /// A public client: `client_id` only.
    None,
}

impl TokenEndpointAuth {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenEndpointAuth::ClientSecretBasic => "client_secret_basic",
            TokenEndpointAuth::ClientSecretPost => "client_secret_post",
            TokenEndpointAuth::None => "none",
        }
    }

    pub fn parse(method: &str) -> Option<Self> {
        match method {
            "client_secret_basic" => Some(Self::ClientSecretBasic),
            "client_secret_post" => Some(Self::ClientSecretPost),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

/// A client identity at one authorization server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientCredentials {
    /// The issuer that knows this client; the credentials are used with no other.
    pub issuer: String,
    pub client_id: String,
    #[serde(default, with = "optional_secret_json")]
    pub client_secret: Option<Sensitive<String>>,
    pub auth_method: TokenEndpointAuth,
}

/// The JSON of a secret field of [`Tokens`] and [`ClientCredentials`], which a [`TokenStore`]
/// keeps (the keyring). Only these two types serialize secrets: [`Sensitive`] itself has no
/// `Serialize`, so no other type can put one into JSON by accident.
pub(crate) mod secret_json {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::Sensitive;

    pub fn serialize<S: Serializer>(value: &Sensitive<String>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.expose())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Sensitive<String>, D::Error> {
        String::deserialize(d).map(Sensitive::new)
    }
}

/// [`secret_json`] for an optional field.
pub(crate) mod optional_secret_json {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::Sensitive;

    pub fn serialize<S: Serializer>(
        value: &Option<Sensitive<String>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(v.expose()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Sensitive<String>>, D::Error> {
        Option::<String>::deserialize(d).map(|v| v.map(Sensitive::new))
    }
}

/// Persistent storage for tokens and client credentials.
pub trait TokenStore: Send + Sync + 'static {
    fn load_tokens<'a>(
        &'a self,
        server: &'a str,
    ) -> BoxFuture<'a, Result<Option<Tokens>, AuthError>>;
    fn save_tokens<'a>(
        &'a self,
        server: &'a str,
        tokens: Tokens,
    ) -> BoxFuture<'a, Result<(), AuthError>>;
    fn remove_tokens<'a>(&'a self, server: &'a str) -> BoxFuture<'a, Result<(), AuthError>>;
    fn load_client<'a>(
        &'a self,
        issuer: &'a str,
    ) -> BoxFuture<'a, Result<Option<ClientCredentials>, AuthError>>;
    fn save_client<'a>(&'a self, client: ClientCredentials)
    -> BoxFuture<'a, Result<(), AuthError>>;
    fn remove_client<'a>(&'a self, issuer: &'a str) -> BoxFuture<'a, Result<(), AuthError>>;
}

/// Most servers and most issuers a [`MemoryTokenStore`] keeps; past that, saving forgets an
/// arbitrary other entry (and logs it).
pub const MEMORY_STORE_LIMIT: usize = 256;

/// A [`TokenStore`] in memory, for one process.
#[derive(Default)]
pub struct MemoryTokenStore {
    tokens: Mutex<HashMap<String, Tokens>>,
    clients: Mutex<HashMap<String, ClientCredentials>>,
}

impl std::fmt::Debug for MemoryTokenStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryTokenStore").finish_non_exhaustive()
    }
}

fn bounded_insert<V>(map: &mut HashMap<String, V>, key: &str, value: V, what: &str) {
    if !map.contains_key(key)
        && map.len() >= MEMORY_STORE_LIMIT
        && let Some(victim) = map.keys().next().cloned()
    {
        tracing::warn!(
            "the in-memory token store is full ({MEMORY_STORE_LIMIT} {what}); forgetting {victim}"
        );
        map.remove(&victim);
    }
    map.insert(key.to_owned(), value);
}

fn lock<T>(slot: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl TokenStore for MemoryTokenStore {
    fn load_tokens<'a>(
        &'a self,
        server: &'a str,
    ) -> BoxFuture<'a, Result<Option<Tokens>, AuthError>> {
        let found = lock(&self.tokens).get(server).cloned();
        Box::pin(async move { Ok(found) })
    }

    fn save_tokens<'a>(
        &'a self,
        server: &'a str,
        tokens: Tokens,
    ) -> BoxFuture<'a, Result<(), AuthError>> {
        bounded_insert(&mut lock(&self.tokens), server, tokens, "servers");
        Box::pin(async { Ok(()) })
    }

    fn remove_tokens<'a>(&'a self, server: &'a str) -> BoxFuture<'a, Result<(), AuthError>> {
        lock(&self.tokens).remove(server);
        Box::pin(async { Ok(()) })
    }

    fn load_client<'a>(
        &'a self,
        issuer: &'a str,
    ) -> BoxFuture<'a, Result<Option<ClientCredentials>, AuthError>> {
        let found = lock(&self.clients).get(issuer).cloned();
        Box::pin(async move { Ok(found) })
    }

    fn save_client<'a>(
        &'a self,
        client: ClientCredentials,
    ) -> BoxFuture<'a, Result<(), AuthError>> {
        let issuer = client.issuer.clone();
        bounded_insert(&mut lock(&self.clients), &issuer, client, "issuers");
        Box::pin(async { Ok(()) })
    }

    fn remove_client<'a>(&'a self, issuer: &'a str) -> BoxFuture<'a, Result<(), AuthError>> {
        lock(&self.clients).remove(issuer);
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(issued_ago: u64, lifetime: u64) -> Tokens {
        let issued = now() - issued_ago;
        Tokens {
            access_token: Sensitive::new("a".to_owned()),
            refresh_token: None,
            expires_at: Some(issued + lifetime),
            issued_at: Some(issued),
            scopes: Vec::new(),
            issuer: "i".into(),
            resource: "r".into(),
            dpop: false,
            step_up_scopes: Vec::new(),
        }
    }

    #[test]
    fn tokens_kept_before_step_up_scopes_existed_still_parse() {
        let kept = r#"{"access_token":"a","issuer":"i","resource":"r","scopes":["mcp:read"]}"#;
        let tokens: Tokens = serde_json::from_str(kept).expect("parses");
        assert!(tokens.step_up_scopes.is_empty());
        let mut wanting = tokens.clone();
        wanting.step_up_scopes = vec!["mcp:write".to_owned()];
        let json = serde_json::to_string(&wanting).expect("serializes");
        let back: Tokens = serde_json::from_str(&json).expect("parses");
        assert_eq!(back.step_up_scopes, ["mcp:write"]);
        assert!(
            !serde_json::to_string(&tokens)
                .expect("serializes")
                .contains("step_up")
        );
    }

    #[test]
    fn a_token_is_refreshed_a_minute_before_expiry_or_at_half_life_if_short() {
        let margin = Duration::from_secs(60);
        assert!(!tokens(0, 3600).due_for_refresh(margin));
        assert!(tokens(3550, 3600).due_for_refresh(margin));
        assert!(!tokens(0, 30).due_for_refresh(margin));
        assert!(tokens(20, 30).due_for_refresh(margin));
        let mut unknown = tokens(0, 3600);
        unknown.expires_at = None;
        assert!(!unknown.due_for_refresh(margin));
    }

    #[test]
    fn the_debug_output_of_tokens_and_credentials_shows_no_secret() {
        let mut t = tokens(0, 10);
        t.access_token = Sensitive::new("access-secret".to_owned());
        t.refresh_token = Some(Sensitive::new("refresh-secret".to_owned()));
        let client = ClientCredentials {
            issuer: "i".into(),
            client_id: "id".into(),
            client_secret: Some(Sensitive::new("client-secret".to_owned())),
            auth_method: TokenEndpointAuth::ClientSecretBasic,
        };
        let shown = format!("{t:?} {client:?}");
        for value in ["access-secret", "refresh-secret", "client-secret"] {
            assert!(!shown.contains(value), "{shown}");
        }
    }
}
