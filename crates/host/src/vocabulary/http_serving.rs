//! What the gateway's HTTP endpoint does in this process (off, listening, or a port it could not
//! have), kept by the [`crate::host::Host`] and set by the engine's follower
//! (`gateway::http`), so the window can say why agents cannot reach it.

use serde::Serialize;

/// What this process's endpoint does now: the setting says what the person wants, this what
/// the engine managed (a port another program holds cannot be listened on).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum HttpServing {
    /// Not serving: the setting is off, or this process is not the engine.
    #[default]
    Off,
    Listening {
        port: u16,
    },
    /// The port could not be listened on; tried again every few seconds.
    Failed {
        port: u16,
        error: String,
    },
}
