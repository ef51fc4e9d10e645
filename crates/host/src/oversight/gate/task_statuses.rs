//! The statuses of a tool call that runs as a task, written to the task log as they come (so
//! the app shows a task the CLI started) and passed on to whoever displays them.

use gatehouse_mcp::Task;
use gatehouse_mcp::updates::LatestSink;
use tokio::sync::mpsc;

use crate::store::registry::Registry;

/// Where one call's task statuses are recorded.
pub(super) struct TaskStatuses<'a> {
    pub(super) registry: &'a Registry,
    pub(super) server_id: &'a str,
    pub(super) tool: &'a str,
}

impl TaskStatuses<'_> {
    /// Records each status and passes it on to `display`; returns the last status once the
    /// call is over (its sender dropped).
    pub(super) async fn record(
        &self,
        mut statuses: mpsc::Receiver<Task>,
        display: Option<mpsc::Sender<Task>>,
    ) -> Option<Task> {
        // A display that falls behind skips statuses, but never holds up the record.
        let mut display = display.map(LatestSink::new);
        let mut last = None;
        while let Some(task) = statuses.recv().await {
            self.save(&task).await;
            if let Some(display) = &mut display {
                display.offer(task.clone());
            }
            last = Some(task);
        }
        if let Some(display) = &mut display {
            display.flush();
        }
        last
    }

    /// Records that the caller gave up on an unfinished task.
    pub(super) async fn cancelled(&self, mut task: Task, why: &str) {
        if task.is_terminal() {
            return;
        }
        task.status = "cancelled".into();
        task.status_message = Some(why.to_owned());
        self.save(&task).await;
    }

    /// Writes one status to the task log; a failure is only worth a warning.
    async fn save(&self, task: &Task) {
        if let Err(e) = self
            .registry
            .record_task(self.server_id, self.tool, task)
            .await
        {
            tracing::warn!("cannot record the status of task {}: {e}", task.task_id);
        }
    }
}
