//! The IPC commands: thin async wrappers over the engine's [`Host`] API.

use std::sync::Arc;

use gatehouse_host::{Host, ServerInput, ServerView, TaskRecord, ToolInfo};
use tauri::State;
use tauri::ipc::Channel;

use crate::calls::{self, CallEvent, CallRequest, CallResultView, PendingCalls};
use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

#[tauri::command]
#[specta::specta]
pub async fn list_servers(host: HostState<'_>) -> Result<Vec<ServerView>, IpcError> {
    Ok(host.list_servers().await?)
}

#[tauri::command]
#[specta::specta]
pub async fn add_server(host: HostState<'_>, input: ServerInput) -> Result<ServerView, IpcError> {
    Ok(host.add_server(input).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn update_server(
    host: HostState<'_>,
    id: String,
    input: ServerInput,
) -> Result<ServerView, IpcError> {
    Ok(host.update_server(&id, input).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn remove_server(host: HostState<'_>, id: String) -> Result<(), IpcError> {
    host.remove_server(&id).await?;
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub async fn set_server_enabled(
    host: HostState<'_>,
    id: String,
    enabled: bool,
) -> Result<ServerView, IpcError> {
    Ok(host.set_enabled(&id, enabled).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn reconnect_server(host: HostState<'_>, id: String) -> Result<ServerView, IpcError> {
    Ok(host.reconnect(&id).await?)
}

/// Stops a server's live session by hand (gracefully); it stays stopped until started.
#[tauri::command]
#[specta::specta]
pub async fn stop_server(host: HostState<'_>, id: String) -> Result<ServerView, IpcError> {
    Ok(host.stop_server(&id).await?)
}

/// Starts a server that was stopped, crashed or failed.
#[tauri::command]
#[specta::specta]
pub async fn start_server(host: HostState<'_>, id: String) -> Result<ServerView, IpcError> {
    Ok(host.start_server(&id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_tools(host: HostState<'_>, id: String) -> Result<Vec<ToolInfo>, IpcError> {
    Ok(host.tools(&id).await?)
}

/// The connected server's icon as a checked `data:` URI (see `gatehouse_host::icons`), for a
/// window in the `light` or `dark` theme; `null` when it declares none that may be shown.
#[tauri::command]
#[specta::specta]
pub async fn server_icon(
    host: HostState<'_>,
    id: String,
    theme: Option<String>,
) -> Result<Option<String>, IpcError> {
    let theme = theme.filter(|t| t == "light" || t == "dark");
    Ok(host.server_icon(&id, theme.as_deref()).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_tasks(host: HostState<'_>, id: String) -> Result<Vec<TaskRecord>, IpcError> {
    Ok(host.tasks(&id).await?)
}

/// Calls a tool on the server's live session as the person's own call; progress and task
/// statuses arrive on the event channel. The call id names the call for [`cancel_call`]. (The
/// arguments are `tool_arguments`: `arguments` is no name for a JavaScript parameter.)
#[tauri::command]
#[specta::specta]
pub async fn call_tool(
    host: HostState<'_>,
    pending: State<'_, PendingCalls>,
    id: String,
    call_id: String,
    tool: String,
    tool_arguments: serde_json::Value,
    on_event: Channel<CallEvent>,
) -> Result<CallResultView, IpcError> {
    let request = CallRequest {
        server_id: id,
        call_id,
        tool,
        arguments: tool_arguments,
    };
    calls::run(&host, &pending, request, &on_event).await
}

/// Cancels a running call; false if no call with that id is running.
#[tauri::command]
#[specta::specta]
pub fn cancel_call(pending: State<'_, PendingCalls>, call_id: String) -> bool {
    pending.cancel(&call_id)
}
