//! The arguments of `gatehouse clients` (the gateway's clients, their tokens and profiles) and
//! `gatehouse gateway http` (the HTTP endpoint's setting).

use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum ClientsCommand {
    /// List the gateway's clients (tokens are never shown)
    List {
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Add a client: an agent that reaches the gateway over HTTP with a token of its own
    Add {
        /// The client's name, as approvals and the audit log show it
        name: String,
    },
    /// Remove a client and its token
    Remove { name: String },
    /// Show a client: its profile, token, when last seen, its recent calls
    Show {
        name: String,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Show or change what a client is served (or, with --default, every client without a
    /// setting of its own, and agents Gatehouse does not know)
    Profile(ProfileArgs),
    /// Create or revoke a client's token
    #[command(subcommand)]
    Token(TokenCommand),
}

#[derive(Debug, Args)]
pub struct ProfileArgs {
    /// The client (omit with --default)
    #[arg(required_unless_present = "default", conflicts_with = "default")]
    pub name: Option<String>,
    /// Change the default profile
    #[arg(long)]
    pub default: bool,
    /// Turn a server on or off, or hand it back to the default profile (repeatable):
    /// --server memory off
    #[arg(long, num_args = 2, value_names = ["SERVER", "on|off|default"], action = clap::ArgAction::Append)]
    pub server: Vec<String>,
    /// Turn one tool on or off, or hand it back to the default profile (repeatable):
    /// --tool fs/write_file off
    #[arg(long, num_args = 2, value_names = ["SERVER/TOOL", "on|off|default"], action = clap::ArgAction::Append)]
    pub tool: Vec<String>,
    /// Expose the servers' resources and resource templates (`default`: as the default
    /// profile does)
    #[arg(long, value_name = "on|off|default")]
    pub resources: Option<String>,
    /// Expose the servers' prompts (`default`: as the default profile does)
    #[arg(long, value_name = "on|off|default")]
    pub prompts: Option<String>,
    /// Ask the person when a server wants sampling or elicitation the client did not declare
    /// (`off`: the server is not offered what the client cannot answer)
    #[arg(long, value_name = "on|off|default")]
    pub ask_person: Option<String>,
    /// A client's naming choice: `off`, tools and prompts by their own names where no other
    /// server offers the same name (colliding ones keep `SERVER__`); `on` (the default), always
    /// `SERVER__NAME`
    #[arg(long, value_name = "on|off", conflicts_with = "default")]
    pub prefix: Option<String>,
    /// Requests the client may have running at once
    #[arg(long, value_name = "N")]
    pub max_in_flight: Option<u32>,
    /// Requests the client may make in any 60 seconds (0: no limit)
    #[arg(long, value_name = "N")]
    pub per_minute: Option<u32>,
    /// The largest message the client may send, in bytes
    #[arg(long, value_name = "N")]
    pub max_message_bytes: Option<u32>,
    /// Hand the three limits back to the default profile (with --default: to Gatehouse's own)
    #[arg(long, conflicts_with_all = ["max_in_flight", "per_minute", "max_message_bytes"])]
    pub default_limits: bool,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create the client's token (replacing the one it had) and print it once; it is kept
    /// only in the OS keyring
    Create { name: String },
    /// Revoke the client's token: the gateway refuses it from the next request on
    Revoke { name: String },
}

#[derive(Debug, Subcommand)]
pub enum GatewayCommand {
    /// The Streamable HTTP endpoint on 127.0.0.1 (off until turned on)
    #[command(subcommand)]
    Http(HttpCommand),
}

#[derive(Debug, Subcommand)]
pub enum HttpCommand {
    /// Serve the endpoint from the running engine (the app or `gatehouse serve`)
    On {
        /// The port on 127.0.0.1 (default 47821, or the one set before)
        #[arg(long)]
        port: Option<u16>,
    },
    /// Stop serving the endpoint
    Off,
    /// Show whether the endpoint is on, and its URL
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}
