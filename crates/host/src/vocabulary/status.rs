//! What the engine reports about a server's live connection: its state and what it offers
//! (the server's configuration with it, and its tools, are in `sessions::status`).
//!
//! The states are tagged by `state`, their fields in camelCase (`inMs`, `lastStderr`). What a
//! server offers (`Offer`) is its declared tools, prompts, resources, completions and logging, in
//! that order.

use serde::{Deserialize, Serialize};

/// A server's connection state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "state",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
pub enum ServerStatus {
    /// The server is disabled; nothing runs.
    Disabled,
    /// Starting the server and running the handshake.
    Connecting,
    /// Initialized and ready.
    Connected {
        protocol_version: String,
        /// `modern` (2026-07-28) or `legacy` (the `initialize` handshake).
        era: String,
        server_name: String,
        server_version: String,
        tool_count: u32,
        /// What the server offers: the features whose capability it declared. A server may
        /// offer prompts or resources and no tools at all.
        offers: Vec<Offer>,
    },
    /// Connected, but the last `misses` health checks (a ping, or `server/discover` in the
    /// modern era) went unanswered; `reason` says how the last one failed. A few more and it
    /// is restarted; an answer makes it `Connected` again.
    Degraded { reason: String, misses: u32 },
    /// The connection could not be made or was lost; the message says why.
    Failed { message: String },
    /// The server exited unexpectedly and is started again in `in_ms` milliseconds (attempt
    /// `attempt`, the pause doubling from 1 s to 60 s); `message` says how it ended and
    /// `last_stderr` holds its last stderr lines, oldest first.
    Restarting {
        attempt: u32,
        in_ms: u64,
        message: String,
        last_stderr: Vec<String>,
    },
    /// The HTTP server was lost (a network error, a 5xx, a connection cut, missed health
    /// checks) and is connected to again in `in_ms` milliseconds (attempt `attempt`, the pause
    /// doubling from 1 s to 60 s, never given up); `message` says what went wrong.
    Reconnecting {
        attempt: u32,
        in_ms: u64,
        message: String,
    },
    /// The server exited `exits` times within a minute (a crash loop) and is left stopped
    /// until started again by hand; `message` says how it last ended.
    Crashed {
        message: String,
        exits: u32,
        last_stderr: Vec<String>,
    },
    /// The HTTP server refused the connection for want of authorization (HTTP 401); nothing is
    /// tried again until the person signs in or changes its headers and starts it. `message`
    /// says what the server answered.
    #[serde(rename = "authRequired")]
    AuthRequired { message: String },
    /// Stopped by hand; it starts again when asked to, or with the app.
    Stopped,
}

impl ServerStatus {
    /// The status of a connected `client` with `tool_count` tools.
    pub fn connected(client: &gatehouse_mcp::Client, tool_count: usize) -> Self {
        let init = client.initialize_result();
        Self::Connected {
            protocol_version: init.protocol_version.clone(),
            era: client.era().as_str().to_owned(),
            server_name: init.server_info.name.clone(),
            server_version: init.server_info.version.clone(),
            tool_count: u32::try_from(tool_count).unwrap_or(u32::MAX),
            offers: Offer::of(client),
        }
    }
}

/// A feature a server may offer, named after the capability that declares it
/// (2025-11-25 basic/lifecycle, "Capability Negotiation").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum Offer {
    Tools,
    Prompts,
    Resources,
    Completions,
    Logging,
}

impl Offer {
    /// Every feature, in the order they are shown.
    pub const ALL: [Offer; 5] = [
        Offer::Tools,
        Offer::Prompts,
        Offer::Resources,
        Offer::Completions,
        Offer::Logging,
    ];

    /// The server capability that declares the feature.
    pub fn capability(self) -> &'static str {
        match self {
            Offer::Tools => "tools",
            Offer::Prompts => "prompts",
            Offer::Resources => "resources",
            Offer::Completions => "completions",
            Offer::Logging => "logging",
        }
    }

    /// What the connected server offers, in the order of [`Offer::ALL`].
    pub fn of(client: &gatehouse_mcp::Client) -> Vec<Offer> {
        Self::ALL
            .into_iter()
            .filter(|offer| client.server_declares(offer.capability()))
            .collect()
    }
}
