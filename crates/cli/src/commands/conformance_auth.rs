//! The authorization scenarios of the conformance suite (`auth/*`): the connection gets an
//! [`Authorizer`] with an in-memory token store and a headless prompt (the suite's mock
//! authorization server redirects at once; nothing listens on the redirect URI, so the redirect
//! is read from `Location`), the redirect URI and Client ID Metadata Document URL the suite's
//! reference clients use, and, for `auth/pre-registration`, the credentials from
//! `MCP_CONFORMANCE_CONTEXT`. The era follows `MCP_CONFORMANCE_PROTOCOL_VERSION`.

use std::sync::Arc;

use gatehouse_host::HostError;
use gatehouse_mcp::auth::{
    AuthConfig, Authorizer, ClientCredentials, HeadlessPrompt, MemoryTokenStore, Secret,
    TokenEndpointAuth,
};
use gatehouse_mcp::{ClientOptions, EraChoice, HttpConfig};
use serde_json::Value;

/// Where the suite's reference clients say they are redirected to.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The Client ID Metadata Document URL the suite expects (`auth/basic-cimd`).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Adds authorization to `config` and picks the era the suite speaks.
pub fn prepare(config: &mut HttpConfig, options: &mut ClientOptions) -> Result<(), HostError> {
    let auth_config = AuthConfig {
        client_name: "gatehouse-conformance".into(),
        client_metadata_url: Some(CLIENT_METADATA_URL.into()),
        preregistered: preregistered_from_context(),
        ..AuthConfig::default()
    };
    let prompt = HeadlessPrompt::new(REDIRECT_URI).map_err(auth_error)?;
    let authorizer = Authorizer::new(
        config.url.clone(),
        auth_config,
        Arc::new(MemoryTokenStore::default()),
        Some(Arc::new(prompt)),
    )
    .map_err(auth_error)?;
    config.authorizer = Some(Arc::new(authorizer));
    options.era = match std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").as_deref() {
        Ok(version) if version < "2026-07-28" => EraChoice::Legacy,
        Ok(_) => EraChoice::Modern,
        Err(_) => EraChoice::Auto,
    };
    Ok(())
}

fn auth_error(e: gatehouse_mcp::auth::AuthError) -> HostError {
    HostError::Unsupported(e.to_string())
}

/// `{"client_id", "client_secret", "issuer"}` from the context, as credentials for that
/// issuer (client_secret_basic, what the scenario's authorization server advertises).
fn preregistered_from_context() -> Vec<ClientCredentials> {
    let Some(context) = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str::<Value>(&c).ok())
    else {
        return Vec::new();
    };
    let text = |name: &str| context.get(name).and_then(Value::as_str).map(str::to_owned);
    let (Some(client_id), Some(issuer)) = (text("client_id"), text("issuer")) else {
        return Vec::new();
    };
    let client_secret = text("client_secret").map(Secret::new);
    let auth_method = if client_secret.is_some() {
        TokenEndpointAuth::ClientSecretBasic
    } else {
        TokenEndpointAuth::None
    };
    vec![ClientCredentials {
        issuer,
        client_id,
        client_secret,
        auth_method,
    }]
}
