//! Tool calls from the window: a call runs on the server's live session through the host's
//! gate, streams its progress (paced: `progress_pace.rs`) and task statuses on the caller's
//! channel, and can be cancelled by its id while it runs.
//!
//! The arguments are named `toolArguments` on the wire, since `arguments` cannot name a
//! JavaScript parameter.

mod pending;
mod progress_pace;
mod view;

use std::time::Instant;

use gatehouse_host::protocol::CallOptions;
use gatehouse_host::protocol::UPDATE_BUFFER;
use gatehouse_host::{CallOutcome, Host, Source, ToolCall};
use serde_json::Value;
use tauri::ipc::Channel;
use tokio::sync::mpsc;

use crate::ipc_error::IpcError;
pub use pending::PendingCalls;
use progress_pace::ProgressPace;
pub use view::{CallEvent, CallResultView};

/// What the window asks for: the server, the call's own id, the tool and its arguments.
pub struct CallRequest {
    pub server_id: String,
    pub call_id: String,
    pub tool: String,
    pub arguments: Value,
}

/// Runs one call, sending its progress and task statuses to `events`, until it ends or is
/// cancelled through `pending`.
pub async fn run(
    host: &Host,
    pending: &PendingCalls,
    request: CallRequest,
    events: &Channel<CallEvent>,
) -> Result<CallResultView, IpcError> {
    let (cancel, _entry) = pending.begin(&request.call_id)?;
    let (progress, mut progress_updates) = mpsc::channel(UPDATE_BUFFER);
    let (task_status, mut task_updates) = mpsc::channel(UPDATE_BUFFER);
    let options = CallOptions {
        progress: Some(progress),
        task_status: Some(task_status),
        ..CallOptions::default()
    };
    let call = ToolCall {
        tool: request.tool,
        arguments: (!request.arguments.is_null()).then_some(request.arguments),
        source: Source::User,
        caller: None,
    };
    let cancelled = async {
        // A sender dropped without a word is not a cancellation.
        if cancel.await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let calling = host.call_tool(&request.server_id, call, options, cancelled);
    // The call owns the senders: when it ends, both streams end and forwarding stops. Progress
    // is paced (`progress_pace.rs`); task statuses, few and each meaningful, go as they come.
    let send = |event: CallEvent| {
        if let Err(e) = events.send(event) {
            tracing::debug!(
                "the window no longer listens to call {}: {e}",
                request.call_id
            );
        }
    };
    let forwarding = async {
        let mut pace = ProgressPace::default();
        loop {
            let due = pace.due_at();
            tokio::select! {
                Some(update) = progress_updates.recv() => {
                    if let Some(update) = pace.offer(update, Instant::now()) {
                        send(CallEvent::from(update));
                    }
                }
                Some(task) = task_updates.recv() => send(CallEvent::from(task)),
                // The pace's end, not a wait for something: the held update may go now.
                () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now).into()), if due.is_some() => {
                    if let Some(update) = pace.release(Instant::now()) {
                        send(CallEvent::from(update));
                    }
                }
                else => break,
            }
        }
    };
    // The call first: the poll in which it ends (its streams closing) ends the forwarding too,
    // unless an update is still held by the pace (see `gatehouse_host`'s `oversight::gate::calls`).
    let (outcome, ()) = tokio::join!(biased; calling, forwarding);
    Ok(match outcome? {
        CallOutcome::Done(result) => CallResultView::from(result),
        CallOutcome::Cancelled => CallResultView::cancelled(),
    })
}
