//! OAuth 2.1 authorization for HTTP MCP servers, client side (2025-11-25 and 2026-07-28
//! basic/authorization). An HTTP transport holds an [`Authorizer`]: it puts the bearer token on
//! every request and, on a 401 or a 403 `insufficient_scope`, discovers the authorization server,
//! registers, runs the authorization code flow with PKCE and retries.
//!
//! Files, one job each: [`challenge`] parses `WWW-Authenticate`; [`well_known`] builds metadata
//! URLs; [`resource`] checks and forms the RFC 8707 resource; [`metadata`] fetches the documents;
//! [`discovery`] puts them together; [`registration`] gets a client id; [`scope`] chooses scopes;
//! [`iss`] validates RFC 9207 issuers; [`code_flow`] runs the grant over the oauth2 crate;
//! [`machine_grant`] gets tokens without a person (client credentials, JWT bearer, enterprise-
//! managed), [`idp`] signs a person in at an enterprise identity provider (OpenID Connect), and
//! [`client_assertion`] signs `private_key_jwt` assertions; [`dpop`] makes RFC 9449 proofs;
//! [`store`] and [`prompt`] are the seams the host implements (keyring, browser).
//!
//! Secrets (tokens, client secrets) are [`Sensitive`](crate::Sensitive) strings: no `Debug`, log line or error shows them.

pub mod authorizer;
pub mod challenge;
pub mod client_assertion;
pub mod code_flow;
pub mod config;
pub mod discovery;
pub mod dpop;
pub mod http_client;
pub mod idp;
pub mod iss;
pub mod machine_grant;
pub mod metadata;
pub mod prompt;
pub mod registration;
pub mod resource;
pub mod scope;
pub mod store;
pub mod well_known;

pub use authorizer::{AccessToken, Authorizer};
pub use config::AuthConfig;
pub use idp::{IdpClient, IdpSession};
pub use machine_grant::{GrantSource, MachineGrant};
pub use prompt::{AuthorizationPrompt, HeadlessPrompt};
pub use store::{ClientCredentials, MemoryTokenStore, TokenEndpointAuth, TokenStore, Tokens};

/// Why authorization did not succeed. No variant carries a token or a client secret.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AuthError {
    /// A person has to authorize, and this connection has no way to ask one.
    #[error(
        "the server requires authorization and this connection cannot ask anyone to sign in; \
         sign in to it from the Gatehouse app or with `gatehouse auth login <server>`"
    )]
    NeedsUser,
    /// The server wants scopes the kept token lacks (403 `insufficient_scope`), and this
    /// connection has no way to ask a person to grant them. The scopes are kept with the tokens
    /// for the next sign-in.
    #[error(
        "the server asks for scope `{scopes}`, which the kept token lacks, and this connection \
         cannot ask anyone to sign in; sign in to it again from the Gatehouse app or with \
         `gatehouse auth login <server>` to grant it"
    )]
    NeedsUserForScopes { scopes: String },
    /// Protected Resource Metadata describes another resource (RFC 9728 §7.3).
    #[error(
        "the resource metadata at {metadata_url} is for `{resource}`, not for {server}; \
         not authorizing"
    )]
    ResourceMismatch {
        metadata_url: String,
        resource: String,
        server: String,
    },
    /// Authorization server metadata claims another issuer (RFC 8414 §3.3).
    #[error(
        "the authorization server metadata at {metadata_url} claims issuer `{claimed}` but was \
         looked up for `{expected}`; not using it"
    )]
    IssuerMismatch {
        metadata_url: String,
        claimed: String,
        expected: String,
    },
    #[error("authorization server discovery failed: {0}")]
    Discovery(String),
    #[error("cannot register with authorization server {issuer}: {detail}")]
    Registration { issuer: String, detail: String },
    /// The authorization step failed or its answer was refused (state, `iss`, an error).
    #[error("authorization failed: {0}")]
    Authorization(String),
    #[error("getting a token failed: {0}")]
    Token(String),
    /// The client's own credential for a grant without a person is not usable (a workload
    /// identity token file that is missing, unreadable or empty).
    #[error("{0}")]
    Credential(String),
    #[error("the token store failed: {0}")]
    Store(String),
    #[error("{0}")]
    Http(String),
}
