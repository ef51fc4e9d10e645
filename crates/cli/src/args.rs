//! The command line: every subcommand and flag of `gatehouse`. Usage errors (unknown flags,
//! missing or conflicting arguments, malformed `--env`/`--header`/`--transport`, `--args` that
//! is not a JSON object, a `--timeout` that is not a positive number) are reported by clap and
//! exit with status 2.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde_json::{Map, Value};

use crate::server_args::ServerCommand;

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

    /// Run in this process even when an engine (the app, `gatehouse serve`) runs
    #[arg(long, global = true)]
    pub standalone: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the engine with no window: own the servers and serve the control socket until stopped
    Serve,
    /// Say whether an engine runs on the data directory, its servers and the faces attached
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Be the MCP server an agent starts: relay its MCP on stdin/stdout to the engine's gateway
    /// (starting `gatehouse serve` when no engine runs)
    Mcp {
        /// The client's name, as approvals and the audit log show it
        #[arg(long, value_name = "NAME", default_value = "agent")]
        client: String,
    },
    /// Answer what the running engine asks, without a window: list, answer, or watch
    #[command(subcommand)]
    Approvals(crate::approvals_args::ApprovalsCommand),
    /// The engine's settings: approval timeout, stop graces, health checks, audit retention
    #[command(subcommand)]
    Settings(crate::commands::settings::SettingsCommand),
    /// Be the demo MCP server the app offers on its first run (stdio; no network)
    #[command(hide = true)]
    DemoServer,
    /// Start the Gatehouse app hidden in the tray when you log in: on, off, or status
    #[command(subcommand)]
    Autostart(crate::commands::autostart::AutostartCommand),
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
    /// The gateway's clients: agents that reach it over HTTP, each with a token of its own
    #[command(subcommand)]
    Clients(crate::clients_args::ClientsCommand),
    /// The gateway's Streamable HTTP endpoint
    #[command(subcommand)]
    Gateway(crate::clients_args::GatewayCommand),
    /// Import an agent's MCP servers into Gatehouse: a preview of every server and every
    /// value that goes to the keyring (masked), then, once confirmed, the servers added
    Import(crate::import_args::ImportArgs),
    /// The agents on this machine (Claude Code, Claude Desktop, Cursor, VS Code, Codex, Gemini
    /// CLI, Windsurf, Zed) and the MCP servers in their config files, with the plaintext secrets
    /// they hold counted by name (never shown); reads the files only. `agents pause|resume|status`:
    /// every agent paused at once in the running engine
    #[command(args_conflicts_with_subcommands = true)]
    Agents {
        #[command(subcommand)]
        pause: Option<crate::agents_pause_args::AgentsPause>,
        /// Also read this project's files (.mcp.json, .cursor/mcp.json, .vscode/mcp.json,
        /// .codex/config.toml, .gemini/settings.json, .zed/settings.json, server.json)
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// The gateway's HTTP port, to recognise entries that already go through it
        #[arg(long, value_name = "PORT", default_value_t = 47821)]
        gateway_port: u16,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Point an agent at Gatehouse: its config file gets one `gatehouse mcp --client AGENT`
    /// entry, the entries imported into Gatehouse are taken out, everything else is kept; the
    /// diff is shown first and the original kept for `--undo`
    Connect(ConnectArgs),
}

#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// claude-code, claude-desktop, cursor, vscode, codex, gemini, windsurf or zed
    #[arg(value_name = "AGENT")]
    pub agent: String,
    /// The project's file instead of the person's (for Claude Code also the project's section
    /// of ~/.claude.json)
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Show the diff, write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Write without asking (the diff is still printed)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Put back the file as it was before the latest connect
    #[arg(long)]
    pub undo: bool,
    /// With --undo: restore even though the file changed after the connect
    #[arg(long, requires = "undo")]
    pub force: bool,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
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
