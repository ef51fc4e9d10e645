//! The first run's IPC command: the demo server added (`gatehouse demo-server`, run by the CLI
//! installed beside the app, as the packages install it at /usr/bin/gatehouse and a build puts
//! it beside the app in the target folder; else `gatehouse` on `PATH`).

use std::sync::Arc;

use gatehouse_host::{Host, ServerView};
use tauri::State;

use crate::connect_commands::gatehouse_cli;
use crate::ipc_error::IpcError;

/// Adds the demo server as `demo` (or returns it, when it is there already).
#[tauri::command]
#[specta::specta]
pub async fn add_demo_server(host: State<'_, Arc<Host>>) -> Result<ServerView, IpcError> {
    Ok(host.add_demo_server(&gatehouse_cli()).await?)
}
