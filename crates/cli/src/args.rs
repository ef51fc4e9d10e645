//! The command line: every subcommand and flag of `gatehouse`. Usage errors (unknown flags,
//! missing or conflicting arguments, malformed `--env`/`--header`/`--transport`, `--args` that
//! is not a JSON object, a `--timeout` that is not a positive number) are reported by clap and
//! exit with status 2.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use gatehouse_host::{EnvVar, HttpHeader, ServerTransport};
use serde_json::{Map, Value};

#[derive(Debug, Parser)]
#[command(
    name = "gatehouse",
    version,
    about = "Gatehouse, the MCP host, headless"
)]
pub struct Cli {
    /// Data directory (default: $GATEHOUSE_DATA_DIR, else ~/.local/share/gatehouse)
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Manage server configurations
    #[command(subcommand)]
    Server(ServerCommand),
    /// The client for the official MCP conformance suite (reads MCP_CONFORMANCE_SCENARIO)
    ConformanceClient {
        /// The scenario server's URL
        url: String,
    },
    /// Connect to a server, list its tools and disconnect
    Tools {
        /// The server's name
        server: String,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Show what a server says about itself: transport, protocol, capabilities, instructions
    Info {
        /// The server's name
        server: String,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Call a tool and print its result (exit status 3 when the tool reports an error)
    Call(CallArgs),
    /// List a server's resources
    Resources {
        /// The server's name
        server: String,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// List a server's resource templates
    Templates {
        /// The server's name
        server: String,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Read a resource and print its contents
    Read {
        /// The server's name
        server: String,
        /// The resource's URI
        uri: String,
        /// Print JSON instead of the contents
        #[arg(long)]
        json: bool,
    },
    /// List a server's prompts and their arguments
    Prompts {
        /// The server's name
        server: String,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Get a prompt filled in with arguments and print its messages
    Prompt {
        /// The server's name
        server: String,
        /// The prompt's name
        name: String,
        /// The arguments, a JSON object of strings: '{"city": "Paris"}'
        #[arg(long, value_name = "JSON", value_parser = parse_prompt_arguments)]
        args: Option<BTreeMap<String, String>>,
        /// Print JSON instead of the messages
        #[arg(long)]
        json: bool,
    },
    /// Ask for completions of a prompt argument or a resource template variable
    Complete(CompleteArgs),
    /// Ping a server and print the round-trip time
    Ping {
        /// The server's name
        server: String,
    },
    /// Print a server's change notifications as they come (tool, prompt and resource lists,
    /// resource updates) until Ctrl-C
    Watch(WatchArgs),
    /// List the tool calls that ran as tasks on a server, newest first, with their status
    Tasks {
        /// The server's name
        server: String,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Print a server's stderr, as kept in its log files (redacted of its secrets); works
    /// while the app runs (no connection is made)
    Logs(LogsArgs),
    /// Read and check the audit log (no connection is made)
    #[command(subcommand)]
    Audit(crate::audit_args::AuditCommand),
    /// The policy: which calls are allowed, asked about or denied
    #[command(subcommand)]
    Policy(crate::policy_args::PolicyCommand),
    /// Standing grants made from approvals ("for this session", "for a time")
    #[command(subcommand)]
    Grants(GrantsCommand),
    /// Sign in to an HTTP server that requires OAuth, show its sign-in, or sign out
    #[command(subcommand)]
    Auth(AuthCommand),
    /// The outside sites MCP App views may reach: a block list, and an allow list that, once
    /// it has an entry, is all they may reach (no connection is made)
    #[command(subcommand, name = "app-sites")]
    AppSites(AppSitesCommand),
}

#[derive(Debug, Subcommand)]
pub enum AppSitesCommand {
    /// List both lists
    List {
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Let app views reach this domain and its subdomains, when they declare it; once the allow
    /// list has an entry, they reach nothing it does not cover
    Allow {
        /// A domain such as example.com (or a URL, whose host is taken)
        domain: String,
    },
    /// Never let app views reach this domain or its subdomains, whatever they declare
    Block {
        /// A domain such as example.com (or a URL, whose host is taken)
        domain: String,
    },
    /// Take a domain off whichever list it is on
    Remove {
        /// The domain, as `app-sites list` shows it
        domain: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Show whether Gatehouse is signed in to the server: issuer, scopes, expiry (never a token)
    Status {
        /// The server's name
        server: String,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Sign in through the browser: prints the sign-in page's URL to stderr (and opens it when
    /// a display is available), then waits for the browser to come back
    Login {
        /// The server's name
        server: String,
        /// Seconds to wait for the sign-in to be finished in the browser
        #[arg(long, default_value_t = 300, value_name = "SECONDS",
              value_parser = clap::value_parser!(u64).range(1..))]
        timeout: u64,
    },
    /// Delete the server's tokens from the keyring (the next connection needs a sign-in)
    Logout {
        /// The server's name
        server: String,
        /// Also forget the sign-in at the server's enterprise identity provider (every server
        /// using it then needs a sign-in again)
        #[arg(long)]
        idp: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum GrantsCommand {
    /// List the grants that still hold (no connection is made)
    List {
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Revoke a grant by its id: it covers nothing from now on, in any Gatehouse process
    Revoke {
        /// The grant's id, as `grants list` shows it
        id: String,
    },
}

#[derive(Debug, Args)]
pub struct LogsArgs {
    /// The server's name
    pub server: String,
    /// Keep printing new lines as they are written, until Ctrl-C
    #[arg(long, short = 'f')]
    pub follow: bool,
    /// How many of the last lines to print first
    #[arg(long, short = 'n', value_name = "N", default_value_t = 100)]
    pub lines: usize,
    /// Print one JSON object per line: {"time", "server", "line"}
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The server's name
    pub server: String,
    /// Also watch this resource for updates; repeat for more
    #[arg(long = "resource", value_name = "URI")]
    pub resources: Vec<String>,
    /// Stop after this many notifications
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,
    /// Print each notification as one JSON object per line
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// The server's name
    pub server: String,
    /// The tool's name
    pub tool: String,
    /// The arguments, a JSON object: '{"message": "hi"}'
    #[arg(long, value_name = "JSON", value_parser = parse_json_object)]
    pub args: Option<Map<String, Value>>,
    /// Seconds to wait for the result or the next progress update (default 60)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print the result as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("reference").required(true).args(["prompt", "template"])))]
pub struct CompleteArgs {
    /// The server's name
    pub server: String,
    /// Complete an argument of this prompt
    #[arg(long, value_name = "NAME")]
    pub prompt: Option<String>,
    /// Complete a variable of the resource template with this URI template
    #[arg(long, value_name = "URI_TEMPLATE")]
    pub template: Option<String>,
    /// The argument (or template variable) to complete
    pub argument: String,
    /// What has been typed so far (may be empty: '')
    #[arg(allow_hyphen_values = true)]
    pub prefix: String,
    /// An argument already chosen, NAME=VALUE, which may narrow the suggestions; repeat for more
    #[arg(long = "context", value_name = "NAME=VALUE", value_parser = parse_context)]
    pub context: Vec<(String, String)>,
    /// Print JSON instead of one value per line
    #[arg(long)]
    pub json: bool,
}

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

/// `--args` of `call`: any JSON object.
fn parse_json_object(raw: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "must be a JSON object like '{{\"name\": \"value\"}}', not {}",
            json_kind(&other)
        )),
        Err(e) => Err(format!("not valid JSON: {e}")),
    }
}

/// `--args` of `prompt`: a JSON object whose values are strings, as prompt arguments are.
fn parse_prompt_arguments(raw: &str) -> Result<BTreeMap<String, String>, String> {
    parse_json_object(raw)?
        .into_iter()
        .map(|(name, value)| match value {
            Value::String(text) => Ok((name, text)),
            other => Err(format!(
                "prompt arguments are strings, but `{name}` is {}",
                json_kind(&other)
            )),
        })
        .collect()
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `--timeout`: a positive number of seconds, fractions allowed.
fn parse_seconds(raw: &str) -> Result<Duration, String> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("`{raw}` is not a positive number of seconds"))
}

fn parse_context(raw: &str) -> Result<(String, String), String> {
    match raw.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("`{raw}` is not NAME=VALUE")),
    }
}
