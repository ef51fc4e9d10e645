//! The arguments of `gatehouse agents pause|resume|status` (run by `commands::agents_pause`).

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum AgentsPause {
    /// Pause every agent: each request the policy would let through is asked about
    Pause {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Let the agents go on as the policy says
    Resume {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Say whether the agents are paused
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}
