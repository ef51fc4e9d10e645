//! The IPC commands for the gateway's clients, which the Clients page is built on: the
//! clients (tokens are never listed), one client with its profile and recent requests, and
//! changing a client's profile or the default profile (all of a change or none of it); adding
//! and removing a client, its naming choice, its token (created and returned once, never kept
//! by the window; revoked), and the gateway's HTTP setting (for the connect snippet).

use std::sync::Arc;

use gatehouse_host::Host;
use gatehouse_host::gateway::client_view::ClientView;
use gatehouse_host::gateway::clients::ClientRecord;
use gatehouse_host::gateway::http::settings::HttpEndpoint;
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

/// Adds a client with no token yet.
#[tauri::command]
#[specta::specta]
pub async fn clients_add(host: HostState<'_>, name: String) -> Result<ClientRecord, IpcError> {
    Ok(host.clients().add(&name).await?)
}

/// Removes a client and its token.
#[tauri::command]
#[specta::specta]
pub async fn clients_remove(host: HostState<'_>, name: String) -> Result<(), IpcError> {
    Ok(host.clients().remove(&name).await?)
}

/// Creates the client's token (replacing the one it had) and returns it, to be shown once: it
/// is kept only in the keyring.
#[tauri::command]
#[specta::specta]
pub async fn clients_create_token(host: HostState<'_>, name: String) -> Result<String, IpcError> {
    Ok(host.clients().create_token(&name).await?.into_exposed())
}

/// Revokes the client's token.
#[tauri::command]
#[specta::specta]
pub async fn clients_revoke_token(host: HostState<'_>, name: String) -> Result<(), IpcError> {
    Ok(host.clients().revoke_token(&name).await?)
}

/// Sets whether the client sees the servers' prefix on every tool and prompt name.
#[tauri::command]
#[specta::specta]
pub async fn clients_set_prefix(
    host: HostState<'_>,
    name: String,
    prefix: bool,
) -> Result<ClientRecord, IpcError> {
    Ok(host.clients().set_prefix(&name, prefix).await?)
}

/// Whether the gateway serves HTTP, on which port, and whether the app listens there now.
#[tauri::command]
#[specta::specta]
pub async fn gateway_http_settings(host: HostState<'_>) -> Result<HttpEndpoint, IpcError> {
    Ok(host.gateway_http_endpoint().await?)
}

/// Turns the gateway's HTTP endpoint on or off, on `port` when given (else the port it had);
/// the engine follows within about half a second.
#[tauri::command]
#[specta::specta]
pub async fn gateway_set_http(
    host: HostState<'_>,
    enabled: bool,
    port: Option<u16>,
) -> Result<HttpEndpoint, IpcError> {
    host.set_gateway_http(enabled, port).await?;
    Ok(host.gateway_http_endpoint().await?)
}
