//! Tasks (2025-11-25 basic/utilities/tasks): task-augmented `tools/call` when the server's
//! `tasks.requests.tools.call` capability and the tool's `execution.taskSupport` allow it,
//! `tasks/get` polling at the server's `pollInterval` (clamped, `task`), `tasks/result`,
//! `tasks/list` and `tasks/cancel`. [`Client::run_tool_task`] turns a task into one logical
//! call: create, poll until terminal (status updates go to the caller), fetch the result;
//! dropping it cancels the task on the server. `call_tool` runs a tool that requires a task so.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::client::Client;
use crate::error::{McpError, Result};
use crate::features::tools::CallToolResult;
use crate::peer::Peer;
use crate::types::{Page, Tool};

pub(crate) use super::task::parse_task;
pub use super::task::{Task, TaskSupport};

/// The capability that allows task-augmented tool calls.
const TOOL_TASKS: &str = "tasks.requests.tools.call";

impl Client {
    /// Whether `tool` can be called as a task on this server (capability and tool both allow).
    pub fn can_run_as_task(&self, tool: &Tool) -> bool {
        self.server_declares(TOOL_TASKS) && TaskSupport::of(tool) != TaskSupport::Forbidden
    }

    /// Starts a task-augmented `tools/call` and returns the created task.
    pub async fn start_tool_task(
        &self,
        name: &str,
        arguments: Option<Value>,
        ttl: Option<u64>,
    ) -> Result<Task> {
        self.require_capability(TOOL_TASKS, "task-augmented tool calls")?;
        let mut task = json!({});
        if let Some(ttl) = ttl {
            task["ttl"] = json!(ttl);
        }
        let mut params = json!({ "name": name, "task": task });
        if let Some(arguments) = arguments {
            params["arguments"] = arguments;
        }
        let created = self
            .peer()
            .request("tools/call", Some(params), self.request_timeout())
            .await?;
        let task = created
            .get("task")
            .cloned()
            .ok_or_else(|| McpError::InvalidResponse {
                method: "tools/call".into(),
                message: "a task-augmented call must answer with `task`".into(),
            })?;
        parse_task("tools/call", task)
    }

    /// The task's current state.
    pub async fn get_task(&self, task_id: &str) -> Result<Task> {
        let raw = self
            .peer()
            .request(
                "tasks/get",
                Some(json!({ "taskId": task_id })),
                self.request_timeout(),
            )
            .await?;
        parse_task("tasks/get", raw)
    }

    /// The finished task's tool result; the server holds the request until the task ends.
    pub async fn task_tool_result(
        &self,
        task_id: &str,
        tool: Option<&Tool>,
        timeout: Duration,
    ) -> Result<CallToolResult> {
        let raw = self
            .peer()
            .request("tasks/result", Some(json!({ "taskId": task_id })), timeout)
            .await?;
        Ok(CallToolResult::parse(raw, tool).await)
    }

    /// Every task the server knows of for this client.
    pub async fn list_tasks(&self) -> Result<Page<Task>> {
        self.require_capability("tasks.list", "listing tasks")?;
        self.list_all("tasks/list", "tasks", None).await
    }

    /// Asks the server to cancel a task.
    pub async fn cancel_task(&self, task_id: &str) -> Result<Task> {
        self.require_capability("tasks.cancel", "cancelling tasks")?;
        let raw = self
            .peer()
            .request(
                "tasks/cancel",
                Some(json!({ "taskId": task_id })),
                self.request_timeout(),
            )
            .await?;
        parse_task("tasks/cancel", raw)
    }

    /// Runs a tool as a task to the end: status updates go to `statuses`; the result comes back
    /// as for a plain call. If the caller stops waiting, the task is cancelled on the server.
    pub async fn run_tool_task(
        &self,
        name: &str,
        arguments: Option<Value>,
        statuses: Option<mpsc::Sender<Task>>,
        timeout: Duration,
    ) -> Result<CallToolResult> {
        let mut task = self.start_tool_task(name, arguments, None).await?;
        let guard = CancelOnDrop {
            peer: self.peer().clone(),
            task_id: task.task_id.clone(),
            armed: self.server_declares("tasks.cancel"),
        };
        let mut statuses = statuses.map(crate::updates::LatestSink::new);
        loop {
            if let Some(statuses) = &mut statuses {
                statuses.offer(task.clone());
            }
            // `input_required` also goes to tasks/result: the server sends its request on that
            // exchange (2025-11-25 tasks, "Input Required Status").
            if task.is_terminal() || task.status == "input_required" {
                break;
            }
            tokio::time::sleep(task.poll_every()).await;
            task = self.get_task(&task.task_id).await?;
        }
        if let Some(statuses) = &mut statuses {
            statuses.flush();
        }
        let result = self
            .task_tool_result(&task.task_id, self.cached_tool(name).as_deref(), timeout)
            .await;
        guard.disarm();
        result
    }
}

/// Cancels an abandoned task on the server, from outside the dropped future.
pub(crate) struct CancelOnDrop {
    pub(crate) peer: Peer,
    pub(crate) task_id: String,
    pub(crate) armed: bool,
}

impl CancelOnDrop {
    pub(crate) fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let peer = self.peer.clone();
        let task_id = std::mem::take(&mut self.task_id);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let params = Some(json!({ "taskId": task_id }));
                if let Err(e) = peer
                    .request("tasks/cancel", params, Duration::from_secs(10))
                    .await
                {
                    tracing::debug!("cancelling an abandoned task failed: {e}");
                }
            });
        }
    }
}
