//! Grants without a person, for clients acting on their own behalf (authorization extensions):
//! `client_credentials` (OAuth 2.1 §4.2, SEP-1046; with a secret or a signed JWT), the RFC 7523 JWT-bearer grant with a
//! workload's JWT (SEP-1933), and enterprise-managed authorization (SEP-990): an RFC 8693 token
//! exchange at the enterprise identity provider for an ID-JAG, then the JWT-bearer grant with it.
//! A failed grant is reported, never retried with another grant type.

use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;

use oauth2::Scope;

use super::code_flow::{self, Grant};
use super::http_client::OAuthHttp;
use super::metadata::AuthorizationServerMetadata;
use super::store::{ClientCredentials, TokenEndpointAuth};
use super::{AuthError, client_assertion};
use crate::Sensitive;
use crate::future::BoxFuture;

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";
/// Longest token endpoint answer read, in bytes.
const MAX_ANSWER_BYTES: usize = 256 * 1024;

/// Supplies a [`MachineGrant`] each time tokens are requested, for grants whose material
/// changes between requests: a workload's JWT read afresh from the file it rotates in, or the
/// ID token of the person's latest sign-in at the enterprise identity provider. An error ends
/// the token request as it is ([`AuthError::NeedsUser`] where a person has to sign in first).
pub trait GrantSource: Send + Sync + std::fmt::Debug + 'static {
    fn grant(&self) -> BoxFuture<'_, Result<MachineGrant, AuthError>>;
}

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
        /// The client's secret at the identity provider, sent with HTTP Basic, if it has one.
        idp_client_secret: Option<Sensitive<String>>,
        id_token: Sensitive<String>,
    },
    /// The grant `source` gives when tokens are requested.
    Deferred(Arc<dyn GrantSource>),
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
    let resolved;
    let grant = match grant {
        MachineGrant::Deferred(source) => {
            resolved = source.grant().await?;
            &resolved
        }
        other => other,
    };
    match grant {
        MachineGrant::Deferred(_) => Err(AuthError::Token(
            "a grant source gave another deferred grant".into(),
        )),
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
            idp_client_secret,
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
            let basic = idp_client_secret
                .as_ref()
                .map(|secret| (idp_client_id.as_str(), secret.expose().as_str()));
            let id_jag = post_form(&http.client, idp_token_endpoint, &exchange, basic).await?;
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

/// A token endpoint's JSON answer (RFC 6749 §5.1, §5.2; OpenID Connect Core §3.1.3.3).
#[derive(Deserialize)]
pub(crate) struct TokenAnswer {
    pub access_token: Option<String>,
    pub refresh_token: Option<String>,
    pub id_token: Option<String>,
    pub expires_in: Option<u64>,
    pub scope: Option<String>,
    pub token_type: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl TokenAnswer {
    /// The refusal as an error: `error` and `error_description`, else the status.
    pub fn refusal(self, endpoint: &str, status: reqwest::StatusCode) -> AuthError {
        AuthError::Token(format!(
            "{endpoint} refused: {}{}",
            self.error.unwrap_or_else(|| format!("HTTP {status}")),
            self.error_description
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        ))
    }
}

/// POSTs a token request form and reads the answer as a [`Grant`].
async fn post_form(
    http: &reqwest::Client,
    endpoint: &str,
    form: &[(&str, &str)],
    basic: Option<(&str, &str)>,
) -> Result<Grant, AuthError> {
    let (status, answer) = request(http, endpoint, form, basic).await?;
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
        _ => Err(answer.refusal(endpoint, status)),
    }
}

/// POSTs a token request form and reads the answer; `basic` is (client id, secret) for HTTP
/// Basic, each URL-encoded first (RFC 6749 §2.3.1).
pub(crate) async fn request(
    http: &reqwest::Client,
    endpoint: &str,
    form: &[(&str, &str)],
    basic: Option<(&str, &str)>,
) -> Result<(reqwest::StatusCode, TokenAnswer), AuthError> {
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
    let body = crate::http_body::bounded_body(response, MAX_ANSWER_BYTES)
        .await
        .map_err(AuthError::Token)?;
    let answer: TokenAnswer = serde_json::from_slice(&body).map_err(|e| {
        AuthError::Token(format!(
            "{endpoint} answered HTTP {status}, not a token response: {e}"
        ))
    })?;
    Ok((status, answer))
}
