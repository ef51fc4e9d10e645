//! Signing in at an enterprise identity provider with OpenID Connect, the first half of
//! enterprise-managed authorization (extensions/auth/enterprise-managed-authorization, "Single
//! Sign-On": the client signs the person in at the IdP and keeps the ID token; the IdP's
//! endpoints are organization configuration, never found through the MCP server).
//!
//! [`discover`] reads the IdP's OpenID Connect Discovery document
//! (`<issuer>/.well-known/openid-configuration`: issuer exact, endpoints `https` or loopback);
//! [`sign_in`] runs the authorization code flow with PKCE S256, `state` and `nonce` through an
//! [`AuthorizationPrompt`] with scope `openid` and checks the ID token's claims (`iss`, `aud`,
//! `nonce`, `exp`); [`refresh`] gets a new ID token with a refresh token. The ID token's
//! signature is not checked: it comes straight from the token endpoint over TLS (OpenID Connect
//! Core §3.1.3.7, item 6), and the client only passes it on to the IdP itself in the token
//! exchange ([`super::MachineGrant::EnterpriseManaged`]).

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use oauth2::{CsrfToken, PkceCodeChallenge};
use serde::{Deserialize, Serialize};
use url::Url;

use super::code_flow::AuthorizationResponse;
use super::machine_grant::request;
use super::metadata::{self, AuthorizationServerMetadata, Fetched};
use super::prompt::AuthorizationPrompt;
use super::store::{optional_secret_json, secret_json};
use super::{AuthError, discovery};
use crate::Sensitive;

/// How long before its expiry an ID token is taken as expired, so the exchange does not race
/// it (at most half the token's life).
const EXPIRY_MARGIN_SECS: u64 = 30;

/// The client Gatehouse is at the identity provider.
#[derive(Debug, Clone)]
pub struct IdpClient {
    /// The IdP's issuer identifier, compared exactly.
    pub issuer: String,
    pub client_id: String,
    /// A confidential client's secret, sent with HTTP Basic.
    pub client_secret: Option<Sensitive<String>>,
}

/// What a sign-in at the IdP leaves: the ID token (and a refresh token if the IdP gave one),
/// kept to be exchanged for ID-JAGs while it is valid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdpSession {
    #[serde(with = "secret_json")]
    pub id_token: Sensitive<String>,
    #[serde(default, with = "optional_secret_json")]
    pub refresh_token: Option<Sensitive<String>>,
    /// The ID token's `exp`, in seconds since the Unix epoch.
    pub expires_at: u64,
    /// When it was received, in seconds since the Unix epoch.
    #[serde(default)]
    pub received_at: u64,
    pub issuer: String,
    pub client_id: String,
    /// The ID token's `sub`, for showing who is signed in.
    #[serde(default)]
    pub subject: Option<String>,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}

impl IdpSession {
    /// Whether the ID token has expired (or is about to).
    pub fn expired(&self) -> bool {
        let life = self.expires_at.saturating_sub(self.received_at);
        let margin = EXPIRY_MARGIN_SECS.min(life / 2);
        self.expires_at <= now().saturating_add(margin)
    }
}

/// The IdP's endpoints, from its OpenID Connect Discovery document.
pub async fn discover(
    http: &reqwest::Client,
    issuer: &str,
) -> Result<AuthorizationServerMetadata, AuthError> {
    let url = format!(
        "{}/.well-known/openid-configuration",
        issuer.trim_end_matches('/')
    );
    match metadata::fetch::<AuthorizationServerMetadata>(http, &url).await {
        Fetched::Found(found) => discovery::checked(found, issuer, &url),
        Fetched::Absent(status) => Err(AuthError::Discovery(format!(
            "the identity provider {issuer} has no OpenID Connect configuration at {url} \
             (HTTP {status}); check its issuer URL"
        ))),
        Fetched::Failed(problem) => Err(AuthError::Discovery(format!(
            "cannot read the identity provider's configuration: {problem}"
        ))),
    }
}

/// Signs the person in at the IdP through `prompt` (OpenID Connect Core §3.1, with PKCE).
pub async fn sign_in(
    http: &reqwest::Client,
    idp: &IdpClient,
    prompt: &dyn AuthorizationPrompt,
) -> Result<IdpSession, AuthError> {
    let metadata = discover(http, &idp.issuer).await?;
    let redirect_uri = prompt.redirect_uri();
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let state = CsrfToken::new_random();
    let nonce = CsrfToken::new_random();
    let mut url = Url::parse(&metadata.authorization_endpoint).map_err(|e| {
        AuthError::Discovery(format!(
            "the identity provider's authorization endpoint is invalid: {e}"
        ))
    })?;
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &idp.client_id)
        .append_pair("redirect_uri", redirect_uri)
        .append_pair("scope", "openid")
        .append_pair("state", state.secret())
        .append_pair("nonce", nonce.secret())
        .append_pair("code_challenge", challenge.as_str())
        .append_pair("code_challenge_method", "S256");
    let query = prompt.authorize(&url).await?;
    let response = AuthorizationResponse::from_query(&query);
    let code = response.code(state.secret(), &metadata, "the identity provider")?;
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", redirect_uri),
        ("client_id", idp.client_id.as_str()),
        ("code_verifier", verifier.secret().as_str()),
    ];
    tokens(
        http,
        idp,
        &metadata.token_endpoint,
        &form,
        Some(nonce.secret()),
    )
    .await
}

/// A new ID token for `session` with its refresh token (OpenID Connect Core §12).
pub async fn refresh(
    http: &reqwest::Client,
    idp: &IdpClient,
    session: &IdpSession,
) -> Result<IdpSession, AuthError> {
    let refresh_token = session
        .refresh_token
        .as_ref()
        .ok_or_else(|| AuthError::Token("no refresh token from the identity provider".into()))?;
    let metadata = discover(http, &idp.issuer).await?;
    let form = [
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh_token.expose().as_str()),
        ("client_id", idp.client_id.as_str()),
        ("scope", "openid"),
    ];
    let mut fresh = tokens(http, idp, &metadata.token_endpoint, &form, None).await?;
    // RFC 6749 §6: without a new refresh token the old one stays valid.
    if fresh.refresh_token.is_none() {
        fresh.refresh_token = session.refresh_token.clone();
    }
    Ok(fresh)
}

/// Posts `form` to the IdP's token endpoint and reads the ID token from the answer.
async fn tokens(
    http: &reqwest::Client,
    idp: &IdpClient,
    endpoint: &str,
    form: &[(&str, &str)],
    nonce: Option<&String>,
) -> Result<IdpSession, AuthError> {
    let basic = idp
        .client_secret
        .as_ref()
        .map(|secret| (idp.client_id.as_str(), secret.expose().as_str()));
    let (status, answer) = request(http, endpoint, form, basic).await?;
    if !status.is_success() || answer.id_token.is_none() {
        if status.is_success() {
            return Err(AuthError::Token(format!(
                "the identity provider's token endpoint {endpoint} gave no ID token"
            )));
        }
        return Err(answer.refusal(endpoint, status));
    }
    let refresh_token = answer.refresh_token.map(Sensitive::new);
    let id_token = Sensitive::new(answer.id_token.unwrap_or_default());
    let claims = check_claims(&id_token, idp, nonce.map(String::as_str))?;
    Ok(IdpSession {
        id_token,
        refresh_token,
        expires_at: claims.exp,
        received_at: now(),
        issuer: idp.issuer.clone(),
        client_id: idp.client_id.clone(),
        subject: claims.sub,
    })
}

#[derive(Deserialize)]
struct Claims {
    iss: String,
    aud: Audience,
    exp: u64,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    sub: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

/// The ID token's claims, checked (OpenID Connect Core §3.1.3.7: `iss`, `aud`, `exp`, and
/// `nonce` when one was sent).
fn check_claims(
    id_token: &Sensitive<String>,
    idp: &IdpClient,
    nonce: Option<&str>,
) -> Result<Claims, AuthError> {
    let refused = |why: &str| AuthError::Authorization(format!("the ID token is refused: {why}"));
    let payload = id_token
        .expose()
        .split('.')
        .nth(1)
        .ok_or_else(|| refused("it is not a JWT"))?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| refused("its payload is not base64url"))?;
    let claims: Claims =
        serde_json::from_slice(&bytes).map_err(|e| refused(&format!("its claims: {e}")))?;
    if claims.iss != idp.issuer {
        return Err(refused(&format!(
            "it was issued by `{}`, not `{}`",
            claims.iss, idp.issuer
        )));
    }
    let for_us = match &claims.aud {
        Audience::One(aud) => aud == &idp.client_id,
        Audience::Many(auds) => auds.iter().any(|a| a == &idp.client_id),
    };
    if !for_us {
        return Err(refused(&format!(
            "its audience is not client `{}`",
            idp.client_id
        )));
    }
    if let Some(nonce) = nonce
        && claims.nonce.as_deref() != Some(nonce)
    {
        return Err(refused("its nonce is not this sign-in's"));
    }
    if claims.exp <= now() {
        return Err(refused("it has already expired"));
    }
    Ok(claims)
}

/// The `exp` of a JWT, in seconds since the Unix epoch, if it has one (no other check).
pub fn expiry(jwt: &str) -> Option<u64> {
    let payload = jwt.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()?
        .get("exp")?
        .as_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwt(claims: serde_json::Value) -> Sensitive<String> {
        let encode = |v: &serde_json::Value| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
        };
        Sensitive::new(format!(
            "{}.{}.sig",
            encode(&serde_json::json!({"alg": "RS256"})),
            encode(&claims)
        ))
    }

    fn idp() -> IdpClient {
        IdpClient {
            issuer: "https://idp.example".into(),
            client_id: "gatehouse".into(),
            client_secret: None,
        }
    }

    #[test]
    fn id_token_claims_are_checked() {
        let exp = now() + 600;
        let good = serde_json::json!({"iss": "https://idp.example", "aud": ["x", "gatehouse"],
            "exp": exp, "nonce": "n1", "sub": "alice"});
        let claims = check_claims(&jwt(good.clone()), &idp(), Some("n1")).expect("valid");
        assert_eq!(claims.sub.as_deref(), Some("alice"));
        assert_eq!(expiry(jwt(good.clone()).expose()), Some(exp));
        let refused = |claims: serde_json::Value, nonce| {
            check_claims(&jwt(claims), &idp(), nonce)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        let mut other = good.clone();
        other["iss"] = "https://evil.example".into();
        assert!(refused(other, Some("n1")).contains("issued by"));
        let mut other = good.clone();
        other["aud"] = "someone-else".into();
        assert!(refused(other, Some("n1")).contains("audience"));
        assert!(refused(good.clone(), Some("n2")).contains("nonce"));
        let mut other = good;
        other["exp"] = (now() - 1).into();
        assert!(refused(other, None).contains("expired"));
        assert!(
            check_claims(&Sensitive::new("opaque".into()), &idp(), None)
                .is_err_and(|e| e.to_string().contains("not a JWT"))
        );
    }
}
