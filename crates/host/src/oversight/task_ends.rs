//! The end of a task the gateway handed a 2026-07-28 client (`oversight::client_tasks`), on the
//! audit log once: a `call_finished` row (source `gateway`, the client as the caller, the task's
//! id and status, its result or error), whether the agent's `tasks/get` saw it terminal, the
//! engine's own follow-up did (`gateway::task_follow`), or the task was dropped before either
//! (`expired` at its ttl, `evicted` to make room, `engine_stopped` when the engine stops). The
//! call's own rows ended when the task was made.

use std::time::Duration;

use serde_json::{Value, json};

use super::audit::{AuditEvent, AuditKind, AuditLog};
use super::client_tasks::{Held, TaskHandles};
use super::gate::Source;

/// How long the engine's stop waits for a follow-up recording a task's end right then.
const RECORDING_WITHIN: Duration = Duration::from_secs(5);

/// Whether a task's status is one it ends in.
pub fn terminal(status: &str) -> bool {
    matches!(status, "completed" | "failed" | "cancelled")
}

/// How a task's end came to be known.
#[derive(Debug, Clone, Copy)]
pub enum End<'a> {
    /// A `tasks/get` result showing it terminal, seen by the agent or by the engine.
    Seen { got: &'a Value, by: Seer },
    /// Dropped before its end was seen: why (`expired`, `evicted`, `engine_stopped`).
    Dropped { why: &'static str },
}

/// Who saw a task terminal first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seer {
    Agent,
    Engine,
}

/// Records the end of the task `id` (the caller made sure it is the first: `TaskHandles::end`).
pub async fn record(audit: &AuditLog, id: &str, held: &Held, end: End<'_>) {
    let (status, error_type, outcome, seen_by) = match end {
        End::Seen { got, by } => {
            let status = got
                .get("status")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let tool_error = got.pointer("/result/isError") == Some(&Value::Bool(true));
            let error_type = match status {
                "failed" => Some("task_failed"),
                "cancelled" => Some("cancelled"),
                _ => tool_error.then_some("tool_error"),
            };
            let outcome = got.get("result").or_else(|| got.get("error")).cloned();
            let by = match by {
                Seer::Agent => "agent",
                Seer::Engine => "engine",
            };
            (status, error_type, outcome, Some(by))
        }
        End::Dropped { why } => (held.status.as_str(), Some(why), None, None),
    };
    let event = AuditEvent {
        kind: AuditKind::CallFinished,
        server: Some(held.server.clone()),
        source: Some(Source::Gateway.as_str().to_owned()),
        method: Some("tools/call".to_owned()),
        tool: Some(held.tool.clone()),
        error_type: error_type.map(str::to_owned),
        detail: json!({
            "caller": held.client,
            "task": { "id": id, "status": status },
            "result": outcome,
            "seenBy": seen_by,
        }),
        ..AuditEvent::default()
    };
    if let Err(e) = audit.append(event).await {
        tracing::warn!("cannot record the end of task {id} on the audit log: {e}");
    }
}

/// The engine stops: every task's follow-up is stopped (one recording an end is let finish),
/// and each task whose end is not on record gets an `engine_stopped` row with its last status.
pub async fn stop_all(tasks: &TaskHandles, audit: &AuditLog) {
    for drained in tasks.drain() {
        if let Some(poller) = drained.poller {
            if !drained.held.ended {
                poller.abort();
            }
            let stop = poller.abort_handle();
            if tokio::time::timeout(RECORDING_WITHIN, poller)
                .await
                .is_err()
            {
                stop.abort();
                tracing::warn!("the follow-up of task {} did not stop in time", drained.id);
            }
        }
        if !drained.held.ended {
            let end = End::Dropped {
                why: "engine_stopped",
            };
            record(audit, &drained.id, &drained.held, end).await;
        }
    }
}
