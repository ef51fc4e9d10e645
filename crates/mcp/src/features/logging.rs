//! Logging (2025-11-25 server/utilities/logging): the eight RFC 5424 severity levels, parsed
//! from their names, and `logging/setLevel`, which asks the server to send only log messages at
//! or above a level. Needs the server's `logging` capability.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::client::Client;
use crate::error::Result;

/// A syslog severity (RFC 5424 §6.2.1), least severe first, so levels compare by severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the eight levels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown log level `{0}`; expected one of debug, info, notice, warning, error, critical, alert, emergency"
)]
pub struct UnknownLogLevel(pub String);

impl FromStr for LogLevel {
    type Err = UnknownLogLevel;

    /// Parses a level name, ignoring case and surrounding space.
    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        let name = raw.trim().to_ascii_lowercase();
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == name)
            .ok_or_else(|| UnknownLogLevel(raw.to_owned()))
    }
}

impl Client {
    /// Asks the server to send log messages at `level` and above. In the modern era there is no
    /// `logging/setLevel`: the level goes in every later request's `_meta` (2026-07-28
    /// server/utilities/logging), so messages come on each request's own stream.
    pub async fn set_log_level(&self, level: LogLevel) -> Result<()> {
        self.require_capability("logging", "logging")?;
        if self.era() == crate::era::Era::Modern {
            self.peer()
                .insert_meta("io.modelcontextprotocol/logLevel", json!(level));
            return Ok(());
        }
        self.peer()
            .request(
                "logging/setLevel",
                Some(json!({ "level": level })),
                self.request_timeout(),
            )
            .await
            .map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_level_by_name_and_round_trips() {
        for level in LogLevel::ALL {
            assert_eq!(level.as_str().parse::<LogLevel>(), Ok(level));
            assert_eq!(
                serde_json::to_value(level).ok(),
                Some(json!(level.as_str())),
                "the wire name is the lowercase name"
            );
        }
        assert_eq!(" Warning ".parse::<LogLevel>(), Ok(LogLevel::Warning));
    }

    #[test]
    fn an_unknown_level_names_the_valid_ones() {
        let error = "warn".parse::<LogLevel>().err().map(|e| e.to_string());
        assert!(
            error.is_some_and(|e| e.contains("`warn`") && e.contains("warning")),
            "the message must say what was wrong and what is allowed"
        );
    }

    #[test]
    fn levels_order_by_severity() {
        assert!(LogLevel::Debug < LogLevel::Info);
        assert!(LogLevel::Alert < LogLevel::Emergency);
    }
}
