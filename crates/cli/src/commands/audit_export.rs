//! `gatehouse audit export --format jsonl|csv [-o FILE]`: every audit row, oldest first, to
//! stdout or to a file. A file is written whole or not at all: the export goes to a temporary
//! file in the same directory, which is renamed over `FILE` only once it is complete and
//! synced, so a failure (an unwritable directory, a full disk) leaves no partial file behind
//! and an existing `FILE` untouched. The new file is readable by its owner only, as the
//! temporary file was.

use std::io::BufWriter;
use std::path::Path;

use gatehouse_host::{Host, HostError};

use crate::audit_args::AuditExportArgs;

pub async fn run(host: &Host, args: AuditExportArgs) -> Result<(), HostError> {
    let format = args.format.into();
    match &args.output {
        None => {
            let stdout = BufWriter::new(std::io::stdout());
            host.audit().export(format, stdout).await?;
        }
        Some(path) => {
            let directory = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            let mut temp = tempfile::Builder::new()
                .prefix(".gatehouse-export-")
                .tempfile_in(directory)
                .map_err(|e| cannot_write(path, e))?;
            let written = host
                .audit()
                .export(format, BufWriter::new(temp.as_file_mut()))
                .await;
            written.map_err(|e| match e {
                HostError::Io { source, .. } => cannot_write(path, source),
                other => other,
            })?;
            temp.as_file()
                .sync_all()
                .map_err(|e| cannot_write(path, e))?;
            temp.persist(path)
                .map_err(|e| cannot_write(path, e.error))?;
        }
    }
    Ok(())
}

fn cannot_write(path: &Path, source: std::io::Error) -> HostError {
    HostError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    }
}
