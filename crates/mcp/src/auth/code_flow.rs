//! The authorization code grant with PKCE S256 (OAuth 2.1 §4.1, 2025-11-25 basic/authorization,
//! "Authorization Code Protection"), and refreshing, over the oauth2 crate: building the
//! authorization URL with `state`, `code_challenge`, `scope` and `resource` (RFC 8707), reading
//! the redirect back, exchanging the code with the verifier, `redirect_uri` and `resource`, and
//! authenticating at the token endpoint as the client was registered.

use std::time::Duration;

use oauth2::basic::BasicClient;
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet,
    EndpointSet, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, RequestTokenError,
    Scope, TokenResponse, TokenUrl,
};

use super::AuthError;
use super::http_client::OAuthHttp;
use super::metadata::AuthorizationServerMetadata;
use super::store::{ClientCredentials, TokenEndpointAuth};
use crate::Sensitive;

type OAuthClient =
    BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>;

/// An authorization in progress: where to send the person, and what to check on return.
#[derive(Debug)]
pub struct PendingAuthorization {
    pub url: url::Url,
    state: CsrfToken,
    verifier: PkceCodeVerifier,
}

/// What the redirect back carried.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AuthorizationResponse {
    pub code: Option<String>,
    pub state: Option<String>,
    pub iss: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl AuthorizationResponse {
    /// Reads a redirect's query string (`application/x-www-form-urlencoded`).
    pub fn from_query(query: &str) -> Self {
        let mut response = Self::default();
        for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
            let slot = match name.as_ref() {
                "code" => &mut response.code,
                "state" => &mut response.state,
                "iss" => &mut response.iss,
                "error" => &mut response.error,
                "error_description" => &mut response.error_description,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(value.into_owned());
            }
        }
        response
    }

    /// The code of a redirect back from `metadata`'s authorization endpoint (`who` names that
    /// server in errors), once its `state` is `expected_state` and its `iss` passes RFC 9207
    /// (checked before anything in the response is acted on, errors included); an `error` it
    /// carries is reported with its description.
    pub fn code(
        &self,
        expected_state: &str,
        metadata: &AuthorizationServerMetadata,
        who: &str,
    ) -> Result<&str, AuthError> {
        if self.state.as_deref() != Some(expected_state) {
            return Err(AuthError::Authorization(format!(
                "the response of {who} does not carry this sign-in's state"
            )));
        }
        super::iss::check(
            metadata.authorization_response_iss_parameter_supported,
            self.iss.as_deref(),
            &metadata.issuer,
        )
        .map_err(|e| AuthError::Authorization(e.to_string()))?;
        if let Some(error) = &self.error {
            let description = self
                .error_description
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            return Err(AuthError::Authorization(format!(
                "{who} answered {error}{description}"
            )));
        }
        self.code
            .as_deref()
            .ok_or_else(|| AuthError::Authorization(format!("the response of {who} has no code")))
    }
}

/// Tokens from the token endpoint.
#[derive(Debug)]
pub struct Grant {
    pub access_token: Sensitive<String>,
    pub refresh_token: Option<Sensitive<String>>,
    pub expires_in: Option<Duration>,
    /// The scopes granted, when the server said (RFC 6749 §5.1).
    pub scopes: Option<Vec<String>>,
    /// A DPoP-bound token (`token_type` `DPoP`, RFC 9449 §5).
    pub dpop: bool,
}

pub(crate) fn oauth_client(
    client: &ClientCredentials,
    metadata: &AuthorizationServerMetadata,
    redirect_uri: &str,
) -> Result<OAuthClient, AuthError> {
    let invalid = |what: &str, e: &dyn std::fmt::Display| {
        AuthError::Discovery(format!("the authorization server's {what} is invalid: {e}"))
    };
    let auth_url = AuthUrl::new(metadata.authorization_endpoint.clone())
        .map_err(|e| invalid("authorization endpoint", &e))?;
    let token_url = TokenUrl::new(metadata.token_endpoint.clone())
        .map_err(|e| invalid("token endpoint", &e))?;
    let redirect = RedirectUrl::new(redirect_uri.to_owned())
        .map_err(|e| AuthError::Authorization(format!("invalid redirect URI: {e}")))?;
    let mut oauth = BasicClient::new(ClientId::new(client.client_id.clone()))
        .set_auth_uri(auth_url)
        .set_token_uri(token_url)
        .set_redirect_uri(redirect)
        .set_auth_type(match client.auth_method {
            TokenEndpointAuth::ClientSecretBasic => AuthType::BasicAuth,
            TokenEndpointAuth::ClientSecretPost | TokenEndpointAuth::None => AuthType::RequestBody,
        });
    if client.auth_method != TokenEndpointAuth::None
        && let Some(secret) = &client.client_secret
    {
        oauth = oauth.set_client_secret(ClientSecret::new(secret.expose().to_owned()));
    }
    Ok(oauth)
}

/// Builds the authorization request. `scopes` empty means no `scope` parameter at all.
pub fn start(
    client: &ClientCredentials,
    metadata: &AuthorizationServerMetadata,
    redirect_uri: &str,
    scopes: &[String],
    resource: &str,
) -> Result<PendingAuthorization, AuthError> {
    let oauth = oauth_client(client, metadata, redirect_uri)?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, state) = oauth
        .authorize_url(CsrfToken::new_random)
        .set_pkce_challenge(challenge)
        .add_scopes(scopes.iter().cloned().map(Scope::new))
        .add_extra_param("resource", resource.to_owned())
        .url();
    Ok(PendingAuthorization {
        url,
        state,
        verifier,
    })
}

impl PendingAuthorization {
    /// Whether the redirect carried this request's `state`.
    /// The `state` the redirect back must carry.
    pub fn state(&self) -> &str {
        self.state.secret()
    }
}

/// Exchanges the code for tokens.
pub async fn exchange(
    http: &OAuthHttp,
    client: &ClientCredentials,
    metadata: &AuthorizationServerMetadata,
    redirect_uri: &str,
    pending: PendingAuthorization,
    code: &str,
    resource: &str,
) -> Result<Grant, AuthError> {
    let oauth = oauth_client(client, metadata, redirect_uri)?;
    // The client's redirect URI goes along (OAuth 2.1 §4.1.3), as oauth2 adds it.
    let answer = oauth
        .exchange_code(AuthorizationCode::new(code.to_owned()))
        .set_pkce_verifier(pending.verifier)
        .add_extra_param("resource", resource.to_owned())
        .request_async(http)
        .await;
    grant(answer)
}

/// Trades a refresh token for new tokens.
pub async fn refresh(
    http: &OAuthHttp,
    client: &ClientCredentials,
    metadata: &AuthorizationServerMetadata,
    redirect_uri: &str,
    refresh_token: &Sensitive<String>,
    resource: &str,
) -> Result<Grant, AuthError> {
    let oauth = oauth_client(client, metadata, redirect_uri)?;
    let token = RefreshToken::new(refresh_token.expose().to_owned());
    let answer = oauth
        .exchange_refresh_token(&token)
        .add_extra_param("resource", resource.to_owned())
        .request_async(http)
        .await;
    grant(answer)
}

pub(crate) fn grant<E: std::error::Error + 'static>(
    answer: Result<
        oauth2::basic::BasicTokenResponse,
        RequestTokenError<E, oauth2::basic::BasicErrorResponse>,
    >,
) -> Result<Grant, AuthError> {
    let response = answer.map_err(|e| AuthError::Token(describe(&e)))?;
    Ok(Grant {
        access_token: Sensitive::new(response.access_token().secret().clone()),
        refresh_token: response
            .refresh_token()
            .map(|t| Sensitive::new(t.secret().clone())),
        expires_in: response.expires_in(),
        scopes: response
            .scopes()
            .map(|s| s.iter().map(|s| s.to_string()).collect()),
        dpop: response.token_type().as_ref().eq_ignore_ascii_case("dpop"),
    })
}

/// A token endpoint failure in words that carry no secret (the server's error code and
/// description, or a transport problem; never the request or response body).
fn describe<E: std::error::Error + 'static>(
    error: &RequestTokenError<E, oauth2::basic::BasicErrorResponse>,
) -> String {
    match error {
        RequestTokenError::ServerResponse(response) => {
            let description = response
                .error_description()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            format!(
                "the token endpoint refused: {}{description}",
                response.error()
            )
        }
        RequestTokenError::Request(e) => e.to_string(),
        RequestTokenError::Parse(e, _) => {
            format!("the token endpoint's answer is not a token response: {e}")
        }
        RequestTokenError::Other(e) => e.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(method: TokenEndpointAuth) -> ClientCredentials {
        ClientCredentials {
            issuer: "http://localhost:4000".into(),
            client_id: "test-client".into(),
            client_secret: Some(Sensitive::new("s3cret".to_owned())),
            auth_method: method,
        }
    }

    #[test]
    fn the_authorization_url_carries_pkce_state_resource_and_scope() {
        let metadata = AuthorizationServerMetadata::default_endpoints("http://localhost:4000");
        let pending = start(
            &client(TokenEndpointAuth::None),
            &metadata,
            "http://localhost:3000/callback",
            &["mcp:basic".into(), "mcp:write".into()],
            "http://localhost:3000",
        )
        .expect("an authorization request");
        let pairs: std::collections::HashMap<_, _> =
            pending.url.query_pairs().into_owned().collect();
        assert_eq!(pairs["response_type"], "code");
        assert_eq!(pairs["code_challenge_method"], "S256");
        assert!(!pairs["code_challenge"].is_empty());
        assert_eq!(pairs["resource"], "http://localhost:3000");
        assert_eq!(pairs["scope"], "mcp:basic mcp:write");
        assert_eq!(pairs["redirect_uri"], "http://localhost:3000/callback");
        let back = AuthorizationResponse::from_query(&format!("code=c&state={}", pairs["state"]));
        let code = |response: &AuthorizationResponse| {
            response
                .code(pending.state(), &metadata, "the server")
                .map(str::to_owned)
        };
        assert_eq!(code(&back).expect("its state"), "c");
        for other in ["code=c&state=x", "code=c"] {
            let error = code(&AuthorizationResponse::from_query(other)).expect_err("not its state");
            assert!(
                error.to_string().contains("this sign-in's state"),
                "{error}"
            );
        }
        let refused = AuthorizationResponse::from_query(&format!(
            "error=access_denied&error_description=no&state={}",
            pairs["state"]
        ));
        let error = code(&refused).expect_err("refused");
        assert!(
            error
                .to_string()
                .contains("the server answered access_denied: no"),
            "{error}"
        );
    }

    #[test]
    fn no_scope_parameter_without_scopes() {
        let metadata = AuthorizationServerMetadata::default_endpoints("http://localhost:4000");
        let pending = start(
            &client(TokenEndpointAuth::None),
            &metadata,
            "http://localhost:3000/callback",
            &[],
            "http://localhost:3000/mcp",
        )
        .expect("an authorization request");
        assert!(pending.url.query_pairs().all(|(k, _)| k != "scope"));
    }

    #[test]
    fn the_redirect_query_is_form_decoded() {
        let r = AuthorizationResponse::from_query(
            "code=abc&state=s&iss=http%3A%2F%2Flocalhost%3A4000%2F&error_description=a+b",
        );
        assert_eq!(r.code.as_deref(), Some("abc"));
        assert_eq!(r.iss.as_deref(), Some("http://localhost:4000/"));
        assert_eq!(r.error_description.as_deref(), Some("a b"));
    }
}
