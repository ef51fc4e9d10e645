//! OAuth 2.1 authorization for HTTP MCP servers, client side (2025-11-25 and 2026-07-28
//! basic/authorization), for both HTTP transports (Streamable HTTP and HTTP+SSE). An HTTP
//! transport holds an optional [`Authorizer`] (`HttpConfig::authorizer`): it puts the bearer
//! token on every request and, on a 401 or a 403 `insufficient_scope`, discovers the
//! authorization server, registers, runs the authorization code flow with PKCE over the `oauth2`
//! crate (checking the response's `iss`) and retries; it also steps up scopes, refreshes tokens
//! and follows a server that moved to another authorization server. [`TokenStore`] and
//! [`AuthorizationPrompt`] are the seams the host implements (see `docs/authorization.md`).
//!
//! Files, one job each: [`challenge`] parses `WWW-Authenticate`; [`well_known`] builds metadata
//! URLs; [`resource`] checks and forms the RFC 8707 resource; [`metadata`] fetches the documents;
//! [`discovery`] puts them together; [`registration`] gets a client id; [`scope`] chooses scopes;
//! [`iss`] validates RFC 9207 issuers; [`code_flow`] runs the grant over the oauth2 crate;
//! [`machine_grant`] gets tokens without a person (client credentials, JWT bearer, enterprise-
//! managed), [`idp`] signs a person in at an enterprise identity provider (OpenID Connect), and
//! [`client_assertion`] signs `private_key_jwt` assertions; [`dpop`] makes RFC 9449 proofs;
//! [`store`] and [`prompt`] are the seams the host implements (keyring, browser).
//! [`authorizer`] puts them together for one server, holding its tokens in [`kept_tokens`] and
//! asking the server for its challenge with [`probe`], and [`for_transport`] presents it to the
//! HTTP transports as their [`HttpAuthorizer`](crate::http_auth::HttpAuthorizer); [`error`] says
//! why authorization failed.
//!
//! Secrets (tokens, client secrets) are [`Sensitive`](crate::Sensitive) strings: no `Debug`, log line or error shows them.
//! Only [`Tokens`] and [`ClientCredentials`] (for a token store) and [`IdpSession`] (which the
//! host keeps in its keyring) serialize theirs.

pub mod authorizer;
pub mod challenge;
pub mod client_assertion;
pub mod code_flow;
pub mod config;
pub mod discovery;
pub mod dpop;
mod error;
mod for_transport;
pub mod http_client;
pub mod idp;
pub mod iss;
mod kept_tokens;
pub mod machine_grant;
pub mod metadata;
mod probe;
pub mod prompt;
pub mod registration;
pub mod resource;
pub mod scope;
pub mod store;
pub mod well_known;

pub use authorizer::{AccessToken, Authorizer};
pub use config::AuthConfig;
pub use error::AuthError;
pub use idp::{IdpClient, IdpSession};
pub use machine_grant::{GrantSource, MachineGrant};
pub use prompt::{AuthorizationPrompt, HeadlessPrompt};
pub use store::{ClientCredentials, MemoryTokenStore, TokenEndpointAuth, TokenStore, Tokens};
