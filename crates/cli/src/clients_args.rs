//! The arguments of `gatehouse clients` (the gateway's clients and their tokens) and
//! `gatehouse gateway http` (the HTTP endpoint's setting).

use clap::Subcommand;

use crate::policy_args::OnOff;

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
    /// Create or revoke a client's token
    #[command(subcommand)]
    Token(TokenCommand),
    /// Change what a client sees
    Profile {
        name: String,
        /// `off`: tools and prompts by their own names where no other server offers the same
        /// name (colliding ones keep `SERVER__`); `on` (the default): always `SERVER__NAME`
        #[arg(long, value_enum)]
        prefix: Option<OnOff>,
    },
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
