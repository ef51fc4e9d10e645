//! Following logged tasks from a live session: every unfinished task of the server in the task
//! log is polled with `tasks/get` at its own interval and its new status recorded, so a task
//! keeps being followed after the process that started it crashed or the app restarted.
//!
//! Only a stateless (2026-07-28) HTTP server is shared by every client, so only its tasks are
//! followed from here whoever started them. A stdio server's tasks live in the server process
//! that ran them, which belongs to the process that recorded them, and a handshake-era server
//! scopes tasks to the session that created them: such a task is left to its recorder while that
//! process lives, and marked failed once it is gone (the task went with it).

use std::collections::HashMap;
use std::time::Duration;

use gatehouse_mcp::{Client, Era, McpError};
use tokio::time::Instant;

use crate::store::registry::Registry;
use crate::store::registry::model::{ServerConfig, ServerSpec};
use crate::store::registry::task_log::TaskRecord;

/// Polling bounds, whatever interval the server suggests.
const MIN_POLL: Duration = Duration::from_millis(500);
const MAX_POLL: Duration = Duration::from_secs(10);

/// When each followed task was last polled.
#[derive(Debug, Default)]
pub(super) struct TaskFollower {
    polled: HashMap<String, Instant>,
}

fn poll_every(record: &TaskRecord) -> Duration {
    record
        .poll_ms
        .map_or(Duration::from_secs(1), |ms| {
            Duration::from_millis(ms.into())
        })
        .clamp(MIN_POLL, MAX_POLL)
}

impl TaskFollower {
    /// Polls the tasks that are due; true if any recorded status changed.
    pub(super) async fn tick(
        &mut self,
        client: &Client,
        registry: &Registry,
        config: &ServerConfig,
    ) -> bool {
        let unfinished = match registry.unfinished_tasks(&config.id).await {
            Ok(unfinished) => unfinished,
            Err(e) => {
                tracing::debug!("reading the task log failed: {e}");
                return false;
            }
        };
        self.polled
            .retain(|id, _| unfinished.iter().any(|t| &t.task_id == id));
        let shared = matches!(config.spec, ServerSpec::Http { .. }) && client.era() == Era::Modern;
        let mut changed = false;
        for record in unfinished {
            if !shared && record.recorder_pid != std::process::id() {
                if !crate::os::process_lives::process_lives(record.recorder_pid) {
                    let why = "the process that started this task ended, and the task was bound to its connection";
                    changed |= registry
                        .abandon_task(&config.id, &record.task_id, why)
                        .await
                        .is_ok();
                }
                continue;
            }
            let due = self
                .polled
                .get(&record.task_id)
                .is_none_or(|at| at.elapsed() >= poll_every(&record));
            if due {
                self.polled.insert(record.task_id.clone(), Instant::now());
                changed |= self.poll(client, registry, &record).await;
            }
        }
        changed
    }

    async fn poll(&self, client: &Client, registry: &Registry, record: &TaskRecord) -> bool {
        match client.get_task(&record.task_id).await {
            Ok(task) => registry
                .record_task(&record.server_id, &record.tool, &task)
                .await
                .unwrap_or_else(|e| {
                    tracing::debug!("recording task {} failed: {e}", record.task_id);
                    false
                }),
            // ext-tasks "Protocol Errors": an unknown or purged task is -32602.
            Err(McpError::Rpc { error, .. }) if error.code == -32602 => {
                let why = format!("the server no longer knows this task: {}", error.message);
                registry
                    .abandon_task(&record.server_id, &record.task_id, &why)
                    .await
                    .is_ok()
            }
            Err(e) => {
                tracing::debug!("polling task {} failed: {e}", record.task_id);
                false
            }
        }
    }
}
