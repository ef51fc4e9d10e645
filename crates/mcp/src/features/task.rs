//! A task as the server reports it (2025-11-25 basic/utilities/tasks), how often to poll it,
//! and whether a tool may run as one (`execution.taskSupport`). The poll interval is the
//! server's `pollInterval` (or the extension's `pollIntervalMs`), clamped to 100 ms – 5 s.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{McpError, Result};
use crate::types::Tool;

/// Polling bounds, whatever `pollInterval` the server asks for.
const MIN_POLL: Duration = Duration::from_millis(100);
const MAX_POLL: Duration = Duration::from_secs(5);

/// A task's state as the server reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub task_id: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Task {
    /// Whether the task will not change any more.
    pub fn is_terminal(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "failed" | "cancelled")
    }

    /// The polling interval the server suggests, in milliseconds: `pollInterval` (2025-11-25)
    /// or `pollIntervalMs` (the tasks extension).
    pub fn poll_interval_ms(&self) -> Option<u64> {
        self.poll_interval
            .or_else(|| self.extra.get("pollIntervalMs").and_then(Value::as_u64))
    }

    /// How long to wait before the next poll: the server's suggestion, within sane bounds.
    pub(crate) fn poll_every(&self) -> Duration {
        self.poll_interval_ms()
            .map_or(Duration::from_secs(1), Duration::from_millis)
            .clamp(MIN_POLL, MAX_POLL)
    }
}

/// How a tool may be called as a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSupport {
    Forbidden,
    Optional,
    Required,
}

impl TaskSupport {
    /// A tool's `execution.taskSupport`; absent means forbidden.
    pub fn of(tool: &Tool) -> TaskSupport {
        match tool
            .extra
            .get("execution")
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
        {
            Some("required") => TaskSupport::Required,
            Some("optional") => TaskSupport::Optional,
            _ => TaskSupport::Forbidden,
        }
    }
}

pub(crate) fn parse_task(method: &str, value: Value) -> Result<Task> {
    serde_json::from_value(value).map_err(|e| McpError::InvalidResponse {
        method: method.to_owned(),
        message: format!("not a task: {e}"),
    })
}
