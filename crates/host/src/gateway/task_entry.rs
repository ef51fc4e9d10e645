//! One task the gateway keeps for an agent (2025-11-25 basic/utilities/tasks, "Data Types"):
//! its status, timestamps, time to live, and the channels its outcome and its cancellation
//! travel on; [`super::tasks`] keeps a session's.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::Instant;

pub use super::replies::Failure;
/// What the underlying request was answered with.
pub type Outcome = Result<Value, Failure>;

/// How often the agent is told it may poll (`pollInterval`).
const POLL_INTERVAL_MS: u64 = 500;

/// Where a task is (§Task Status Lifecycle): `working`, then one of the three ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Working,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    pub(super) fn name(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// One task: what `tasks/get` shows of it, and how its request ends or is stopped.
#[derive(Debug)]
pub(super) struct Entry {
    pub(super) created_at: String,
    pub(super) updated_at: String,
    pub(super) made: Instant,
    pub(super) ttl: Duration,
    pub(super) status: Status,
    pub(super) message: Option<String>,
    /// The outcome once the request ends (`None` while it runs).
    pub(super) outcome: watch::Sender<Option<Outcome>>,
    /// Set to stop the request.
    pub(super) cancel: watch::Sender<bool>,
}

impl Entry {
    pub(super) fn view(&self, id: &str) -> Value {
        let mut task = json!({
            "taskId": id,
            "status": self.status.name(),
            "createdAt": self.created_at,
            "lastUpdatedAt": self.updated_at,
            "ttl": u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX),
            "pollInterval": POLL_INTERVAL_MS,
        });
        if let Some(message) = &self.message {
            task["statusMessage"] = json!(message);
        }
        task
    }

    pub(super) fn expired(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.made) >= self.ttl
    }
}
