//! The two metadata documents discovery reads, Protected Resource Metadata (RFC 9728 §2) and
//! authorization server metadata (RFC 8414 §2, also served as OpenID Connect Discovery), and the
//! bounded GET that fetches them. Only the fields the client acts on are kept.

use serde::Deserialize;

/// Longest metadata document accepted, in bytes.
pub const MAX_METADATA_BYTES: usize = 256 * 1024;

/// What a protected resource (the MCP server) says about itself.
#[derive(Debug, Clone, Deserialize)]
pub struct ProtectedResourceMetadata {
    /// The resource identifier, kept exactly as sent (it becomes the `resource` parameter).
    pub resource: String,
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
}

/// What an authorization server says about itself.
#[derive(Debug, Clone, Deserialize)]
pub struct AuthorizationServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// Client ID Metadata Documents (2025-11-25 basic/authorization, "Client ID Metadata
    /// Documents").
    #[serde(default)]
    pub client_id_metadata_document_supported: bool,
    /// RFC 9207 §3: the server puts `iss` into authorization responses.
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: bool,
    /// RFC 9449 §5.1: the server issues DPoP-bound tokens for proofs with these algorithms.
    #[serde(default)]
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
}

impl AuthorizationServerMetadata {
    /// The endpoints a 2025-03-26 server without metadata has by default (2025-03-26
    /// basic/authorization, "Fallbacks for Servers without Metadata Discovery").
    pub fn default_endpoints(origin: &str) -> Self {
        Self {
            issuer: origin.to_owned(),
            authorization_endpoint: format!("{origin}/authorize"),
            token_endpoint: format!("{origin}/token"),
            registration_endpoint: Some(format!("{origin}/register")),
            scopes_supported: None,
            // 2025-03-26 made PKCE mandatory for every client, so a server without metadata
            // is taken to support S256.
            code_challenge_methods_supported: Some(vec!["S256".to_owned()]),
            token_endpoint_auth_methods_supported: None,
            client_id_metadata_document_supported: false,
            authorization_response_iss_parameter_supported: false,
            dpop_signing_alg_values_supported: None,
        }
    }

    /// Whether tokens are to be DPoP-bound: the server takes ES256 proofs.
    pub fn supports_dpop(&self) -> bool {
        self.dpop_signing_alg_values_supported
            .as_ref()
            .is_some_and(|a| a.iter().any(|a| a == super::dpop::ALGORITHM))
    }

    pub fn supports_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|m| m == "S256"))
    }

    /// Whether the server lists token endpoint authentication method `method`.
    pub fn supports_auth_method(&self, method: &str) -> bool {
        self.token_endpoint_auth_methods_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|m| m == method))
    }
}

/// The outcome of fetching a metadata document.
#[derive(Debug)]
pub enum Fetched<T> {
    Found(T),
    /// Not there (an HTTP error status): the next candidate URL is worth trying.
    Absent(u16),
    /// Unreachable, too large, or not the expected JSON.
    Failed(String),
}

/// GETs `url` and reads it as a `T`.
pub async fn fetch<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
) -> Fetched<T> {
    let response = match http
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
    {
        Ok(response) => response,
        Err(e) => return Fetched::Failed(format!("cannot fetch {url}: {e}")),
    };
    let status = response.status();
    if !status.is_success() {
        return Fetched::Absent(status.as_u16());
    }
    let body = match crate::http_body::bounded_body(response, MAX_METADATA_BYTES).await {
        Ok(body) => body,
        Err(e) => return Fetched::Failed(format!("{url}: {e}")),
    };
    match serde_json::from_slice(&body) {
        Ok(document) => Fetched::Found(document),
        Err(e) => Fetched::Failed(format!("{url} is not valid metadata: {e}")),
    }
}
