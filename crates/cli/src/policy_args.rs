//! The arguments of `gatehouse policy`.

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
#[derive(Debug, Clone, Copy, ValueEnum)]
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
    /// What the rule says
    #[arg(value_enum)]
    pub decision: Decision,
}
