//! Engine events forwarded to the webview as typed Tauri events.

use std::sync::Arc;

use gatehouse_host::{EngineEvent, Host, ServerStatus};
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Manager};
use tauri_specta::Event;
use tokio::sync::broadcast;

use crate::approval_notice::{NoticeInput, Notices};

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

/// Forwards engine events to the webview until the engine goes away.
pub async fn forward(
    app: AppHandle,
    mut events: broadcast::Receiver<EngineEvent>,
    notices: Notices,
) {
    loop {
        match events.recv().await {
            Ok(EngineEvent::ServerStatus { id, status }) => {
                if let Err(e) = (ServerStatusEvent { id, status }).emit(&app) {
                    tracing::warn!("cannot send a status event to the window: {e}");
                }
            }
            Ok(EngineEvent::TasksChanged { id }) => {
                if let Err(e) = (TasksChangedEvent { id }).emit(&app) {
                    tracing::warn!("cannot send a task event to the window: {e}");
                }
            }
            Ok(EngineEvent::ApprovalsChanged { pending }) => {
                // A request that timed out, or whose requester gave up, leaves its notification.
                if let Some(host) = app.try_state::<Arc<Host>>() {
                    let ids = host.pending_approvals().into_iter().map(|p| p.id).collect();
                    notices.send(NoticeInput::Waiting(ids));
                }
                let pending = u32::try_from(pending).unwrap_or(u32::MAX);
                if let Err(e) = (ApprovalsChangedEvent { pending }).emit(&app) {
                    tracing::warn!("cannot send an approvals event to the window: {e}");
                }
            }
            Ok(EngineEvent::ApprovalAsked(pending)) => {
                notices.send(NoticeInput::Asked(pending));
            }
            // The window follows the queue through `ApprovalsChanged`, which a withdrawal
            // sends too: the withdrawn request leaves the dialog and the Approvals page.
            // Likewise an answer given elsewhere (the CLI's `approvals answer`). Its
            // notification goes.
            Ok(
                EngineEvent::ApprovalWithdrawn { id, .. }
                | EngineEvent::ApprovalAnswered { id, .. },
            ) => notices.send(NoticeInput::Gone(id)),
            Ok(EngineEvent::AgentsPaused { paused }) => {
                if let Err(e) = (AgentsPausedEvent { paused }).emit(&app) {
                    tracing::warn!("cannot send a pause event to the window: {e}");
                }
            }
            // The agents' sessions follow profiles; the window reads them when it shows them.
            Ok(EngineEvent::ClientProfilesChanged) => {}
            Err(broadcast::error::RecvError::Lagged(n)) => {
                tracing::warn!(
                    "{n} engine events were dropped; the window will catch up on its next refresh"
                );
            }
            Err(broadcast::error::RecvError::Closed) => break,
        }
    }
}
