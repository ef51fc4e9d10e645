//! Grants without a person, for clients acting on their own behalf (authorization extensions):
//! `client_credentials` (OAuth 2.1 §4.2, SEP-1046; with a secret or a signed JWT), the RFC 7523 JWT-bearer grant with a
//! workload's JWT (SEP-1933), and enterprise-managed authorization (SEP-990): an RFC 8693 token
//! exchange at the enterprise identity provider for an ID-JAG, then the JWT-bearer grant with it.
//! A failed grant is reported, never retried with another grant type.

use serde::Deserialize;
use std::time::Duration;

use oauth2::Scope;

use super::code_flow::{self, Grant};
use super::http_client::OAuthHttp;
use super::metadata::AuthorizationServerMetadata;
use super::store::{ClientCredentials, TokenEndpointAuth};
use super::{AuthError, client_assertion};
use crate::Sensitive;

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";
/// Longest token endpoint answer read, in bytes.
const MAX_ANSWER_BYTES: usize = 256 * 1024;

/// How a client without a person gets its tokens.
#[derive(Debug, Clone)]
pub enum MachineGrant {
    /// `client_credentials` with the issuer's client credentials.
    ClientCredentials,
    /// `client_credentials`, the client authenticated by a JWT signed with its ES256 key
    /// (`private_key_jwt`).
    ClientCredentialsJwt { private_key_pem: Sensitive<String> },
    /// The JWT-bearer grant with a JWT the workload was given.
    JwtBearer { assertion: Sensitive<String> },
    /// Token exchange of an identity provider's ID token for an ID-JAG, then the JWT-bearer
    /// grant with it at the authorization server.
    EnterpriseManaged {
        idp_token_endpoint: String,
        idp_client_id: String,
        id_token: Sensitive<String>,
    },
}

/// Gets tokens by `grant` from the authorization server `metadata` describes.
pub async fn obtain(
    http: &OAuthHttp,
    grant: &MachineGrant,
    client: &ClientCredentials,
    metadata: &AuthorizationServerMetadata,
    scopes: &[String],
    resource: &str,
) -> Result<Grant, AuthError> {
    match grant {
        MachineGrant::ClientCredentials => {
            let oauth = code_flow::oauth_client(client, metadata, "http://127.0.0.1/unused")?;
            let answer = oauth
                .exchange_client_credentials()
                .add_scopes(scopes.iter().cloned().map(Scope::new))
                .add_extra_param("resource", resource.to_owned())
                .request_async(http)
                .await;
            code_flow::grant(answer)
        }
        MachineGrant::ClientCredentialsJwt { private_key_pem } => {
            let assertion =
                client_assertion::sign(&client.client_id, &metadata.issuer, private_key_pem)?;
            let scope = scopes.join(" ");
            let mut form = vec![
                ("grant_type", "client_credentials"),
                ("client_id", client.client_id.as_str()),
                ("client_assertion_type", client_assertion::ASSERTION_TYPE),
                ("client_assertion", assertion.expose()),
                ("resource", resource),
            ];
            if !scope.is_empty() {
                form.push(("scope", scope.as_str()));
            }
            post_form(&http.client, &metadata.token_endpoint, &form, None).await
        }
        MachineGrant::JwtBearer { assertion } => {
            jwt_bearer(http, client, metadata, assertion, scopes, resource).await
        }
        MachineGrant::EnterpriseManaged {
            idp_token_endpoint,
            idp_client_id,
            id_token,
        } => {
            let exchange = [
                ("grant_type", TOKEN_EXCHANGE),
                ("requested_token_type", ID_JAG),
                ("audience", metadata.issuer.as_str()),
                ("resource", resource),
                ("subject_token", id_token.expose()),
                ("subject_token_type", ID_TOKEN),
                ("client_id", idp_client_id.as_str()),
            ];
            let id_jag = post_form(&http.client, idp_token_endpoint, &exchange, None).await?;
            jwt_bearer(
                http,
                client,
                metadata,
                &id_jag.access_token,
                scopes,
                resource,
            )
            .await
        }
    }
}

async fn jwt_bearer(
    http: &OAuthHttp,
    client: &ClientCredentials,
    metadata: &AuthorizationServerMetadata,
    assertion: &Sensitive<String>,
    scopes: &[String],
    resource: &str,
) -> Result<Grant, AuthError> {
    let scope = scopes.join(" ");
    let mut form = vec![
        ("grant_type", JWT_BEARER),
        ("assertion", assertion.expose()),
        ("resource", resource),
    ];
    if !scope.is_empty() {
        form.push(("scope", scope.as_str()));
    }
    let secret = client.client_secret.as_ref().map(|s| s.expose().as_str());
    let basic = match (client.auth_method, secret) {
        (TokenEndpointAuth::ClientSecretBasic, Some(secret)) => {
            Some((client.client_id.as_str(), secret))
        }
        (TokenEndpointAuth::ClientSecretPost, Some(secret)) => {
            form.push(("client_id", client.client_id.as_str()));
            form.push(("client_secret", secret));
            None
        }
        _ => {
            form.push(("client_id", client.client_id.as_str()));
            None
        }
    };
    post_form(&http.client, &metadata.token_endpoint, &form, basic).await
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: Option<String>,
    refresh_token: Option<String>,
    expires_in: Option<u64>,
    scope: Option<String>,
    token_type: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

/// POSTs a token request form and reads the answer; `basic` is (client id, secret) for HTTP
/// Basic, each URL-encoded first (RFC 6749 §2.3.1).
async fn post_form(
    http: &reqwest::Client,
    endpoint: &str,
    form: &[(&str, &str)],
    basic: Option<(&str, &str)>,
) -> Result<Grant, AuthError> {
    use base64::Engine as _;
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form)
        .finish();
    let mut request = http
        .post(endpoint)
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .header(reqwest::header::ACCEPT, "application/json")
        .body(body);
    if let Some((id, secret)) = basic {
        let encode =
            |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
        let credentials = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            encode(id),
            encode(secret)
        ));
        let mut value = reqwest::header::HeaderValue::from_str(&format!("Basic {credentials}"))
            .map_err(|_| AuthError::Token("the client credentials cannot be sent".into()))?;
        value.set_sensitive(true);
        request = request.header(reqwest::header::AUTHORIZATION, value);
    }
    let response = request
        .send()
        .await
        .map_err(|e| AuthError::Token(format!("cannot reach {endpoint}: {e}")))?;
    let status = response.status();
    let body = crate::transport::http_config::bounded_body(response, MAX_ANSWER_BYTES)
        .await
        .map_err(AuthError::Token)?;
    let answer: TokenAnswer = serde_json::from_slice(&body).map_err(|e| {
        AuthError::Token(format!(
            "{endpoint} answered HTTP {status}, not a token response: {e}"
        ))
    })?;
    match answer.access_token {
        Some(token) if status.is_success() => Ok(Grant {
            access_token: Sensitive::new(token),
            refresh_token: answer.refresh_token.map(Sensitive::new),
            expires_in: answer.expires_in.map(Duration::from_secs),
            scopes: answer
                .scope
                .map(|s| s.split_ascii_whitespace().map(str::to_owned).collect()),
            dpop: answer
                .token_type
                .is_some_and(|t| t.eq_ignore_ascii_case("dpop")),
        }),
        _ => Err(AuthError::Token(format!(
            "{endpoint} refused: {}{}",
            answer.error.unwrap_or_else(|| format!("HTTP {status}")),
            answer
                .error_description
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        ))),
    }
}
