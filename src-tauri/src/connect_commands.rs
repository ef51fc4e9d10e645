//! The IPC commands of the window's Connect step: the preview of pointing an agent at
//! Gatehouse (the diff of its config file, its secrets masked; the entries removed and kept;
//! the plaintext secrets left), writing exactly the previewed change, and undoing the agent's
//! latest connect. The plan (with the file's text) stays in the engine, one at a time
//! ([`PendingConnect`]); the window applies it by its id. The entry written runs the
//! `gatehouse` CLI installed beside the app (else the one on `PATH`) on this engine's data
//! directory.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use gatehouse_host::agent_connect::{
    Applied, ConnectRequest, GatewayLaunch, Plan, Undone, apply, preview, undo,
};
use gatehouse_host::agents::{Agent, Places};
use gatehouse_host::{Host, HostError};
use serde::Serialize;
use tauri::State;

use crate::import_commands::project_dir;
use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// The connect last previewed, kept until it is applied or another is previewed.
#[derive(Default)]
pub struct PendingConnect(Mutex<Option<(String, Plan)>>);

/// A connect to show, and the id to apply it by.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ConnectPreview {
    pub id: String,
    pub plan: Plan,
}

/// The CLI the agent is to start: `gatehouse` beside this app's binary (as the packages install
/// it, and as a build puts it), else `gatehouse` on the agent's `PATH`.
pub(crate) fn gatehouse_cli() -> PathBuf {
    let name = if cfg!(windows) {
        "gatehouse.exe"
    } else {
        "gatehouse"
    };
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(name)))
        .filter(|cli| cli.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}

/// The change connecting `agent` would make, to show; kept to be applied by its id.
#[tauri::command]
#[specta::specta]
pub async fn connect_preview(
    host: HostState<'_>,
    pending: State<'_, PendingConnect>,
    agent: Agent,
    project: Option<String>,
) -> Result<ConnectPreview, IpcError> {
    let places = Places::from_env()
        .ok_or_else(|| HostError::Validation("no home directory is known".into()))?;
    let request = ConnectRequest {
        agent,
        places,
        project: project_dir(project)?,
        launch: GatewayLaunch::new(&gatehouse_cli(), Some(host.data_dir()), agent),
    };
    let plan = preview(&host, &request).await?;
    let id = uuid::Uuid::new_v4().to_string();
    if let Ok(mut kept) = pending.0.lock() {
        *kept = Some((id.clone(), plan.clone()));
    }
    Ok(ConnectPreview { id, plan })
}

/// Writes the connect previewed under `id` (refused if another was previewed since, or if the
/// agent's file changed since the preview).
#[tauri::command]
#[specta::specta]
pub async fn connect_apply(
    host: HostState<'_>,
    pending: State<'_, PendingConnect>,
    id: String,
) -> Result<Applied, IpcError> {
    let plan = pending
        .0
        .lock()
        .ok()
        .and_then(|mut kept| match kept.take() {
            Some((kept_id, plan)) if kept_id == id => Some(plan),
            other => {
                *kept = other;
                None
            }
        })
        .ok_or_else(|| {
            HostError::Validation("this preview is no longer the latest; preview again".into())
        })?;
    Ok(apply(&host, &plan).await?)
}

/// Puts back `agent`'s file as it was before its latest connect (with `force`, even though the
/// file changed after it).
#[tauri::command]
#[specta::specta]
pub async fn connect_undo(
    host: HostState<'_>,
    agent: Agent,
    project: Option<String>,
    force: bool,
) -> Result<Undone, IpcError> {
    let project = project_dir(project)?;
    Ok(undo(&host, agent, project.as_deref(), force).await?)
}
