//! `gatehouse connect AGENT --undo`: the agent's file as it was before the latest connect not
//! yet undone, byte for byte from the backup in the data directory. Refused, nothing written,
//! when the file changed after the connect (it no longer hashes to what was written), unless
//! forced; the connect is then recorded as undone.

use std::path::PathBuf;

use serde::Serialize;

use super::backup::{current_bytes, hash, read_backup, write_atomic};
use super::json_rewrite::project_of;
use super::record::{Connection, active, mark_undone};
use super::sealed::BackupKey;
use super::target::same_file;
use crate::agents::model::Agent;
use crate::error::{HostError, Result};
use crate::host::Host;

/// What an undo restored.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Undone {
    pub file: PathBuf,
    pub backup: PathBuf,
    pub connected_at: String,
    /// The file had changed after the connect and was restored anyway (`--force`).
    pub forced: bool,
}

/// Restores the original of `agent`'s latest connect not undone; with `project`, of that
/// project's files (a file under it, or its section of Claude Code's `~/.claude.json`).
pub async fn undo(
    host: &Host,
    agent: Agent,
    project: Option<&std::path::Path>,
    force: bool,
) -> Result<Undone> {
    let pool = host.store().pool();
    let connections = active(pool, agent).await?;
    let Some(connection) = connections.into_iter().find(|c| of_project(c, project)) else {
        return Err(HostError::NotFound(format!(
            "{} has no connect to undo{}",
            agent.title(),
            project.map_or(String::new(), |p| format!(" in project {}", p.display()))
        )));
    };
    let sealed = read_backup(&connection.backup)?;
    let original = BackupKey::of(host).await?.open(&sealed)?;
    if hash(&original) != connection.original_hash {
        return Err(HostError::Corrupt(format!(
            "the backup {} is not the file Gatehouse kept; nothing was restored",
            connection.backup.display()
        )));
    }
    let now = current_bytes(&connection.file)?.unwrap_or_default();
    let changed = hash(&now) != connection.written_hash;
    if changed && !force {
        return Err(HostError::Validation(format!(
            "{} changed after Gatehouse connected it ({}); nothing was restored. Restore it anyway, losing those changes, with --force (the original is kept in {})",
            connection.file.display(),
            connection.connected_at,
            connection.backup.display()
        )));
    }
    write_atomic(&connection.file, &original)?;
    mark_undone(pool, connection.id).await?;
    Ok(Undone {
        file: connection.file,
        backup: connection.backup,
        connected_at: connection.connected_at,
        forced: changed,
    })
}

/// Whether the connect was of `project`'s files (`None`: any of the agent's).
fn of_project(connection: &Connection, project: Option<&std::path::Path>) -> bool {
    let Some(dir) = project else {
        return true;
    };
    match connection.section.as_deref().map(project_of) {
        Some(Ok(section_project)) => same_file(std::path::Path::new(&section_project), dir),
        Some(Err(_)) => false,
        None => std::fs::canonicalize(dir).is_ok_and(|dir| {
            std::fs::canonicalize(&connection.file)
                .unwrap_or_else(|_| connection.file.clone())
                .starts_with(dir)
        }),
    }
}
