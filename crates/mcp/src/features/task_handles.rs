//! The tasks extension (`io.modelcontextprotocol/tasks`, ext-tasks 2026-07-28), declared in
//! every modern request's capabilities: a server may answer `tools/call` with a task handle
//! (`resultType: "task"`) instead of the result. The
//! client polls `tasks/get` at the server's `pollIntervalMs` until the task is terminal, answers
//! the `inputRequests` of an `input_required` task once per key with the same handler as any
//! server request and sends them with `tasks/update`, and cancels an abandoned task with
//! `tasks/cancel` (never `notifications/cancelled`). A `failed` task ends the call with its
//! JSON-RPC error. The caller sees one logical call; each status goes to the caller's status
//! channel. On HTTP, `Mcp-Name` carries the task id.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use crate::client::Client;
use crate::error::{McpError, Result, RpcError};
use crate::features::tasks::{CancelOnDrop, Task, parse_task};
use crate::features::tools::CallToolResult;

pub use crate::era::TASKS_EXTENSION;

/// The methods of the extension a caller may send about a task it holds.
pub const TASK_METHODS: [&str; 3] = ["tasks/get", "tasks/update", "tasks/cancel"];

impl Client {
    /// Sends one of [`TASK_METHODS`] about a task this server created, as the caller asked it
    /// (`params` carry the server's `taskId`, and `inputResponses` for `tasks/update`), and
    /// returns the server's result as it came.
    pub async fn task_request(&self, method: &str, params: Value) -> Result<Value> {
        if !TASK_METHODS.contains(&method) {
            return Err(McpError::InvalidResponse {
                method: method.to_owned(),
                message: "not a method of the tasks extension".into(),
            });
        }
        self.peer()
            .request(method, Some(params), self.request_timeout())
            .await
    }

    /// Follows a task handle returned by `tools/call` until the task ends, and returns what the
    /// call would have returned. Stops (and cancels the task) after `max_total` if given.
    pub(crate) async fn follow_task(
        &self,
        tool: &str,
        handle: Value,
        statuses: Option<mpsc::Sender<Task>>,
        max_total: Option<Duration>,
    ) -> Result<CallToolResult> {
        let task = parse_task("tools/call", handle)?;
        let guard = CancelOnDrop {
            peer: self.peer().clone(),
            task_id: task.task_id.clone(),
            armed: true,
        };
        let followed = self.poll_until_terminal(task, statuses.as_ref());
        let task =
            match max_total {
                Some(limit) => tokio::time::timeout(limit, followed).await.map_err(|_| {
                    McpError::Timeout {
                        method: "tools/call".into(),
                        timeout: limit,
                    }
                })??,
                None => followed.await?,
            };
        guard.disarm();
        self.task_outcome(tool, task).await
    }

    async fn poll_until_terminal(
        &self,
        mut task: Task,
        statuses: Option<&mpsc::Sender<Task>>,
    ) -> Result<Task> {
        // Keys already answered: a server repeats outstanding requests on every poll until it
        // has taken the answer, and the user must not be asked twice.
        let mut answered = HashSet::new();
        let mut statuses = statuses.cloned().map(crate::updates::LatestSink::new);
        loop {
            if let Some(statuses) = &mut statuses {
                statuses.offer(task.clone());
            }
            if task.is_terminal() {
                if let Some(statuses) = &mut statuses {
                    statuses.flush();
                }
                return Ok(task);
            }
            if task.status == "input_required" {
                self.answer_task_input(&task, &mut answered).await?;
            }
            tokio::time::sleep(task.poll_every()).await;
            task = self.get_task(&task.task_id).await?;
        }
    }

    /// Answers the task's new input requests and sends them with `tasks/update`.
    async fn answer_task_input(&self, task: &Task, answered: &mut HashSet<String>) -> Result<()> {
        let Some(requests) = task.extra.get("inputRequests").and_then(Value::as_object) else {
            return Ok(());
        };
        let fresh: Map<String, Value> = requests
            .iter()
            .filter(|(key, _)| !answered.contains(*key))
            .map(|(key, request)| (key.clone(), request.clone()))
            .collect();
        if fresh.is_empty() {
            return Ok(());
        }
        let responses = self.answer_input_requests(&fresh).await?;
        let params = json!({ "taskId": task.task_id, "inputResponses": responses });
        self.peer()
            .request("tasks/update", Some(params), self.request_timeout())
            .await?;
        answered.extend(fresh.keys().cloned());
        Ok(())
    }

    /// The call's outcome from a terminal task: its result, its error, or its cancellation.
    async fn task_outcome(&self, tool: &str, task: Task) -> Result<CallToolResult> {
        let mut extra = task.extra;
        match task.status.as_str() {
            "completed" => {
                let result = extra
                    .remove("result")
                    .ok_or_else(|| McpError::InvalidResponse {
                        method: "tasks/get".into(),
                        message: "a completed task must carry its `result`".into(),
                    })?;
                Ok(CallToolResult::parse(result, self.cached_tool(tool).as_deref()).await)
            }
            "failed" => {
                let error = extra
                    .remove("error")
                    .and_then(|e| serde_json::from_value::<RpcError>(e).ok())
                    .unwrap_or_else(|| RpcError {
                        code: crate::jsonrpc::codes::INTERNAL_ERROR,
                        message: task
                            .status_message
                            .clone()
                            .unwrap_or_else(|| "the task failed".into()),
                        data: None,
                    });
                Err(McpError::from_rpc("tools/call", error))
            }
            _ => Err(McpError::TaskCancelled {
                task_id: task.task_id,
                message: task.status_message.unwrap_or_default(),
            }),
        }
    }
}
