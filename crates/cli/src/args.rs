//! The command line: every subcommand and flag of `gatehouse`. Usage errors (unknown flags,
//! missing or conflicting arguments, malformed `--env`/`--header`/`--transport`) are reported by
//! clap and exit with status 2.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use gatehouse_host::{EnvVar, HttpHeader, ServerTransport};

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
    /// Connect to a server, list its tools and disconnect
    Tools {
        /// The server's name
        server: String,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ServerCommand {
    /// Add a stdio server (--command) or an HTTP server (--url)
    Add(AddArgs),
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
    #[arg(long, value_name = "CMD", conflicts_with_all = ["url", "transport", "headers"])]
    pub command: Option<String>,
    /// An argument for the program; repeat for more
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// An environment variable KEY=VALUE; repeat for more
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = parse_env)]
    pub env: Vec<EnvVar>,
    /// The working directory (made absolute)
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,

    /// The server's URL (HTTP server)
    #[arg(long, value_name = "URL", conflicts_with_all = ["args", "env", "cwd"])]
    pub url: Option<String>,
    /// auto, streamable-http or sse
    #[arg(long, value_name = "TRANSPORT", value_parser = parse_transport)]
    pub transport: Option<ServerTransport>,
    /// An HTTP header 'Name: value'; repeat for more
    #[arg(long = "header", value_name = "'NAME: VALUE'", value_parser = parse_header)]
    pub headers: Vec<HttpHeader>,

    /// Add the server disabled
    #[arg(long)]
    pub disabled: bool,
}

fn parse_env(raw: &str) -> Result<EnvVar, String> {
    match raw.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok(EnvVar {
            key: key.to_owned(),
            value: value.to_owned(),
        }),
        _ => Err(format!("`{raw}` is not KEY=VALUE")),
    }
}

fn parse_header(raw: &str) -> Result<HttpHeader, String> {
    match raw.split_once(':') {
        Some((name, value)) if !name.trim().is_empty() => Ok(HttpHeader {
            name: name.trim().to_owned(),
            value: value.trim().to_owned(),
        }),
        _ => Err(format!("`{raw}` is not 'Name: value'")),
    }
}

fn parse_transport(raw: &str) -> Result<ServerTransport, String> {
    raw.parse()
}
