//! The authorization scenarios of the conformance suite (`auth/*`): the connection gets an
//! [`Authorizer`] with an in-memory token store and a headless prompt (the suite's mock
//! authorization server redirects at once; nothing listens on the redirect URI, so the redirect
//! is read from `Location`), the redirect URI and Client ID Metadata Document URL the suite's
//! reference clients use, and, for `auth/pre-registration`, the credentials from
//! `MCP_CONFORMANCE_CONTEXT`. The era follows `MCP_CONFORMANCE_PROTOCOL_VERSION`.
//!
//! The extension scenarios without a person (`client-credentials-basic`, `-jwt`,
//! `wif-jwt-bearer`, `enterprise-managed-authorization`) get a [`MachineGrant`] from the context instead. Their
//! context names no issuer, so the credentials are bound to the authorization server that
//! discovery finds for the scenario's server.

use std::sync::Arc;

use gatehouse_host::HostError;
use gatehouse_mcp::auth::{
    AuthConfig, Authorizer, ClientCredentials, HeadlessPrompt, MachineGrant, MemoryTokenStore,
    TokenEndpointAuth,
};
use gatehouse_mcp::{ClientOptions, EraChoice, HttpConfig, Sensitive};
use serde_json::Value;

/// Where the suite's reference clients say they are redirected to.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The Client ID Metadata Document URL the suite expects (`auth/basic-cimd`).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Adds authorization to `config` and picks the era the suite speaks.
pub async fn prepare(
    scenario: &str,
    config: &mut HttpConfig,
    options: &mut ClientOptions,
) -> Result<(), HostError> {
    let context = context();
    let text = |name: &str| context.get(name).and_then(Value::as_str).map(str::to_owned);
    let machine_grant = match scenario {
        "auth/client-credentials-basic" => Some(MachineGrant::ClientCredentials),
        "auth/client-credentials-jwt" => {
            text("private_key_pem").map(|pem| MachineGrant::ClientCredentialsJwt {
                private_key_pem: Sensitive::new(pem),
            })
        }
        "auth/wif-jwt-bearer" => text("valid_jwt").map(|jwt| MachineGrant::JwtBearer {
            assertion: Sensitive::new(jwt),
        }),
        "auth/enterprise-managed-authorization" => {
            match (
                text("idp_token_endpoint"),
                text("idp_client_id"),
                text("idp_id_token"),
            ) {
                (Some(endpoint), Some(client_id), Some(token)) => {
                    Some(MachineGrant::EnterpriseManaged {
                        idp_token_endpoint: endpoint,
                        idp_client_id: client_id,
                        idp_client_secret: None,
                        id_token: Sensitive::new(token),
                    })
                }
                _ => None,
            }
        }
        _ => None,
    };
    let issuer = match text("issuer") {
        Some(issuer) => Some(issuer),
        None if machine_grant.is_some() => Some(discovered_issuer(&config.url).await?),
        None => None,
    };
    let auth_config = AuthConfig {
        client_name: "gatehouse-conformance".into(),
        client_metadata_url: Some(CLIENT_METADATA_URL.into()),
        preregistered: issuer
            .map(|issuer| credentials(&context, issuer))
            .into_iter()
            .flatten()
            .collect(),
        machine_grant,
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

/// `MCP_CONFORMANCE_CONTEXT`, read leniently (`{}` when absent or not JSON).
fn context() -> Value {
    std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str::<Value>(&c).ok())
        .unwrap_or(Value::Null)
}

/// The issuer of the authorization server the scenario's server names.
async fn discovered_issuer(url: &url::Url) -> Result<String, HostError> {
    let http = gatehouse_mcp::auth::http_client::auth_http_client().map_err(auth_error)?;
    let found = gatehouse_mcp::auth::discovery::discover(&http, url, None)
        .await
        .map_err(auth_error)?;
    Ok(found.issuer().to_owned())
}

/// `{"client_id", "client_secret"}` from the context as credentials for `issuer`:
/// client_secret_basic with a secret (what the scenarios' authorization servers advertise),
/// a public client without.
fn credentials(context: &Value, issuer: String) -> Option<ClientCredentials> {
    let client_id = context.get("client_id").and_then(Value::as_str)?.to_owned();
    let client_secret = context
        .get("client_secret")
        .and_then(Value::as_str)
        .map(|s| Sensitive::new(s.to_owned()));
    let auth_method = if client_secret.is_some() {
        TokenEndpointAuth::ClientSecretBasic
    } else {
        TokenEndpointAuth::None
    };
    Some(ClientCredentials {
        issuer,
        client_id,
        client_secret,
        auth_method,
    })
}
