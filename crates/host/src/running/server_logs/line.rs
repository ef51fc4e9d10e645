//! A server's stderr line as kept and announced, and the limits of the logs that hold them.

use serde::{Deserialize, Serialize};

/// The directory of the log files inside the data directory.
pub const LOGS_DIR: &str = "logs";

/// The longest line a log file holds: a stderr line cut at 64 KiB, its truncation mark and its
/// timestamp.
pub const MAX_LINE_ON_DISK: usize = gatehouse_mcp::transport::stdio::MAX_STDERR_LINE + 128;

/// New lines waiting for a slow subscriber; past this it misses lines (and is told it lagged).
pub const LIVE_QUEUE: usize = 1024;

/// One stderr line of a server, redacted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LogLine {
    /// Its place among this server's lines in this process, counting from 1: a live view that
    /// read the last lines skips announced lines it already has.
    pub seq: u64,
    /// When it was read (UTC, RFC 3339), or empty when unknown.
    pub time: String,
    pub line: String,
}

/// A line announced to subscribers, with the server it came from.
#[derive(Debug, Clone)]
pub struct ServerLogLine {
    pub server_id: String,
    pub line: LogLine,
}
