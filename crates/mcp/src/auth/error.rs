//! Why authorization did not succeed: the error every step of the OAuth flow returns.

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
