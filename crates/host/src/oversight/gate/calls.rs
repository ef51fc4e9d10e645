//! A request through the gate: a tool call ([`Gate::call_tool`]) or another request
//! ([`Gate::run`]) is admitted ([`super::admission`]), put on record, sent on its connection,
//! its task statuses followed, and its outcome on record before the caller sees it.
//!
//! The result is returned only after its audit rows are committed: the request received (a tool
//! call's arguments, definition hash and annotations), the decision, and the outcome (its duration,
//! and `error.type` for an error). A caller that gives up cancels the call on the server.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::{CallOptions, McpError};
use serde_json::Value;
use tokio::sync::mpsc;

use super::admission;
use super::decision::CallOutcome;
use super::state::{Gate, Target};
use super::task_statuses::TaskStatuses;
use crate::error::Result;
use crate::vocabulary::request::{Ask, GateRequest, RequestKind, ToolCall};

/// How long, after a cancellation, to wait for a round trip, so that the cancellation sent
/// before it has gone out before the connection closes.
const CANCEL_FLUSH: Duration = Duration::from_secs(2);

impl Gate {
    /// Calls a tool through the gate. `options` carry progress and task-status sinks as usual;
    /// the statuses are also written to the task log. If `cancel` completes first, the call is
    /// cancelled on the server and [`CallOutcome::Cancelled`] returned.
    pub async fn call_tool(
        &self,
        target: Target<'_>,
        call: ToolCall,
        mut options: CallOptions,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallOutcome> {
        let tool = call.tool.clone();
        let (request, definition) = self.request_for(&target, call).await?;
        let mut cancel = std::pin::pin!(cancel);
        let admitted = self
            .admit(&target, &request, definition.as_deref(), cancel.as_mut())
            .await?;
        let (record, edited) = match admitted {
            admission::Admitted::Go { record, edited } => (record, edited),
            admission::Admitted::GaveUp(record) => {
                let gave_up = record.finished(None, std::time::Duration::ZERO);
                self.audit.append(gave_up).await?;
                return Ok(CallOutcome::Cancelled);
            }
        };
        let arguments = match (edited, request.kind) {
            (Some(edited), _) => Some(edited),
            (None, RequestKind::ToolCall { arguments, .. }) => arguments,
            (None, _) => None,
        };
        let started = std::time::Instant::now();
        let tasks = TaskStatuses {
            registry: &self.registry,
            server_id: target.server_id,
            tool: &tool,
        };
        let display = options.task_status.take();
        let (statuses, to_record) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
        options.task_status = Some(statuses);
        let recorded = tasks.record(to_record, display);
        let calling = async {
            // A call that failed because its server died ends with that failure (and its exit
            // status), not as cancelled by the connection's end that follows it.
            tokio::select! {
                biased;
                result = target.client.call_tool(&tool, arguments, options) => Some(result),
                () = cancel.as_mut() => None,
            }
        };
        // The call future ends, and its status sender with it, before the recorder can. The
        // call is polled first: the poll in which it ends, closing the recorder's channel,
        // then ends the recorder too, instead of leaving this task woken by its own poll
        // (which the runtime treats as a yield, waking the other worker for it).
        let (outcome, last_task) = tokio::join!(biased; calling, recorded);
        // The outcome is on record before the caller sees it.
        let finished = record.finished(outcome.as_ref(), started.elapsed());
        self.audit.append(finished).await?;
        match outcome {
            Some(result) => Ok(CallOutcome::Done(result?)),
            None => {
                if let Some(task) = last_task {
                    tasks.cancelled(task, "cancelled by the caller").await;
                }
                // Messages go out in order: once this round trip is answered, the
                // cancellation was sent.
                let _ = tokio::time::timeout(CANCEL_FLUSH, target.client.ping()).await;
                Ok(CallOutcome::Cancelled)
            }
        }
    }

    /// Runs a request of another kind than a tool call through the gate: it is decided and put
    /// on record, `send` (a future not yet started) is run only if it is allowed, and its
    /// outcome is on record before it is returned.
    pub async fn run<T: serde::Serialize>(
        &self,
        target: Target<'_>,
        ask: Ask,
        send: impl Future<Output = std::result::Result<T, McpError>>,
    ) -> Result<T> {
        let request = GateRequest {
            id: uuid::Uuid::new_v4().to_string(),
            source: ask.source,
            caller: ask.caller,
            server: target.server.to_owned(),
            kind: ask.kind,
        };
        let never = std::pin::pin!(std::future::pending::<()>());
        let admitted = self.admit(&target, &request, None, never).await?;
        let record = match admitted {
            admission::Admitted::Go { record, .. } | admission::Admitted::GaveUp(record) => record,
        };
        let started = std::time::Instant::now();
        let outcome = send.await;
        let finished = match &outcome {
            Ok(value) => record.answered(
                serde_json::to_value(value).unwrap_or(Value::Null),
                started.elapsed(),
            ),
            Err(error) => record.failed(error, started.elapsed()),
        };
        self.audit.append(finished).await?;
        Ok(outcome?)
    }

    /// The request for a tool call, with the tool's definition as last listed (listing the
    /// tools first if they were not, so the definition hash is known, and keeping what was
    /// listed in the policy's history).
    async fn request_for(
        &self,
        target: &Target<'_>,
        call: ToolCall,
    ) -> Result<(GateRequest, Option<Arc<gatehouse_mcp::Tool>>)> {
        let mut definition = target.client.cached_tool(&call.tool);
        if definition.is_none() {
            match target.client.list_tools().await {
                Ok(page) => self.tools_listed(target.server_id, &page.items).await?,
                Err(e) => tracing::info!("cannot list the tools of `{}`: {e}", target.server),
            }
            definition = target.client.cached_tool(&call.tool);
        }
        let definition_hash = definition.as_ref().map(|d| self.definition_hashes.of(d));
        let annotations = definition
            .as_ref()
            .and_then(|t| t.extra.get("annotations").cloned())
            .unwrap_or(Value::Null);
        let request = GateRequest {
            id: uuid::Uuid::new_v4().to_string(),
            source: call.source,
            caller: call.caller,
            server: target.server.to_owned(),
            kind: RequestKind::ToolCall {
                tool: call.tool,
                arguments: call.arguments,
                annotations,
                definition_hash,
            },
        };
        Ok((request, definition))
    }
}
