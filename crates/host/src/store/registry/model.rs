//! The server configuration types, as stored and as they cross the IPC boundary.

use serde::{Deserialize, Serialize};

pub use crate::running::stop_grace::StopGrace;

/// Which HTTP transport to use for a URL server.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ServerTransport {
    /// Streamable HTTP first, falling back to HTTP+SSE as the 2025-11-25 spec describes.
    #[default]
    Auto,
    StreamableHttp,
    Sse,
}

impl ServerTransport {
    pub fn as_str(self) -> &'static str {
        match self {
            ServerTransport::Auto => "auto",
            ServerTransport::StreamableHttp => "streamable-http",
            ServerTransport::Sse => "sse",
        }
    }
}

impl std::str::FromStr for ServerTransport {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(ServerTransport::Auto),
            "streamable-http" => Ok(ServerTransport::StreamableHttp),
            "sse" => Ok(ServerTransport::Sse),
            other => Err(format!(
                "unknown transport `{other}`: use auto, streamable-http or sse"
            )),
        }
    }
}

/// One environment variable for a stdio server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EnvVar {
    pub key: String,
    /// Empty for a secret read back from the registry: the value is only in the OS keyring.
    pub value: String,
    /// Kept in the OS keyring, never in the database.
    pub secret: bool,
}

/// One extra HTTP header sent to a URL server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HttpHeader {
    pub name: String,
    /// Empty for a secret read back from the registry: the value is only in the OS keyring.
    pub value: String,
    /// Kept in the OS keyring, never in the database.
    pub secret: bool,
}

/// The OAuth client Gatehouse presents to an HTTP server's authorization server, when it is
/// not to register itself dynamically (2025-11-25 basic/authorization, "Client Registration
/// Approaches"): a client registered beforehand with one issuer, or the HTTPS URL of a Client
/// ID Metadata Document. Everything is optional; stored in the server's JSON spec, the secret
/// in the OS keyring only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct OAuthClientSettings {
    /// The issuer URL of the authorization server the client is registered with; the
    /// credentials are used with no other.
    #[serde(default)]
    pub issuer: Option<String>,
    /// The client id it gave.
    #[serde(default)]
    pub client_id: Option<String>,
    /// The client secret of a confidential client: kept in the OS keyring, blank as stored
    /// and read back; blank on edit keeps the one kept.
    #[serde(default)]
    pub client_secret: Option<String>,
    /// The HTTPS URL of the client's metadata document, used as its `client_id` where the
    /// authorization server supports them.
    #[serde(default)]
    pub client_metadata_url: Option<String>,
    /// How tokens are obtained: a person signing in (the default), or the client's own
    /// credentials with no person (the OAuth client credentials extension).
    #[serde(default)]
    pub grant: OAuthGrant,
    /// For `clientCredentials` with `private_key_jwt`: the client's ES256 private key (PEM),
    /// kept in the OS keyring like the secret, blank as stored.
    #[serde(default)]
    pub private_key: Option<String>,
    /// For `jwtBearer` (workload identity): the absolute path of the file holding the
    /// workload's JWT (a Kubernetes projected service account token, a CI OIDC token). Read
    /// afresh each time tokens are requested, since such tokens rotate; only the path is stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assertion_file: Option<String>,
    /// For `enterpriseManaged`: the issuer URL of the enterprise identity provider (OpenID
    /// Connect), where the person signs in once for every server that uses it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idp_issuer: Option<String>,
    /// For `enterpriseManaged`: Gatehouse's client id at the identity provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idp_client_id: Option<String>,
    /// For `enterpriseManaged`: the client secret at the identity provider, if it is a
    /// confidential client; kept in the OS keyring like the client secret, blank as stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idp_client_secret: Option<String>,
}

/// How an HTTP server's OAuth tokens are obtained.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum OAuthGrant {
    /// The authorization code flow: a person signs in through the browser.
    #[default]
    AuthorizationCode,
    /// The client credentials grant (extensions/auth, "OAuth Client Credentials"): the
    /// pre-registered client authenticates with its secret or its private key; nobody signs in.
    ClientCredentials,
    /// The RFC 7523 JWT-bearer grant with a workload's own JWT (workload identity federation,
    /// extensions/auth, "OAuth Client Credentials"): nobody signs in.
    JwtBearer,
    /// Enterprise-managed authorization (extensions/auth/enterprise-managed-authorization): the
    /// person signs in once at the enterprise identity provider; its ID token is exchanged for
    /// an ID-JAG there, and that for the server's tokens, with no sign-in at the server's
    /// authorization server.
    EnterpriseManaged,
}

impl OAuthGrant {
    /// The CLI's and the status's name of the grant.
    pub fn as_str(self) -> &'static str {
        match self {
            OAuthGrant::AuthorizationCode => "authorization-code",
            OAuthGrant::ClientCredentials => "client-credentials",
            OAuthGrant::JwtBearer => "jwt-bearer",
            OAuthGrant::EnterpriseManaged => "enterprise-managed",
        }
    }
}

impl OAuthClientSettings {
    /// Nothing set: Gatehouse registers itself.
    pub fn is_empty(&self) -> bool {
        self.issuer.is_none()
            && self.client_id.is_none()
            && self.client_secret.is_none()
            && self.client_metadata_url.is_none()
            && self.grant == OAuthGrant::AuthorizationCode
            && self.private_key.is_none()
            && self.assertion_file.is_none()
            && self.idp_issuer.is_none()
            && self.idp_client_id.is_none()
            && self.idp_client_secret.is_none()
    }
}

/// How to reach a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ServerSpec {
    /// A local process speaking MCP on stdin/stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<EnvVar>,
        cwd: Option<String>,
        /// How long a stop waits at each step.
        #[serde(default)]
        stop: StopGrace,
    },
    /// A remote server reached over HTTP.
    Http {
        url: String,
        transport: ServerTransport,
        headers: Vec<HttpHeader>,
        /// The OAuth client to present, if not a dynamically registered one.
        #[serde(default, skip_serializing_if = "OAuthClientSettings::is_empty")]
        oauth: OAuthClientSettings,
    },
}

impl ServerSpec {
    /// A spec as the database holds it, from any build: the first builds stored env variables
    /// and headers before they had a `secret` flag, so a missing one reads as a plain value.
    pub(crate) fn from_stored(text: &str) -> serde_json::Result<ServerSpec> {
        let mut value: serde_json::Value = serde_json::from_str(text)?;
        for list in ["env", "headers"] {
            let entries = value.get_mut(list).and_then(|v| v.as_array_mut());
            for entry in entries.into_iter().flatten() {
                if let Some(entry) = entry.as_object_mut() {
                    entry
                        .entry("secret")
                        .or_insert(serde_json::Value::Bool(false));
                }
            }
        }
        serde_json::from_value(value)
    }

    /// `stdio` or `http`, as stored in the `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerSpec::Stdio { .. } => "stdio",
            ServerSpec::Http { .. } => "http",
        }
    }

    /// A one-line description: the command line or the URL.
    pub fn summary(&self) -> String {
        match self {
            ServerSpec::Stdio { command, args, .. } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            ServerSpec::Http { url, .. } => url.clone(),
        }
    }

    /// How long stopping the server may take: both waits of a stdio server, nothing for HTTP.
    pub fn stop_grace(&self) -> StopGrace {
        match self {
            ServerSpec::Stdio { stop, .. } => *stop,
            ServerSpec::Http { .. } => StopGrace {
                stdin_ms: 0,
                term_ms: 0,
            },
        }
    }
}

/// What a user submits to add or edit a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ServerInput {
    pub name: String,
    pub enabled: bool,
    /// Directories the server may work in, as absolute paths or `file://` URIs (MCP roots).
    pub roots: Vec<String>,
    pub spec: ServerSpec,
}

/// A stored server configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerConfig {
    pub id: String,
    pub name: String,
    pub enabled: bool,
    /// The server's roots as `file://` URIs.
    pub roots: Vec<String>,
    pub spec: ServerSpec,
    pub created_at: String,
    pub updated_at: String,
}
