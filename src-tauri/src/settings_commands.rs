//! The IPC commands of the Settings page: starting with the session (the autostart entry that
//! starts this app hidden in the tray, `gatehouse autostart` writes the same one) and pausing
//! every agent's requests (the tray's Pause all agents).

use std::sync::Arc;

use gatehouse_host::autostart::{self, AutostartStatus};
use gatehouse_host::{ErrorCode, Host};
use serde::Serialize;
use tauri::State;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// Whether Gatehouse starts hidden in the tray at login, and the entry that says so.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StartAtLogin {
    pub enabled: bool,
    /// Where the autostart entry is (or would be).
    pub entry: String,
}

impl From<AutostartStatus> for StartAtLogin {
    fn from(status: AutostartStatus) -> Self {
        StartAtLogin {
            enabled: status.enabled,
            entry: status.entry.display().to_string(),
        }
    }
}

/// Whether the app starts at login.
#[tauri::command]
#[specta::specta]
pub fn start_at_login() -> Result<StartAtLogin, IpcError> {
    Ok(autostart::status()?.into())
}

/// Starts this app hidden in the tray at login (`on`), or not.
#[tauri::command]
#[specta::specta]
pub fn set_start_at_login(on: bool) -> Result<StartAtLogin, IpcError> {
    if on {
        let app = std::env::current_exe().map_err(|e| IpcError {
            code: ErrorCode::Io,
            message: format!("cannot tell where this app is: {e}"),
        })?;
        Ok(autostart::enable(&app)?.into())
    } else {
        autostart::disable()?;
        Ok(autostart::status()?.into())
    }
}

/// Whether every agent's requests are asked about (paused).
#[tauri::command]
#[specta::specta]
pub fn agents_paused(host: HostState<'_>) -> bool {
    host.agents_paused()
}

/// Pauses (or resumes) every agent's requests; the change is on the audit log. Returns the
/// state now.
#[tauri::command]
#[specta::specta]
pub async fn set_agents_paused(host: HostState<'_>, paused: bool) -> Result<bool, IpcError> {
    host.set_agents_paused(paused).await?;
    Ok(host.agents_paused())
}
