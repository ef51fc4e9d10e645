//! Exporting the audit log to a file, whole or not at all: the export goes to a temporary file
//! in the same directory, which is renamed over the destination only once it is complete and
//! synced, so a failure (an unwritable directory, a full disk) leaves no partial file behind
//! and an existing file untouched. The new file is readable by its owner only, as the
//! temporary file was. The CLI's `audit export -o FILE` and the app's export both use it.

use std::io::BufWriter;
use std::path::Path;

use super::AuditLog;
use super::export::ExportFormat;
use crate::error::{HostError, Result};

impl AuditLog {
    /// Writes every row to the file at `path` in `format` (see [`AuditLog::export`]) and
    /// returns how many. Any failure to write is [`HostError::Io`] naming `path`.
    pub async fn export_to_file(&self, format: ExportFormat, path: &Path) -> Result<u64> {
        let directory = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let mut temp = tempfile::Builder::new()
            .prefix(".gatehouse-export-")
            .tempfile_in(directory)
            .map_err(|e| cannot_write(path, e))?;
        let written = self
            .export(format, BufWriter::new(temp.as_file_mut()))
            .await
            .map_err(|e| match e {
                HostError::Io { source, .. } => cannot_write(path, source),
                other => other,
            })?;
        temp.as_file()
            .sync_all()
            .map_err(|e| cannot_write(path, e))?;
        temp.persist(path)
            .map_err(|e| cannot_write(path, e.error))?;
        Ok(written)
    }
}

fn cannot_write(path: &Path, source: std::io::Error) -> HostError {
    HostError::io(format!("cannot write {}", path.display()), source)
}
