//! The IPC commands of the Settings page: starting with the session (the autostart entry that
//! starts this app hidden in the tray, `gatehouse autostart` writes the same one), pausing
//! every agent's requests (the tray's Pause all agents), the engine's settings, the data
//! directory (opened in the file manager), and About (the version and the bundled libraries'
//! licences, from `licences.json`).

use std::sync::Arc;

use gatehouse_host::autostart::{self, AutostartStatus};
use gatehouse_host::{EngineSettings, ErrorCode, Host};
use serde::{Deserialize, Serialize};
use tauri::State;
use tauri_plugin_opener::OpenerExt;

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

/// The engine's settings (approval timeout, default stop graces, health-check interval, audit
/// retention).
#[tauri::command]
#[specta::specta]
pub async fn engine_settings(host: HostState<'_>) -> Result<EngineSettings, IpcError> {
    Ok(host.settings().await?)
}

/// Stores the engine's settings and applies them at once; a value out of its range is a
/// `validation` error naming it, and nothing is stored.
#[tauri::command]
#[specta::specta]
pub async fn set_engine_settings(
    host: HostState<'_>,
    settings: EngineSettings,
) -> Result<EngineSettings, IpcError> {
    Ok(host.set_settings(settings).await?)
}

/// The data directory this engine keeps everything in.
#[tauri::command]
#[specta::specta]
pub fn data_dir(host: HostState<'_>) -> String {
    host.data_dir().display().to_string()
}

/// Opens the data directory in the file manager.
#[tauri::command]
#[specta::specta]
pub fn open_data_dir(app: tauri::AppHandle, host: HostState<'_>) -> Result<(), IpcError> {
    let dir = host.data_dir().display().to_string();
    app.opener()
        .open_path(&dir, None::<&str>)
        .map_err(|e| IpcError {
            code: ErrorCode::Io,
            message: format!("cannot open {dir} in the file manager: {e}"),
        })
}

/// A library bundled in the app and its licence.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type)]
pub struct Licence {
    pub name: String,
    pub version: String,
    pub licence: String,
    /// `crate` or `npm`.
    pub kind: String,
}

/// The app's version and the licences of the libraries it bundles.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct About {
    pub version: String,
    pub licences: Vec<Licence>,
}

/// The list `scripts/licences.py` writes (drift-checked with `--check`).
const LICENCES: &str = include_str!("../licences.json");

/// The version and the bundled libraries' licences.
#[tauri::command]
#[specta::specta]
pub fn about() -> Result<About, IpcError> {
    let licences = serde_json::from_str(LICENCES).map_err(|e| IpcError {
        code: ErrorCode::Storage,
        message: format!("the licence list is not readable: {e}"),
    })?;
    Ok(About {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        licences,
    })
}
