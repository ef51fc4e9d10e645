//! The task log: every tool call that ran as a task, with its latest status and the process that
//! polls it, so the app can show running tasks whichever process started them, and polling can
//! resume after a crash or a restart (ext-tasks, "Task Polling": clients SHOULD persist task IDs).
//! Results are not kept.

use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::Registry;
use crate::error::Result;

/// A task as the log last saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TaskRecord {
    pub server_id: String,
    pub task_id: String,
    pub tool: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: String,
    pub status_message: Option<String>,
    /// The server's suggested polling interval, in milliseconds.
    pub poll_ms: Option<u32>,
    /// The process that follows the task.
    pub recorder_pid: u32,
    pub started_at: String,
    pub updated_at: String,
}

impl TaskRecord {
    /// Whether the task will not change any more.
    pub fn is_finished(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "failed" | "cancelled")
    }
}

/// How many tasks of one server are shown: the newest.
const SHOWN: i64 = 50;

fn row_to_record(row: &SqliteRow) -> Result<TaskRecord> {
    let poll: Option<i64> = row.try_get("poll_ms")?;
    let pid: i64 = row.try_get("recorder_pid")?;
    Ok(TaskRecord {
        server_id: row.try_get("server_id")?,
        task_id: row.try_get("task_id")?,
        tool: row.try_get("tool")?,
        status: row.try_get("status")?,
        status_message: row.try_get("status_message")?,
        poll_ms: poll.and_then(|p| u32::try_from(p).ok()),
        recorder_pid: u32::try_from(pid).unwrap_or_default(),
        started_at: row.try_get("started_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

const COLUMNS: &str = "server_id, task_id, tool, status, status_message, poll_ms, recorder_pid, \
                       started_at, updated_at";

impl Registry {
    /// Records a task's status as this process saw it; true if it changed.
    pub async fn record_task(
        &self,
        server_id: &str,
        tool: &str,
        task: &gatehouse_mcp::Task,
    ) -> Result<bool> {
        let poll = task.poll_interval_ms().and_then(|p| i64::try_from(p).ok());
        let changed = sqlx::query(
            "INSERT INTO tasks (server_id, task_id, tool, status, status_message, poll_ms, recorder_pid) \
             VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT(server_id, task_id) DO UPDATE SET status = excluded.status, \
               status_message = excluded.status_message, poll_ms = excluded.poll_ms, \
               updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
             WHERE tasks.status IS NOT excluded.status \
               OR tasks.status_message IS NOT excluded.status_message",
        )
        .bind(server_id)
        .bind(&task.task_id)
        .bind(tool)
        .bind(&task.status)
        .bind(&task.status_message)
        .bind(poll)
        .bind(i64::from(std::process::id()))
        .execute(self.pool())
        .await?
        .rows_affected();
        Ok(changed > 0)
    }

    /// Marks a task as ended without the server saying so (its server or its poller is gone).
    pub async fn abandon_task(&self, server_id: &str, task_id: &str, why: &str) -> Result<()> {
        sqlx::query(
            "UPDATE tasks SET status = 'failed', status_message = ?, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
             WHERE server_id = ? AND task_id = ?",
        )
        .bind(why)
        .bind(server_id)
        .bind(task_id)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// A server's tasks, newest first.
    pub async fn tasks(&self, server_id: &str) -> Result<Vec<TaskRecord>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM tasks WHERE server_id = ? ORDER BY started_at DESC, rowid DESC LIMIT {SHOWN}"
        );
        let rows = sqlx::query(&sql)
            .bind(server_id)
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(row_to_record).collect()
    }

    /// A server's tasks that have not finished yet.
    pub async fn unfinished_tasks(&self, server_id: &str) -> Result<Vec<TaskRecord>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM tasks WHERE server_id = ? \
             AND status NOT IN ('completed', 'failed', 'cancelled') ORDER BY started_at"
        );
        let rows = sqlx::query(&sql)
            .bind(server_id)
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(row_to_record).collect()
    }
}
