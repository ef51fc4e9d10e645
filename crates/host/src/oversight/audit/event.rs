//! What the audit log records: an [`AuditEvent`] as a writer hands it over, and an
//! [`AuditRow`], the event as it was stored, with its place in the chain and its hashes.
//!
//! Field names follow the OpenTelemetry semantic conventions for MCP where one exists; the
//! table's columns spell them out (`method` is `mcp_method_name`, `tool` is
//! `gen_ai_tool_name`, `request_id` is `jsonrpc_request_id`, `error_type` is `error_type`,
//! `transport` is `network_transport`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{HostError, Result};

/// What kind of thing happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum AuditKind {
    /// A request reached the host (a tool call, a sampling or elicitation request).
    #[default]
    RequestReceived,
    /// The policy or the user allowed or denied a request.
    Decision,
    /// A request was sent to its server.
    CallStarted,
    /// Its result (or error) came back.
    CallFinished,
    /// A connection opened, closed or failed.
    Connection,
    /// A rule or standing approval changed.
    PolicyChange,
    /// Old rows were pruned: the anchor the chain now starts from (see `audit::retention`).
    Retention,
    /// The chain's keying changed here: keyed rows follow unkeyed ones, or unkeyed rows (the
    /// OS keyring unavailable) follow keyed ones (see `audit::writer`).
    Keying,
}

impl AuditKind {
    /// Every kind, in declaration order.
    pub const ALL: [AuditKind; 8] = [
        AuditKind::RequestReceived,
        AuditKind::Decision,
        AuditKind::CallStarted,
        AuditKind::CallFinished,
        AuditKind::Connection,
        AuditKind::PolicyChange,
        AuditKind::Retention,
        AuditKind::Keying,
    ];

    /// The stored text: `request_received`, `decision`, `call_started`, `call_finished`,
    /// `connection`, `policy_change`, `retention`, `keying`.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditKind::RequestReceived => "request_received",
            AuditKind::Decision => "decision",
            AuditKind::CallStarted => "call_started",
            AuditKind::CallFinished => "call_finished",
            AuditKind::Connection => "connection",
            AuditKind::PolicyChange => "policy_change",
            AuditKind::Retention => "retention",
            AuditKind::Keying => "keying",
        }
    }
}

impl fmt::Display for AuditKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for AuditKind {
    type Err = HostError;

    fn from_str(text: &str) -> Result<Self> {
        AuditKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| HostError::Corrupt(format!("unknown audit row kind `{text}`")))
    }
}

/// One thing to record. Every field but `kind` may be left out (`..Default::default()`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AuditEvent {
    pub kind: AuditKind,
    /// The server's name.
    pub server: Option<String>,
    /// Who asked: `user`, `server`, `app`, `model` or `gateway`.
    pub source: Option<String>,
    /// `mcp.method.name`, such as `tools/call`.
    pub method: Option<String>,
    /// `gen_ai.tool.name`.
    pub tool: Option<String>,
    /// `jsonrpc.request.id`, as text.
    pub request_id: Option<String>,
    /// Ties together the rows of one request.
    pub correlation: Option<String>,
    /// `allow`, `deny`, `ask`, … for decision rows.
    pub decision: Option<String>,
    /// `error.type`: `tool_error` for a result with `isError`, else the error's kind.
    pub error_type: Option<String>,
    /// `network.transport`: `pipe` (stdio) or `tcp` (HTTP).
    pub transport: Option<String>,
    pub duration_ms: Option<u64>,
    /// Arguments, result or reasons. Redacted before it is written, and replaced by a summary
    /// when larger than 64 KiB.
    pub detail: Value,
}

/// An event as stored, in the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AuditRow {
    /// The position in the chain, from 1.
    pub seq: i64,
    /// When it was written: RFC 3339, UTC, milliseconds (`2026-11-23T09:00:00.123Z`).
    pub at: String,
    #[serde(flatten)]
    pub event: AuditEvent,
    /// The row's hash over its canonical JSON (every column but this one): hex HMAC-SHA256
    /// under the audit key when `key_id` is set, else hex SHA-256.
    pub hash: String,
    /// The previous row's `hash`; 64 zeros for the first row.
    pub prev_hash: String,
    /// The id of the key the row is keyed with; `None` for an unkeyed row (written before
    /// keying began, or while the OS keyring was unavailable).
    pub key_id: Option<String>,
}

impl AuditRow {
    /// How the event ended, for a one-word summary: its `error_type`, `ok` for a finished
    /// call without one, else nothing.
    pub fn outcome(&self) -> &str {
        match (&self.event.error_type, self.event.kind) {
            (Some(error), _) => error,
            (None, AuditKind::CallFinished) => "ok",
            (None, _) => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_stored_as_snake_case_and_read_back() {
        for kind in AuditKind::ALL {
            let json = serde_json::to_value(kind).unwrap_or_default();
            assert_eq!(
                json,
                Value::String(kind.as_str().to_owned()),
                "the stored text and the JSON must agree, or listings and filters disagree"
            );
            assert_eq!(kind.as_str().parse::<AuditKind>().ok(), Some(kind));
        }
        assert!(
            "dropped_table".parse::<AuditKind>().is_err(),
            "an unknown kind is reported, not guessed"
        );
    }

    #[test]
    fn a_row_serialises_flat_with_camel_case_keys() {
        let row = AuditRow {
            seq: 7,
            at: "2026-11-23T09:00:00.000Z".into(),
            event: AuditEvent {
                kind: AuditKind::CallFinished,
                tool: Some("echo".into()),
                request_id: Some("4".into()),
                duration_ms: Some(12),
                ..Default::default()
            },
            hash: "ab".into(),
            prev_hash: "cd".into(),
            key_id: None,
        };
        let json = serde_json::to_value(&row).unwrap_or_default();
        assert_eq!(json["kind"], "call_finished");
        assert_eq!(json["requestId"], "4", "--json and IPC use camelCase keys");
        assert_eq!(json["durationMs"], 12);
        assert_eq!(json["prevHash"], "cd");
        assert!(json.get("event").is_none(), "the event's fields are inline");
        assert_eq!(row.outcome(), "ok");
    }
}
