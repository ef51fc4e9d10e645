//! The one machine-readable error code that crosses from the engine to its faces: the IPC
//! boundary to the UI (generated into the bindings) and the CLI's JSON output. Each
//! [`crate::HostError`] maps to one through [`crate::HostError::code`]; the shell adds the
//! codes of its own refusals (`cancelled`, `too_many_calls`). The wire strings are snake_case
//! and stable: programs switch on them.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Input that breaks a rule.
    Validation,
    /// A server with that name already exists.
    DuplicateName,
    /// No such server, view or record.
    NotFound,
    /// The database failed, or what it holds is corrupt or cannot be written.
    Storage,
    /// The database was written by a newer Gatehouse; this build refuses it untouched.
    SchemaTooNew,
    /// The audit log's hash chain does not hold.
    AuditBroken,
    /// The audit log's chain holds, but some rows cannot be vouched for.
    AuditUnverified,
    /// Talking to the server failed.
    Connection,
    /// The server has no live connection (yet).
    NotConnected,
    /// Not available for this server yet.
    Unsupported,
    /// The gate refused the request.
    Denied,
    /// The OS keyring failed, or a secret is missing from it.
    Secrets,
    /// No OS keyring could be reached.
    KeyringUnavailable,
    /// Signing in to the server's authorization server failed.
    Authorization,
    /// A file, the browser or a window could not be used.
    Io,
    /// The operation was cancelled before it finished.
    Cancelled,
    /// Too many tool calls are already running.
    TooManyCalls,
    /// Another engine already runs on this data directory.
    EngineRunning,
    /// The engine is stopping; the request was not finished.
    EngineStopping,
    /// A message on the control socket broke the protocol (malformed, oversized, unversioned).
    Protocol,
}

impl ErrorCode {
    /// The code as it goes over the wire, e.g. `"duplicate_name"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Validation => "validation",
            ErrorCode::DuplicateName => "duplicate_name",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Storage => "storage",
            ErrorCode::SchemaTooNew => "schema_too_new",
            ErrorCode::AuditBroken => "audit_broken",
            ErrorCode::AuditUnverified => "audit_unverified",
            ErrorCode::Connection => "connection",
            ErrorCode::NotConnected => "not_connected",
            ErrorCode::Unsupported => "unsupported",
            ErrorCode::Denied => "denied",
            ErrorCode::Secrets => "secrets",
            ErrorCode::KeyringUnavailable => "keyring_unavailable",
            ErrorCode::Authorization => "authorization",
            ErrorCode::Io => "io",
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::TooManyCalls => "too_many_calls",
            ErrorCode::EngineRunning => "engine_running",
            ErrorCode::EngineStopping => "engine_stopping",
            ErrorCode::Protocol => "protocol",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `code == "validation"` compares with the wire string, so callers and tests can name a code
/// as programs see it.
impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}
