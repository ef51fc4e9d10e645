//! How long stopping a stdio server waits at each step: a launch setting, kept in the server's
//! stored configuration (`store::registry::model` re-exports it) and read by [`super::launch`].

use serde::{Deserialize, Serialize};

/// How long stopping a stdio server waits at each step (2025-11-25 basic/lifecycle,
/// "Shutdown", stdio): after closing its stdin, then after SIGTERM to its process group, before
/// SIGKILL. Stored in the server's JSON spec; a spec saved before these existed gets the
/// defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct StopGrace {
    /// Milliseconds to wait after closing stdin (default 2000).
    pub stdin_ms: u32,
    /// Milliseconds to wait after SIGTERM (default 3000).
    pub term_ms: u32,
}

impl StopGrace {
    /// The longest wait accepted for either step: 10 minutes.
    pub const MAX_MS: u32 = 600_000;

    /// The wait after closing stdin.
    pub fn stdin(self) -> std::time::Duration {
        std::time::Duration::from_millis(self.stdin_ms.into())
    }

    /// The wait after SIGTERM.
    pub fn term(self) -> std::time::Duration {
        std::time::Duration::from_millis(self.term_ms.into())
    }
}

impl Default for StopGrace {
    fn default() -> Self {
        Self {
            stdin_ms: 2000,
            term_ms: 3000,
        }
    }
}
