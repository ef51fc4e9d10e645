//! The arguments of `gatehouse policy`.

use clap::error::ErrorKind;
use clap::{Args, Subcommand, ValueEnum};

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// List the rules, with whether each is stale (no connection is made)
    List {
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Add a rule: for a server (its default), a tool, or an argument of a tool
    Set(PolicySetArgs),
    /// Remove a rule by its id
    Rm {
        /// The rule's id, as `policy list` shows it
        id: String,
    },
    /// Trust (or stop trusting) a server's readOnlyHint annotations
    Trust {
        /// The server's name
        server: String,
        #[arg(value_enum)]
        setting: OnOff,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

/// Who a rule is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RuleSource {
    /// The person's own calls (app window or CLI)
    User,
    /// A server's own requests
    Server,
    /// MCP App views
    App,
    /// A chat model
    Model,
    /// Agents through the gateway
    Gateway,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

#[derive(Debug, Args)]
pub struct PolicySetArgs {
    /// The server's name; `*` for the global default
    pub server: String,
    /// Only this tool (a tool rule remembers the tool's current definition)
    #[arg(long, value_name = "TOOL")]
    pub tool: Option<String>,
    /// Only when the argument at this JSON Pointer matches a glob: POINTER=GLOB (e.g. /path=~/projects/**)
    #[arg(
        long,
        value_name = "POINTER=GLOB",
        conflicts_with = "arg_regex",
        requires = "tool"
    )]
    pub arg: Option<String>,
    /// Only when the argument at this JSON Pointer matches a regex (whole value): POINTER=REGEX
    #[arg(long, value_name = "POINTER=REGEX", requires = "tool")]
    pub arg_regex: Option<String>,
    /// With --arg or --arg-regex: apply when the value does NOT match
    #[arg(long)]
    pub outside: bool,
    /// Only for requests from this source (default: every source)
    #[arg(long, value_enum, value_name = "SOURCE")]
    pub source: Option<RuleSource>,
    /// Only for this client of the gateway (the NAME of `gatehouse mcp --client NAME`); implies
    /// --source gateway
    #[arg(long, value_name = "NAME")]
    pub client: Option<String>,
    /// What the rule says
    #[arg(value_enum)]
    pub decision: Decision,
}

impl PolicySetArgs {
    /// The source the rule is for: `--client` implies `gateway`, and with another `--source`
    /// it is a usage error (a client is a client of the gateway).
    pub fn rule_source(&self) -> Result<Option<RuleSource>, clap::Error> {
        match (&self.client, self.source) {
            (Some(_), None | Some(RuleSource::Gateway)) => Ok(Some(RuleSource::Gateway)),
            (Some(client), Some(other)) => {
                let name = other.to_possible_value().map(|v| v.get_name().to_owned());
                let mut command =
                    PolicySetArgs::augment_args(clap::Command::new("gatehouse policy set"));
                Err(command.error(
                    ErrorKind::ArgumentConflict,
                    format!(
                        "--client {client} is for an agent through the gateway, so it cannot be \
                         used with --source {}: leave --source out (or say --source gateway)",
                        name.unwrap_or_default()
                    ),
                ))
            }
            (None, source) => Ok(source),
        }
    }
}
