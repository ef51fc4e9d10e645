//! The engine's error type. Each variant has a stable machine-readable [`HostError::code`],
//! which crosses the IPC boundary and the CLI's JSON output unchanged.

use crate::error_code::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// Input that breaks a rule; the message says which and how to fix it.
    #[error("{0}")]
    Validation(String),
    #[error("a server named `{0}` already exists")]
    DuplicateName(String),
    #[error("no server named or with id `{0}`")]
    NotFound(String),
    #[error("database error: {0}")]
    Storage(#[from] sqlx::Error),
    /// A database error on one of the engine's own connections (outside the pool).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// The database was written by a newer Gatehouse: its schema has migrations this build
    /// does not know. Refused before anything is written to it.
    #[error(
        "this data directory was written by a newer Gatehouse (schema {found}, this build knows \
         up to {known}): install the newer version, or use another --data-dir"
    )]
    SchemaTooNew {
        /// The newest migration the database records.
        found: i64,
        /// The newest migration this build carries.
        known: i64,
    },
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The audit log's writer could not append (the database is locked for longer than the
    /// busy timeout, the disk is full, the file cannot be opened): nothing of it was written.
    #[error("cannot write the audit log: {0}")]
    AuditWrite(String),
    /// The audit log's hash chain does not hold from row `seq` on: rows were changed or
    /// removed. Its own code, so a program can tell tampering from a database failure.
    #[error("audit log broken at row {seq}: {reason}")]
    AuditBroken { seq: i64, reason: String },
    /// The audit log's chain holds together, but some rows cannot be vouched for: keyed rows
    /// whose key is not at hand, or unkeyed rows after keyed ones.
    #[error("audit log not verified: {reason}")]
    AuditUnverified { reason: String },
    #[error("{0}")]
    Connection(#[from] gatehouse_mcp::McpError),
    /// The operation needs the server's live connection, and it has none (yet).
    #[error("{0}")]
    NotConnected(String),
    /// The operation needs something not available for this server yet.
    #[error("{0}")]
    Unsupported(String),
    /// The gate refused the request: a rule denied it, or it needed an answer nobody could give.
    #[error("{reason}")]
    Denied {
        reason: String,
        /// The rule that decided, if one did.
        rule: Option<String>,
    },
    /// The OS keyring failed, or a secret is missing from it.
    #[error("{0}")]
    Secrets(String),
    /// No OS keyring could be reached (no D-Bus session, no Secret Service provider, a locked
    /// collection). Nothing was stored anywhere instead: secrets never fall back to plaintext.
    #[error("cannot {action}: the OS keyring is not available ({detail}); {KEYRING_FIX}")]
    KeyringUnavailable {
        /// What was being done, e.g. "store the secret `API_TOKEN`".
        action: String,
        /// The keyring's own error.
        detail: String,
    },
    /// Signing in to an HTTP server's authorization server failed, or the server needs a
    /// sign-in this connection cannot ask for. The message says what failed and what to do.
    #[error("signing in to `{server}` failed: {detail}; {hint}")]
    Authorization {
        /// The server's name.
        server: String,
        /// What failed (never a token or a client secret).
        detail: String,
        /// What to do about it.
        hint: String,
    },
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// Another engine holds the data directory; the message names it and how to stop it.
    #[error("{0}")]
    EngineRunning(String),
    /// The engine stopped before the request finished.
    #[error("{0}")]
    EngineStopping(String),
    /// A control socket message broke the protocol.
    #[error("{0}")]
    Protocol(String),
    /// An error the running engine reported over the control socket, with its code.
    #[error("{message}")]
    Remote { code: ErrorCode, message: String },
}

impl HostError {
    /// The stable [`ErrorCode`] for programs (its wire string, e.g. `duplicate_name`, is what
    /// the UI and the CLI's JSON output see).
    pub fn code(&self) -> ErrorCode {
        match self {
            HostError::Validation(_) => ErrorCode::Validation,
            HostError::DuplicateName(_) => ErrorCode::DuplicateName,
            HostError::NotFound(_) => ErrorCode::NotFound,
            HostError::Storage(_)
            | HostError::Sqlite(_)
            | HostError::Migration(_)
            | HostError::Corrupt(_)
            | HostError::AuditWrite(_) => ErrorCode::Storage,
            HostError::SchemaTooNew { .. } => ErrorCode::SchemaTooNew,
            HostError::AuditBroken { .. } => ErrorCode::AuditBroken,
            HostError::AuditUnverified { .. } => ErrorCode::AuditUnverified,
            HostError::Connection(_) => ErrorCode::Connection,
            HostError::NotConnected(_) => ErrorCode::NotConnected,
            HostError::Unsupported(_) => ErrorCode::Unsupported,
            HostError::Denied { .. } => ErrorCode::Denied,
            HostError::Secrets(_) => ErrorCode::Secrets,
            HostError::KeyringUnavailable { .. } => ErrorCode::KeyringUnavailable,
            HostError::Authorization { .. } => ErrorCode::Authorization,
            HostError::Io { .. } => ErrorCode::Io,
            HostError::EngineRunning(_) => ErrorCode::EngineRunning,
            HostError::EngineStopping(_) => ErrorCode::EngineStopping,
            HostError::Protocol(_) => ErrorCode::Protocol,
            HostError::Remote { code, .. } => *code,
        }
    }

    /// An I/O failure, said with what was being done.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        HostError::Io {
            context: context.into(),
            source,
        }
    }
}

/// How to make the OS keyring available, for [`HostError::KeyringUnavailable`].
#[cfg(target_os = "macos")]
pub const KEYRING_FIX: &str = "unlock the login keychain (Keychain Access) and try again";
/// How to make the OS keyring available, for [`HostError::KeyringUnavailable`].
#[cfg(target_os = "windows")]
pub const KEYRING_FIX: &str =
    "make sure Windows Credential Manager is available to this user and try again";
/// How to make the OS keyring available, for [`HostError::KeyringUnavailable`].
#[cfg(not(any(target_os = "macos", target_os = "windows")))]
pub const KEYRING_FIX: &str = "start gnome-keyring or another Secret Service provider (KeePassXC, \
KWallet) in this desktop session, or unlock the login keyring, and try again";

pub type Result<T, E = HostError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn io_error() -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied")
    }

    /// Every variant, with the wire string the UI and the CLI see for it.
    fn every_variant() -> Vec<(HostError, &'static str)> {
        let text = || "x".to_owned();
        vec![
            (HostError::Validation(text()), "validation"),
            (HostError::DuplicateName(text()), "duplicate_name"),
            (HostError::NotFound(text()), "not_found"),
            (HostError::Storage(sqlx::Error::RowNotFound), "storage"),
            (
                HostError::Sqlite(rusqlite::Error::QueryReturnedNoRows),
                "storage",
            ),
            (
                HostError::Migration(sqlx::migrate::MigrateError::VersionMissing(1)),
                "storage",
            ),
            (HostError::Corrupt(text()), "storage"),
            (
                HostError::SchemaTooNew { found: 2, known: 1 },
                "schema_too_new",
            ),
            (HostError::AuditWrite(text()), "storage"),
            (
                HostError::AuditBroken {
                    seq: 3,
                    reason: text(),
                },
                "audit_broken",
            ),
            (
                HostError::AuditUnverified { reason: text() },
                "audit_unverified",
            ),
            (
                HostError::Connection(gatehouse_mcp::McpError::Closed { reason: text() }),
                "connection",
            ),
            (HostError::NotConnected(text()), "not_connected"),
            (HostError::Unsupported(text()), "unsupported"),
            (
                HostError::Denied {
                    reason: text(),
                    rule: None,
                },
                "denied",
            ),
            (HostError::Secrets(text()), "secrets"),
            (
                HostError::KeyringUnavailable {
                    action: text(),
                    detail: text(),
                },
                "keyring_unavailable",
            ),
            (
                HostError::Authorization {
                    server: text(),
                    detail: text(),
                    hint: text(),
                },
                "authorization",
            ),
            (HostError::io(text(), io_error()), "io"),
            (HostError::EngineRunning(text()), "engine_running"),
            (HostError::EngineStopping(text()), "engine_stopping"),
            (HostError::Protocol(text()), "protocol"),
            (
                HostError::Remote {
                    code: ErrorCode::TooManyCalls,
                    message: text(),
                },
                "too_many_calls",
            ),
        ]
    }

    #[test]
    fn each_variant_maps_to_its_typed_code_and_wire_string() {
        for (error, wire) in every_variant() {
            let code = error.code();
            assert_eq!(code.as_str(), wire, "{error:?}");
            assert_eq!(
                serde_json::to_value(code).expect("a code serialises"),
                serde_json::Value::String(wire.to_owned()),
                "{error:?} must serialise as `{wire}`"
            );
            let back: ErrorCode =
                serde_json::from_value(serde_json::json!(wire)).expect("a wire string reads back");
            assert_eq!(back, code, "`{wire}` must read back as {code:?}");
        }
    }

    #[test]
    fn the_shells_own_codes_keep_their_wire_strings() {
        for (code, wire) in [
            (ErrorCode::Cancelled, "cancelled"),
            (ErrorCode::TooManyCalls, "too_many_calls"),
        ] {
            assert_eq!(
                serde_json::to_value(code).expect("a code serialises"),
                serde_json::json!(wire)
            );
            assert_eq!(code, wire);
        }
    }
}
