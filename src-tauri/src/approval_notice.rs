//! An OS notification when a request waits for the person and the window is not focused (or
//! is minimised), so nobody misses a dialog: it says which server asks and what for.

use gatehouse_host::approvals::{PendingApproval, Question};
use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;

/// Notifies about `pending` unless the main window has the focus.
pub fn notify_if_unfocused(app: &AppHandle, pending: &PendingApproval) {
    let focused = app
        .get_webview_window("main")
        .and_then(|w| w.is_focused().ok())
        .unwrap_or(false);
    if focused {
        return;
    }
    let sent = app
        .notification()
        .builder()
        .title("Gatehouse needs your answer")
        .body(summary(pending))
        .show();
    if let Err(e) = sent {
        tracing::info!("cannot show a notification: {e}");
    }
}

/// One line: who asks, and what.
fn summary(pending: &PendingApproval) -> String {
    let what = match &pending.question {
        Question::ToolCall { tool, .. } => format!("wants to call `{tool}`"),
        Question::Sampling { .. } => "asks for a model's reply".to_owned(),
        Question::Elicitation { .. } => "asks you for input".to_owned(),
        Question::OpenUrl { domain, .. } => format!("asks you to open a page on {domain}"),
        Question::Request { method, .. } => format!("asks to run `{method}`"),
    };
    format!("{} {what}", pending.server)
}
