//! The arguments of `gatehouse server`: `add` (a stdio or an HTTP server, its environment,
//! headers, secrets, sign-in and roots), `list`, `remove`, `enable` and `disable`, and the
//! parsers of their values (`--env`, `--secret-env`, `--header`, `--transport`, grace periods).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use gatehouse_host::{EnvVar, HttpHeader, ServerTransport};

#[derive(Debug, Subcommand)]
pub enum ServerCommand {
    /// Add a stdio server (--command) or an HTTP server (--url)
    Add(Box<AddArgs>),
    /// List configured servers
    List {
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Remove a server
    Remove { name: String },
    /// Enable a server
    Enable { name: String },
    /// Disable a server
    Disable { name: String },
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["command", "url"])))]
pub struct AddArgs {
    /// A unique name (letters, digits, `-`, `_`, `.`)
    pub name: String,

    /// The program to start (stdio server)
    #[arg(long, value_name = "CMD", conflicts_with_all = ["url", "transport", "headers", "secret_headers", "oauth_issuer", "oauth_client_id", "oauth_client_secret", "oauth_client_metadata_url", "oauth_grant", "oauth_private_key_file", "oauth_assertion_file", "idp_issuer", "idp_client_id", "idp_client_secret"])]
    pub command: Option<String>,
    /// An argument for the program; repeat for more
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// An environment variable KEY=VALUE; repeat for more
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = parse_env)]
    pub env: Vec<EnvVar>,
    /// A secret environment variable KEY=VALUE, or KEY to take the value from this shell's
    /// environment; kept in the OS keyring, never in the database
    #[arg(long = "secret-env", value_name = "KEY[=VALUE]", value_parser = parse_secret_env)]
    pub secret_env: Vec<EnvVar>,
    /// The working directory (made absolute)
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Seconds a stop waits after closing the server's stdin before SIGTERM (default 2)
    #[arg(long, value_name = "SECS", value_parser = parse_grace_ms)]
    pub stop_grace: Option<u32>,
    /// Seconds a stop waits after SIGTERM before SIGKILL (default 3)
    #[arg(long, value_name = "SECS", value_parser = parse_grace_ms)]
    pub term_grace: Option<u32>,

    /// The server's URL (HTTP server)
    #[arg(long, value_name = "URL", conflicts_with_all = ["args", "env", "secret_env", "cwd", "stop_grace", "term_grace"])]
    pub url: Option<String>,
    /// auto, streamable-http or sse
    #[arg(long, value_name = "TRANSPORT", value_parser = parse_transport)]
    pub transport: Option<ServerTransport>,
    /// An HTTP header 'Name: value'; repeat for more
    #[arg(long = "header", value_name = "'NAME: VALUE'", value_parser = parse_header)]
    pub headers: Vec<HttpHeader>,

    /// A secret HTTP header 'Name: value', or 'Name' to take the value from the environment
    /// variable GATEHOUSE_HEADER_VALUE; kept in the OS keyring, never in the database
    #[arg(long = "secret-header", value_name = "'NAME[: VALUE]'", value_parser = parse_secret_header)]
    pub secret_headers: Vec<HttpHeader>,

    /// OAuth: the issuer URL of the authorization server a pre-registered client belongs to
    #[arg(long, value_name = "URL", requires = "oauth_client_id")]
    pub oauth_issuer: Option<String>,
    /// OAuth: the id of a client registered beforehand with that authorization server (instead
    /// of Gatehouse registering itself)
    #[arg(long, value_name = "ID", requires = "oauth_issuer")]
    pub oauth_client_id: Option<String>,
    /// OAuth: that client's secret is in the environment variable GATEHOUSE_OAUTH_CLIENT_SECRET
    /// (kept in the OS keyring, never in the database)
    #[arg(long, requires = "oauth_client_id")]
    pub oauth_client_secret: bool,
    /// OAuth: the HTTPS URL of Gatehouse's Client ID Metadata Document, used as its client id
    /// where the authorization server supports them
    #[arg(long, value_name = "URL")]
    pub oauth_client_metadata_url: Option<String>,
    /// OAuth: how tokens are obtained: `authorization-code` (the default: a person signs in),
    /// `client-credentials` (the pre-registered client's own credentials), `jwt-bearer` (a
    /// workload's JWT from --oauth-assertion-file), or `enterprise-managed` (the person signs in
    /// once at the identity provider --idp-issuer, whose ID token is exchanged for the tokens)
    #[arg(long, value_enum, value_name = "GRANT", requires = "oauth_client_id")]
    pub oauth_grant: Option<OAuthGrantArg>,
    /// OAuth: the client's ES256 private key (PEM file) for `private_key_jwt` with
    /// `--oauth-grant client-credentials`; kept in the OS keyring, never in the database
    #[arg(long, value_name = "PEM", requires = "oauth_grant")]
    pub oauth_private_key_file: Option<std::path::PathBuf>,
    /// OAuth: the file holding the workload's JWT for `--oauth-grant jwt-bearer` (workload
    /// identity; e.g. a Kubernetes projected token); read afresh whenever tokens are requested
    #[arg(long, value_name = "PATH", requires = "oauth_grant")]
    pub oauth_assertion_file: Option<std::path::PathBuf>,
    /// OAuth: the issuer URL of the enterprise identity provider (OpenID Connect) for
    /// `--oauth-grant enterprise-managed`
    #[arg(long, value_name = "URL", requires_all = ["oauth_grant", "idp_client_id"])]
    pub idp_issuer: Option<String>,
    /// OAuth: Gatehouse's client id at that identity provider
    #[arg(long, value_name = "ID", requires = "idp_issuer")]
    pub idp_client_id: Option<String>,
    /// OAuth: that client's secret at the identity provider is in the environment variable
    /// GATEHOUSE_IDP_CLIENT_SECRET (kept in the OS keyring, never in the database)
    #[arg(long, requires = "idp_client_id")]
    pub idp_client_secret: bool,

    /// A directory the server may work in (an MCP root); repeat for more
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<std::path::PathBuf>,

    /// Add the server disabled
    #[arg(long)]
    pub disabled: bool,
}

/// `--stop-grace`, `--term-grace`: seconds, zero or more, fractions allowed, as milliseconds.
fn parse_grace_ms(raw: &str) -> Result<u32, String> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .and_then(|d| u32::try_from(d.as_millis()).ok())
        .ok_or_else(|| format!("`{raw}` is not a number of seconds"))
}

fn parse_env(raw: &str) -> Result<EnvVar, String> {
    match raw.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok(EnvVar {
            key: key.to_owned(),
            value: value.to_owned(),
            secret: false,
        }),
        _ => Err(format!("`{raw}` is not KEY=VALUE")),
    }
}

/// `KEY=VALUE`, or `KEY` with the value from this process's environment, so that the secret
/// need not appear on the command line (and in shell history).
fn parse_secret_env(raw: &str) -> Result<EnvVar, String> {
    let (key, value) = match raw.split_once('=') {
        Some((key, value)) => (key, value.to_owned()),
        None => (
            raw,
            std::env::var(raw).map_err(|_| format!("`{raw}` is not set in the environment"))?,
        ),
    };
    if key.is_empty() || value.is_empty() {
        return Err(format!("`{raw}` needs a name and a non-empty value"));
    }
    Ok(EnvVar {
        key: key.to_owned(),
        value,
        secret: true,
    })
}

/// How an HTTP server's OAuth tokens are obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OAuthGrantArg {
    AuthorizationCode,
    ClientCredentials,
    JwtBearer,
    EnterpriseManaged,
}

/// The environment variable holding the client secret of `--oauth-client-secret`.
pub const OAUTH_CLIENT_SECRET_ENV: &str = "GATEHOUSE_OAUTH_CLIENT_SECRET";

/// The environment variable holding the identity provider client secret of
/// `--idp-client-secret`.
pub const IDP_CLIENT_SECRET_ENV: &str = "GATEHOUSE_IDP_CLIENT_SECRET";

/// The environment variable holding the value of a `--secret-header` given without one.
pub const HEADER_VALUE_ENV: &str = "GATEHOUSE_HEADER_VALUE";

fn parse_secret_header(raw: &str) -> Result<HttpHeader, String> {
    let (name, value) = match raw.split_once(':') {
        Some((name, value)) => (name.trim(), value.trim().to_owned()),
        None => (
            raw.trim(),
            std::env::var(HEADER_VALUE_ENV)
                .map_err(|_| format!("`{raw}` has no value and {HEADER_VALUE_ENV} is not set"))?,
        ),
    };
    if name.is_empty() || value.is_empty() {
        return Err(format!("`{raw}` needs a name and a non-empty value"));
    }
    Ok(HttpHeader {
        name: name.to_owned(),
        value,
        secret: true,
    })
}

fn parse_header(raw: &str) -> Result<HttpHeader, String> {
    match raw.split_once(':') {
        Some((name, value)) if !name.trim().is_empty() => Ok(HttpHeader {
            name: name.trim().to_owned(),
            value: value.trim().to_owned(),
            secret: false,
        }),
        _ => Err(format!("`{raw}` is not 'Name: value'")),
    }
}

fn parse_transport(raw: &str) -> Result<ServerTransport, String> {
    raw.parse()
}
