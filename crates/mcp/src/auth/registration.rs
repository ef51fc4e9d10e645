//! Getting a client identity at an authorization server, in the order of 2025-11-25
//! basic/authorization, "Client Registration Approaches": credentials registered beforehand for
//! that issuer, then ones kept from an earlier registration there, then a Client ID Metadata
//! Document URL where the server supports it, then Dynamic Client Registration (RFC 7591) with
//! `application_type: "native"` (2026-07-28 client-registration, "Application Type and Redirect
//! URI Constraints") and `refresh_token` among the grant types. The token endpoint
//! authentication method the server assigns is the one used.

use serde_json::{Value, json};

use super::AuthError;
use super::config::AuthConfig;
use super::metadata::AuthorizationServerMetadata;
use super::store::{ClientCredentials, TokenEndpointAuth, TokenStore};
use crate::Sensitive;

/// Longest registration answer read, in bytes.
const MAX_REGISTRATION_BYTES: usize = 64 * 1024;

/// The client identity to use with the authorization server `metadata` describes.
pub async fn client_for(
    http: &reqwest::Client,
    config: &AuthConfig,
    store: &dyn TokenStore,
    metadata: &AuthorizationServerMetadata,
    redirect_uri: &str,
) -> Result<ClientCredentials, AuthError> {
    let issuer = metadata.issuer.as_str();
    if let Some(given) = config.preregistered.iter().find(|c| c.issuer == issuer) {
        return Ok(given.clone());
    }
    if !config.preregistered.is_empty() {
        // 2026-07-28 client-registration, "Authorization Server Binding": credentials given for
        // another authorization server are not used, and registering silently elsewhere would
        // hide that the configuration no longer fits.
        let known: Vec<&str> = config
            .preregistered
            .iter()
            .map(|c| c.issuer.as_str())
            .collect();
        return Err(AuthError::Registration {
            issuer: issuer.to_owned(),
            detail: format!(
                "the client configured for this server is registered at {}, not here; \
                 update its client id for the new authorization server",
                known.join(", ")
            ),
        });
    }
    if let Some(kept) = store.load_client(issuer).await?
        && kept.issuer == issuer
    {
        return Ok(kept);
    }
    if metadata.client_id_metadata_document_supported
        && let Some(url) = config
            .client_metadata_url
            .as_ref()
            .filter(|url| usable_metadata_url(url))
    {
        return Ok(ClientCredentials {
            issuer: issuer.to_owned(),
            client_id: url.clone(),
            client_secret: None,
            auth_method: TokenEndpointAuth::None,
        });
    }
    let Some(endpoint) = &metadata.registration_endpoint else {
        return Err(AuthError::Registration {
            issuer: issuer.to_owned(),
            detail: "it offers neither dynamic registration nor client metadata documents \
                     this client can use; register a client there and configure its id"
                .into(),
        });
    };
    let client = register(http, config, metadata, endpoint, redirect_uri).await?;
    store.save_client(client.clone()).await?;
    Ok(client)
}

/// Whether `url` can be a Client ID Metadata Document `client_id`: "https" with a path
/// (2025-11-25 basic/authorization, "Client ID Metadata Documents": "The `client_id` URL MUST
/// use the "https" scheme and contain a path component"). Another is not used, with a
/// warning, and registration goes on as without one.
fn usable_metadata_url(url: &str) -> bool {
    let usable = url::Url::parse(url)
        .is_ok_and(|u| u.scheme() == "https" && u.path() != "/" && !u.path().is_empty());
    if !usable {
        tracing::warn!(
            "the client metadata URL `{url}` is not an https URL with a path; not using it"
        );
    }
    usable
}

/// The method to ask for: a public client (`none`) where allowed, else a secret in a Basic
/// header, else in the body.
fn wanted_auth_method(metadata: &AuthorizationServerMetadata) -> TokenEndpointAuth {
    if metadata.token_endpoint_auth_methods_supported.is_none()
        || metadata.supports_auth_method("none")
    {
        TokenEndpointAuth::None
    } else if metadata.supports_auth_method("client_secret_basic") {
        TokenEndpointAuth::ClientSecretBasic
    } else if metadata.supports_auth_method("client_secret_post") {
        TokenEndpointAuth::ClientSecretPost
    } else {
        TokenEndpointAuth::None
    }
}

/// The body of a registration request.
pub fn registration_request(
    config: &AuthConfig,
    redirect_uri: &str,
    method: TokenEndpointAuth,
) -> Value {
    json!({
        "client_name": config.client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method.as_str(),
        "application_type": "native",
    })
}

async fn register(
    http: &reqwest::Client,
    config: &AuthConfig,
    metadata: &AuthorizationServerMetadata,
    endpoint: &str,
    redirect_uri: &str,
) -> Result<ClientCredentials, AuthError> {
    let failed = |detail: String| AuthError::Registration {
        issuer: metadata.issuer.clone(),
        detail,
    };
    let wanted = wanted_auth_method(metadata);
    let response = http
        .post(endpoint)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header(reqwest::header::ACCEPT, "application/json")
        .body(registration_request(config, redirect_uri, wanted).to_string())
        .send()
        .await
        .map_err(|e| failed(format!("cannot reach {endpoint}: {e}")))?;
    let status = response.status();
    let body = crate::http_body::bounded_body(response, MAX_REGISTRATION_BYTES)
        .await
        .map_err(failed)?;
    let answer: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if !status.is_success() {
        // RFC 7591 §3.2.2: `error` and `error_description`; nothing of ours is in them.
        let error = answer.get("error").and_then(Value::as_str).unwrap_or("");
        let description = answer
            .get("error_description")
            .and_then(Value::as_str)
            .unwrap_or("");
        return Err(failed(format!(
            "{endpoint} answered HTTP {status} {error} {description}"
        )));
    }
    let client_id = answer
        .get("client_id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| failed("the registration answer has no client_id".into()))?;
    let client_secret = answer
        .get("client_secret")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(|s| Sensitive::new(s.to_owned()));
    let assigned = answer
        .get("token_endpoint_auth_method")
        .and_then(Value::as_str)
        .and_then(TokenEndpointAuth::parse);
    let auth_method = match (assigned, &client_secret) {
        (Some(method), _) => method,
        (None, Some(_)) if wanted != TokenEndpointAuth::None => wanted,
        (None, Some(_)) => TokenEndpointAuth::ClientSecretBasic,
        (None, None) => TokenEndpointAuth::None,
    };
    if auth_method != TokenEndpointAuth::None && client_secret.is_none() {
        return Err(failed(format!(
            "it assigned `{}` but gave no client_secret",
            auth_method.as_str()
        )));
    }
    Ok(ClientCredentials {
        issuer: metadata.issuer.clone(),
        client_id: client_id.to_owned(),
        client_secret,
        auth_method,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(methods: Option<&[&str]>) -> AuthorizationServerMetadata {
        let mut m = AuthorizationServerMetadata::default_endpoints("http://localhost:1");
        m.token_endpoint_auth_methods_supported =
            methods.map(|m| m.iter().map(|s| s.to_string()).collect());
        m
    }

    #[test]
    fn asks_for_a_public_client_where_allowed_else_the_listed_secret_method() {
        assert_eq!(wanted_auth_method(&metadata(None)), TokenEndpointAuth::None);
        assert_eq!(
            wanted_auth_method(&metadata(Some(&["client_secret_basic", "none"]))),
            TokenEndpointAuth::None
        );
        assert_eq!(
            wanted_auth_method(&metadata(Some(&["client_secret_post"]))),
            TokenEndpointAuth::ClientSecretPost
        );
        assert_eq!(
            wanted_auth_method(&metadata(Some(&["client_secret_basic"]))),
            TokenEndpointAuth::ClientSecretBasic
        );
    }

    #[tokio::test]
    async fn credentials_configured_for_another_issuer_are_an_error_not_a_new_registration() {
        let config = AuthConfig {
            preregistered: vec![ClientCredentials {
                issuer: "http://old.example".into(),
                client_id: "configured".into(),
                client_secret: Some(Sensitive::new("s".to_owned())),
                auth_method: TokenEndpointAuth::ClientSecretBasic,
            }],
            ..AuthConfig::default()
        };
        let store = crate::auth::MemoryTokenStore::default();
        let http = reqwest::Client::new();
        let mut new_server = metadata(None);
        new_server.issuer = "http://new.example".into();
        // The registration endpoint would be unreachable: an attempt would fail differently.
        new_server.registration_endpoint = Some("http://127.0.0.1:1/register".into());
        let error = client_for(&http, &config, &store, &new_server, "http://127.0.0.1:2/cb")
            .await
            .expect_err("not used with another issuer");
        assert!(
            error
                .to_string()
                .contains("registered at http://old.example"),
            "{error}"
        );
        let mut old_server = new_server.clone();
        old_server.issuer = "http://old.example".into();
        let found = client_for(&http, &config, &store, &old_server, "http://127.0.0.1:2/cb")
            .await
            .expect("the configured client");
        assert_eq!(found.client_id, "configured");
    }

    #[tokio::test]
    async fn a_client_metadata_url_is_used_only_if_it_is_https_with_a_path() {
        let store = crate::auth::MemoryTokenStore::default();
        let http = reqwest::Client::new();
        let mut server = metadata(None);
        server.client_id_metadata_document_supported = true;
        // Without a registration endpoint, an unusable URL leaves nothing to register with.
        server.registration_endpoint = None;
        for url in [
            "https://app.example/oauth/client.json",
            "https://app.example:8443/c",
        ] {
            let config = AuthConfig {
                client_metadata_url: Some(url.into()),
                ..AuthConfig::default()
            };
            let client = client_for(&http, &config, &store, &server, "http://127.0.0.1:2/cb")
                .await
                .expect(url);
            assert_eq!(client.client_id, url);
        }
        for url in [
            "http://app.example/oauth/client.json",
            "https://app.example",
            "https://app.example/",
            "not a url",
        ] {
            let config = AuthConfig {
                client_metadata_url: Some(url.into()),
                ..AuthConfig::default()
            };
            let error = client_for(&http, &config, &store, &server, "http://127.0.0.1:2/cb")
                .await
                .expect_err(url);
            assert!(
                matches!(error, AuthError::Registration { .. }),
                "{url}: {error}"
            );
        }
    }

    #[test]
    fn the_registration_request_is_native_and_asks_for_refresh_tokens() {
        let body = registration_request(
            &AuthConfig::default(),
            "http://127.0.0.1:1/callback",
            TokenEndpointAuth::None,
        );
        assert_eq!(body["application_type"], "native");
        assert_eq!(
            body["redirect_uris"],
            json!(["http://127.0.0.1:1/callback"])
        );
        assert!(
            body["grant_types"]
                .as_array()
                .expect("grant types")
                .contains(&json!("refresh_token"))
        );
        assert_eq!(body["token_endpoint_auth_method"], "none");
    }
}
