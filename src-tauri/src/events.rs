//! Engine events forwarded to the webview as typed Tauri events, paced and coalesced
//! (`event_batch.rs`).

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::{EngineEvent, Host, ServerStatus};
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Manager};
use tauri_specta::Event;
use tokio::sync::broadcast;

use crate::approval_notice::{NoticeInput, Notices};
use crate::event_batch::EventBatch;

/// A server's connection status changed.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct ServerStatusEvent {
    pub id: String,
    pub status: ServerStatus,
}

/// A server's task log changed: a task started, moved on or ended.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct TasksChangedEvent {
    pub id: String,
}

/// The requests waiting for a person changed: one was asked, answered, timed out or
/// withdrawn. The window fetches the list again (`list_approvals`).
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct ApprovalsChangedEvent {
    pub pending: u32,
}

/// Every agent's requests were paused (asked about) or resumed, from the tray or elsewhere.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct AgentsPausedEvent {
    pub paused: bool,
}

/// The least time between two sends of state events to the window: a change after a quiet
/// moment goes at once, and the changes of a burst are gathered ([`EventBatch`]) until the pace
/// allows the next send.
pub const PACE: Duration = Duration::from_millis(100);

/// Forwards engine events to the webview, paced and coalesced, until the engine goes away.
pub async fn forward(
    app: AppHandle,
    mut events: broadcast::Receiver<EngineEvent>,
    notices: Notices,
) {
    let mut last_send: Option<tokio::time::Instant> = None;
    loop {
        let mut batch = EventBatch::default();
        let mut open = take(events.recv().await, &mut batch, &notices);
        if let Some(sent) = last_send
            && open
        {
            // The pause is the pacing itself: events arriving meanwhile join this send.
            let next = tokio::time::sleep_until(sent + PACE);
            tokio::pin!(next);
            open = loop {
                tokio::select! {
                    () = &mut next => break true,
                    received = events.recv() => if !take(received, &mut batch, &notices) { break false },
                }
            };
        }
        send(&app, batch, &notices);
        last_send = Some(tokio::time::Instant::now());
        if !open {
            return;
        }
    }
}

/// Adds one received event to the batch; false once the engine is gone.
fn take(
    received: Result<EngineEvent, broadcast::error::RecvError>,
    batch: &mut EventBatch,
    notices: &Notices,
) -> bool {
    match received {
        Ok(event) => {
            if let Some(notice) = batch.add(event) {
                notices.send(notice);
            }
            true
        }
        Err(broadcast::error::RecvError::Lagged(n)) => {
            tracing::warn!(
                "{n} engine events were dropped; the window will catch up on its next refresh"
            );
            true
        }
        Err(broadcast::error::RecvError::Closed) => false,
    }
}

/// Sends what the batch gathered.
fn send(app: &AppHandle, batch: EventBatch, notices: &Notices) {
    if batch.is_empty() {
        return;
    }
    for (id, status) in batch.statuses {
        if let Err(e) = (ServerStatusEvent { id, status }).emit(app) {
            tracing::warn!("cannot send a status event to the window: {e}");
        }
    }
    for id in batch.tasks {
        if let Err(e) = (TasksChangedEvent { id }).emit(app) {
            tracing::warn!("cannot send a task event to the window: {e}");
        }
    }
    if let Some(pending) = batch.approvals {
        // A request that timed out, or whose requester gave up, leaves its notification.
        if let Some(host) = app.try_state::<Arc<Host>>() {
            let ids = host.pending_approvals().into_iter().map(|p| p.id).collect();
            notices.send(NoticeInput::Waiting(ids));
        }
        let pending = u32::try_from(pending).unwrap_or(u32::MAX);
        if let Err(e) = (ApprovalsChangedEvent { pending }).emit(app) {
            tracing::warn!("cannot send an approvals event to the window: {e}");
        }
    }
    if let Some(paused) = batch.paused
        && let Err(e) = (AgentsPausedEvent { paused }).emit(app)
    {
        tracing::warn!("cannot send a pause event to the window: {e}");
    }
}
