//! One recorded JSON-RPC message as the window sees it, and a page of them.

use serde::{Deserialize, Serialize};

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum TrafficDirection {
    /// From Gatehouse to the server.
    Sent,
    /// From the server to Gatehouse.
    Received,
}

/// One message in or out of a server's connection, redacted of secrets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TrafficEntry {
    /// Its place among this server's messages in this process, counting from 1.
    pub seq: u64,
    /// When it passed (UTC, RFC 3339 with milliseconds).
    pub time: String,
    pub direction: TrafficDirection,
    /// The method; a response carries its request's method when the request was seen.
    pub method: Option<String>,
    /// The JSON-RPC id as JSON text (`7`, `"abc"`), for requests and responses.
    pub id: Option<String>,
    /// For a response: milliseconds since its request passed.
    pub latency_ms: Option<f64>,
    /// The message's size in bytes as compact JSON (after redaction).
    pub size: u64,
    /// The message as compact JSON, redacted, at most [`super::MAX_MESSAGE_BYTES`] of it; text
    /// that was not JSON is kept as a JSON string.
    pub message: String,
    /// Whether `message` was cut short (the marker the view shows).
    pub truncated: bool,
}

impl TrafficEntry {
    /// What this entry weighs against a buffer's byte bound.
    pub fn weight(&self) -> usize {
        self.message.len()
            + self.time.len()
            + self.method.as_ref().map_or(0, String::len)
            + self.id.as_ref().map_or(0, String::len)
            + 64
    }
}

/// A server's messages after a sequence number.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TrafficPage {
    /// Oldest first.
    pub entries: Vec<TrafficEntry>,
    /// Messages the engine's buffer dropped (oldest first) to stay within its bounds, since
    /// this process began recording the server.
    pub dropped: u64,
    /// The newest sequence number recorded for the server (0 when none).
    pub last_seq: u64,
}
