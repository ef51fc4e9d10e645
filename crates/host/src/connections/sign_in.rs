//! Signing in to an HTTP server protected by OAuth: what the engine knows about a server's sign-in
//! ([`AuthStatus`], never the tokens), signing in through a person's browser ([`Host::sign_in`]
//! with an [`AuthorizationPrompt`](gatehouse_mcp::auth::AuthorizationPrompt) such as
//! [`crate::LoopbackPrompt`]) and signing out. Tokens live only in the keyring
//! ([`crate::store::secrets::oauth`]); each sign-in and sign-out is a `connection` row in the audit
//! log with the issuer and scopes, no token.
//!
//! For a server with enterprise-managed authorization the person signs in at the enterprise
//! identity provider instead (OpenID Connect through the same prompt), and that sign-in is kept
//! per IdP, so one sign-in serves every server using that IdP; the server's tokens then come
//! from exchanging its ID token, with no browser at the server's authorization server
//! (extensions/auth/enterprise-managed-authorization).
//!
//! [`AuthStatus`] says whether the server is signed in, the issuer, the scopes, the expiry, whether
//! the tokens can be refreshed and the grant, and for an enterprise-managed server the IdP and
//! whether its sign-in is kept; never a token.

use gatehouse_mcp::auth::Tokens;
use serde::{Deserialize, Serialize};

use crate::store::registry::model::OAuthGrant;

/// What the engine knows about a server's sign-in; never the tokens themselves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AuthStatus {
    /// Tokens are kept for this server.
    pub signed_in: bool,
    /// The authorization server that issued them.
    pub issuer: Option<String>,
    /// The scopes granted (or requested).
    pub scopes: Vec<String>,
    /// When the access token expires, RFC 3339 UTC, if the server said.
    pub expires_at: Option<String>,
    /// A refresh token is kept, so the sign-in outlives the access token.
    pub refreshable: bool,
    /// How the server's tokens are obtained: `authorization-code`, `client-credentials`,
    /// `jwt-bearer` or `enterprise-managed`.
    pub grant: String,
    /// Enterprise-managed: the identity provider the person signs in at.
    pub idp_issuer: Option<String>,
    /// Enterprise-managed: a sign-in at that identity provider is kept that can still be used
    /// (its ID token is valid, or it can be refreshed).
    pub idp_signed_in: Option<bool>,
}

impl AuthStatus {
    pub(crate) fn of(tokens: Option<&Tokens>) -> Self {
        match tokens {
            None => AuthStatus {
                signed_in: false,
                issuer: None,
                scopes: Vec::new(),
                expires_at: None,
                refreshable: false,
                grant: OAuthGrant::AuthorizationCode.as_str().to_owned(),
                idp_issuer: None,
                idp_signed_in: None,
            },
            Some(tokens) => AuthStatus {
                signed_in: true,
                issuer: Some(tokens.issuer.clone()),
                scopes: tokens.scopes.clone(),
                expires_at: tokens.expires_at.map(|at| {
                    crate::running::server_logs::clock::format_ms(at.saturating_mul(1000))
                        .replace(".000Z", "Z")
                }),
                refreshable: tokens.refresh_token.is_some(),
                grant: OAuthGrant::AuthorizationCode.as_str().to_owned(),
                idp_issuer: None,
                idp_signed_in: None,
            },
        }
    }
}
