//! The IPC commands that show an app view in its own webview and carry the host's messages to
//! it: the window places each view over its panel (and hides it under the window's dialogs),
//! and sends it what the AppBridge says. The view's answers come back through the sandbox
//! scheme's relay as `AppViewMessagesEvent`s.

use serde_json::Value;
use tauri::{AppHandle, State};

use crate::apps::OpenViews;
use crate::apps::origins::token_of;
use crate::apps::placement::ViewPlacement;
use crate::apps::view_webviews::{self, ViewWebviewError};
use crate::ipc_error::IpcError;
use gatehouse_host::ErrorCode;

/// Shows the open view `view` (its token or sandbox URL) where `placement` says, or hides it;
/// its webview is created the first time.
#[tauri::command]
#[specta::specta]
pub async fn app_place_view(
    app: AppHandle,
    views: State<'_, OpenViews>,
    view: String,
    placement: ViewPlacement,
) -> Result<(), IpcError> {
    view_webviews::place(&app, &views, token_of(&view), placement)
        .await
        .map_err(ipc_error)
}

/// Hands the open view `view` a JSON-RPC message of the host.
#[tauri::command]
#[specta::specta]
pub async fn app_post_to_view(
    app: AppHandle,
    views: State<'_, OpenViews>,
    view: String,
    message: Value,
) -> Result<(), IpcError> {
    view_webviews::post(&app, &views, token_of(&view), &message).map_err(ipc_error)
}

fn ipc_error(error: ViewWebviewError) -> IpcError {
    let code = match error {
        ViewWebviewError::Closed => ErrorCode::NotFound,
        ViewWebviewError::NoWindow | ViewWebviewError::Tauri(_) => ErrorCode::Io,
    };
    IpcError {
        code,
        message: error.to_string(),
    }
}
