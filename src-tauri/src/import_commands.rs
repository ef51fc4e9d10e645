//! The IPC commands of the window's Import step: the agents whose config files exist here,
//! the preview of importing one (every server, every value that goes to the keyring masked),
//! and carrying out exactly the plan that was previewed. The plan, with the secret values it
//! holds, stays in the engine (one at a time, [`PendingImport`]); the window gets its masked
//! view and an id, and applies it by that id, so what is written is what the person saw.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use gatehouse_host::agent_import::convert::env_name;
use gatehouse_host::agent_import::plan::ImportPlan;
use gatehouse_host::agent_import::{self, Choices, OnClash, Written};
use gatehouse_host::agents::through::{DEFAULT_GATEWAY_PORT, through_gatehouse};
use gatehouse_host::agents::{Agent, Places, discover};
use gatehouse_host::{Host, HostError};
use serde::{Deserialize, Serialize};
use tauri::State;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// The plan last previewed, kept until it is applied or another is previewed.
#[derive(Default)]
pub struct PendingImport(Mutex<Option<(String, ImportPlan)>>);

/// An agent whose config files exist on this machine (or in the project given).
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AgentFound {
    pub agent: Agent,
    pub title: String,
    pub files: Vec<PathBuf>,
    pub servers: u32,
    /// Servers that already go through Gatehouse.
    pub through_gatehouse: u32,
}

/// What the person chose in the preview.
#[derive(Debug, Clone, Default, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportChoices {
    /// `skip`, `rename` or `replace` for every clash; none: each clash blocks the import.
    pub on_clash: Option<String>,
    /// Entries left out, by the agent's name for them.
    pub skip: Vec<String>,
    /// Values of the agent's inputs (VS Code `${input:ID}`), by id.
    pub inputs: Vec<InputValue>,
}

/// One input's value, as the person typed it.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct InputValue {
    pub id: String,
    pub value: String,
}

/// A plan to show, and the id to apply it by.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ImportPreview {
    pub id: String,
    pub plan: ImportPlan,
}

fn places() -> Result<Places, IpcError> {
    Places::from_env()
        .ok_or_else(|| HostError::Validation("no home directory is known".into()).into())
}

/// The project folder the window gave (none when empty): a full path to a folder.
pub(crate) fn project_dir(project: Option<String>) -> Result<Option<PathBuf>, IpcError> {
    match project
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
    {
        None => Ok(None),
        Some(dir) if Path::new(&dir).is_absolute() && Path::new(&dir).is_dir() => {
            Ok(Some(dir.into()))
        }
        Some(dir) => {
            Err(HostError::Validation(format!("{dir} is not a folder (give its full path)")).into())
        }
    }
}

/// The agents with config files here (and in `project`), with how many servers each has.
#[tauri::command]
#[specta::specta]
pub async fn agents_found(project: Option<String>) -> Result<Vec<AgentFound>, IpcError> {
    let places = places()?;
    let project = project_dir(project)?;
    let files = tauri::async_runtime::spawn_blocking(move || discover(&places, project.as_deref()))
        .await
        .map_err(|e| HostError::Validation(format!("cannot read the agents' files: {e}")))?;
    let mut found: Vec<AgentFound> = Vec::new();
    for file in files {
        let servers = file.servers.len() as u32;
        let through = file
            .servers
            .iter()
            .filter(|s| through_gatehouse(s, &[DEFAULT_GATEWAY_PORT]))
            .count() as u32;
        match found.iter_mut().find(|a| a.agent == file.agent) {
            Some(agent) => {
                if !agent.files.contains(&file.path) {
                    agent.files.push(file.path);
                }
                agent.servers += servers;
                agent.through_gatehouse += through;
            }
            None => found.push(AgentFound {
                agent: file.agent,
                title: file.agent.title().to_owned(),
                files: vec![file.path],
                servers,
                through_gatehouse: through,
            }),
        }
    }
    Ok(found)
}

/// The plan for importing `agent`'s servers, to show; kept to be applied by its id.
#[tauri::command]
#[specta::specta]
pub async fn import_preview(
    host: HostState<'_>,
    pending: State<'_, PendingImport>,
    agent: Agent,
    project: Option<String>,
    choices: ImportChoices,
) -> Result<ImportPreview, IpcError> {
    let places = places()?;
    let project = project_dir(project)?;
    let on_clash = match choices.on_clash.as_deref() {
        None | Some("") => None,
        Some("skip") => Some(OnClash::Skip),
        Some("rename") => Some(OnClash::Rename),
        Some("replace") => Some(OnClash::Replace),
        Some(other) => {
            return Err(HostError::Validation(format!("unknown clash choice `{other}`")).into());
        }
    };
    let choices = Choices {
        skip: choices.skip.into_iter().collect(),
        on_clash,
        inputs: choices
            .inputs
            .into_iter()
            .filter(|i| !i.value.is_empty())
            .map(|i| (env_name(&i.id), i.value))
            .collect(),
        ..Choices::default()
    };
    let plan = agent_import::preview(
        &host,
        &places,
        agent,
        project.as_deref(),
        &choices,
        &[DEFAULT_GATEWAY_PORT],
    )
    .await?;
    let id = uuid::Uuid::new_v4().to_string();
    if let Ok(mut kept) = pending.0.lock() {
        *kept = Some((id.clone(), plan.clone()));
    }
    Ok(ImportPreview { id, plan })
}

/// Imports the plan previewed under `id` (refused if another was previewed since, or if an
/// agent's file changed since the preview).
#[tauri::command]
#[specta::specta]
pub async fn import_apply(
    host: HostState<'_>,
    pending: State<'_, PendingImport>,
    id: String,
) -> Result<Vec<Written>, IpcError> {
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
    Ok(agent_import::apply(&host, &plan).await?)
}
