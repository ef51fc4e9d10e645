//! The IPC commands for the gateway's clients, which the Clients page is built on: the
//! clients (tokens are never listed), one client with its profile and recent requests, and
//! changing a client's profile or the default profile (all of a change or none of it).

use std::sync::Arc;

use gatehouse_host::Host;
use gatehouse_host::gateway::client_view::ClientView;
use gatehouse_host::gateway::clients::ClientRecord;
use gatehouse_host::gateway::profile_store::ClientProfile;
use gatehouse_host::gateway::profiles::ProfileChange;
use tauri::State;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// Every client, by name.
#[tauri::command]
#[specta::specta]
pub async fn clients_list(host: HostState<'_>) -> Result<Vec<ClientRecord>, IpcError> {
    Ok(host.clients().list().await?)
}

/// One client: its record, profile and recent requests.
#[tauri::command]
#[specta::specta]
pub async fn clients_show(host: HostState<'_>, name: String) -> Result<ClientView, IpcError> {
    Ok(host.client_view(&name).await?)
}

/// A client's profile (`name` none: the default profile).
#[tauri::command]
#[specta::specta]
pub async fn clients_profile(
    host: HostState<'_>,
    name: Option<String>,
) -> Result<ClientProfile, IpcError> {
    Ok(host.client_profiles().get(name.as_deref()).await?)
}

/// Changes a client's profile (`name` none: the default profile); the running engine tells the
/// affected agents within a second.
#[tauri::command]
#[specta::specta]
pub async fn clients_set_profile(
    host: HostState<'_>,
    name: Option<String>,
    change: ProfileChange,
) -> Result<ClientProfile, IpcError> {
    Ok(host.client_profiles().set(name.as_deref(), &change).await?)
}
