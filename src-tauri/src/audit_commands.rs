//! The IPC commands of the Audit page: listing with filters, full-text search, verifying the
//! keyed chain (with which rows are keyed and the head checkpoint's state) and exporting to a
//! file the person names.

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse_host::{
    AuditFilter, AuditRow, ChainReport, CheckOptions, ExportFormat, Host, HostError,
};
use serde::Serialize;
use tauri::State;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// What an export wrote.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ExportSummary {
    /// How many rows.
    pub rows: u32,
    /// The file, as given.
    pub path: String,
}

/// The rows that match `filter`, newest first.
#[tauri::command]
#[specta::specta]
pub async fn audit_list(
    host: HostState<'_>,
    filter: AuditFilter,
) -> Result<Vec<AuditRow>, IpcError> {
    Ok(host.audit_rows(&filter).await?)
}

/// The rows holding every word of `text`, newest first (see `audit::search`).
#[tauri::command]
#[specta::specta]
pub async fn audit_search(
    host: HostState<'_>,
    text: String,
    limit: Option<u32>,
) -> Result<Vec<AuditRow>, IpcError> {
    Ok(host.search_audit(&text, limit).await?)
}

/// Checks the chain with the keyring's key and the head against its checkpoint: intact with
/// its row count, the first row that breaks it, or what cannot be vouched for; with which
/// stretches are keyed and the checkpoint's state.
#[tauri::command]
#[specta::specta]
pub async fn audit_verify(host: HostState<'_>) -> Result<ChainReport, IpcError> {
    // This process's newest head is checkpointed first, so the check compares the latest.
    if let Err(e) = host.flush_audit_checkpoint().await {
        tracing::warn!("cannot write the audit log's head checkpoint: {e}");
    }
    Ok(host.check_audit(&CheckOptions::default()).await?)
}

/// Writes every row to the file at `path` (absolute, or `~/…` for the home directory), whole
/// or not at all.
#[tauri::command]
#[specta::specta]
pub async fn audit_export(
    host: HostState<'_>,
    format: ExportFormat,
    path: String,
) -> Result<ExportSummary, IpcError> {
    let file = export_path(&path)?;
    let rows = host.export_audit_to_file(format, &file).await?;
    Ok(ExportSummary {
        rows: u32::try_from(rows).unwrap_or(u32::MAX),
        path,
    })
}

/// Where an export goes by default: `~/gatehouse-audit.jsonl` or `.csv`.
#[tauri::command]
#[specta::specta]
pub fn audit_export_suggestion(format: ExportFormat) -> String {
    let extension = match format {
        ExportFormat::Jsonl => "jsonl",
        ExportFormat::Csv => "csv",
    };
    format!("~/gatehouse-audit.{extension}")
}

/// `text` as a file path: `~/` is the home directory; anything else must be absolute, as the
/// app's working directory means nothing to the person.
fn export_path(text: &str) -> Result<PathBuf, HostError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(HostError::Validation(
            "give the file to export to, such as ~/gatehouse-audit.jsonl".into(),
        ));
    }
    let path = match text.strip_prefix("~/") {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) if !home.is_empty() => PathBuf::from(home).join(rest),
            _ => {
                return Err(HostError::Validation(
                    "the home directory is unknown: give a full path".into(),
                ));
            }
        },
        None => PathBuf::from(text),
    };
    if !path.is_absolute() {
        return Err(HostError::Validation(format!(
            "`{text}` is not a full path: start it with / or ~/"
        )));
    }
    if path.is_dir() {
        return Err(HostError::Validation(format!(
            "`{text}` is a folder: name a file in it"
        )));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_path_is_full_or_under_home() {
        assert_eq!(
            export_path(" /tmp/audit.csv ").ok(),
            Some(PathBuf::from("/tmp/audit.csv"))
        );
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            assert_eq!(
                export_path("~/a.jsonl").ok(),
                Some(PathBuf::from(home).join("a.jsonl"))
            );
        }
        for (text, says) in [
            ("", "give the file"),
            ("audit.csv", "not a full path"),
            ("/tmp", "is a folder"),
        ] {
            assert!(
                matches!(export_path(text), Err(HostError::Validation(m)) if m.contains(says)),
                "`{text}` must be refused saying `{says}`"
            );
        }
    }
}
