//! The audit log as [`Host`] operations, for the app and the CLI: listing and searching rows,
//! checking the chain and its checkpoint, exporting rows or the key, and pruning old rows.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::Host;
use crate::error::Result;
use crate::oversight::audit::{
    AuditFilter, AuditRow, ChainReport, CheckOptions, Checkpoint, ExportFormat, PruneReport,
};

impl Host {
    /// Rows matching `filter`, newest first.
    pub async fn audit_rows(&self, filter: &AuditFilter) -> Result<Vec<AuditRow>> {
        self.audit().list(filter).await
    }

    /// Rows whose text matches `text` (full-text search), newest first.
    pub async fn search_audit(&self, text: &str, limit: Option<u32>) -> Result<Vec<AuditRow>> {
        self.audit().search(text, limit).await
    }

    /// A full check of the chain: which parts are keyed, and the checkpoint's state.
    pub async fn check_audit(&self, options: &CheckOptions) -> Result<ChainReport> {
        self.audit().check(options).await
    }

    /// Writes the newest head to the checkpoint now if it is not checkpointed yet.
    pub async fn flush_audit_checkpoint(&self) -> Result<()> {
        self.audit().flush_checkpoint().await
    }

    /// The checkpoint the keyring holds for this data directory, if any.
    pub async fn audit_checkpoint(&self) -> Result<Option<Checkpoint>> {
        self.audit().checkpoint().await
    }

    /// Writes the audit key to a new file at `path` for an auditor; returns the key's id.
    pub async fn export_audit_key(&self, path: &Path) -> Result<String> {
        self.audit().export_key(path).await
    }

    /// Every row, oldest first, to `writer`; returns how many.
    pub async fn export_audit<W: Write>(&self, format: ExportFormat, writer: W) -> Result<u64> {
        self.audit().export(format, writer).await
    }

    /// Every row, oldest first, to a file at `path`, written whole or not at all.
    pub async fn export_audit_to_file(&self, format: ExportFormat, path: &Path) -> Result<u64> {
        self.audit().export_to_file(format, path).await
    }

    /// Drops the rows older than `age`, leaving an anchor.
    pub async fn prune_audit_older_than(&self, age: Duration) -> Result<PruneReport> {
        self.audit().prune_older_than(age).await
    }

    /// Drops the rows written before `before` (a time), leaving an anchor.
    pub async fn prune_audit_before(&self, before: &str) -> Result<PruneReport> {
        self.audit().prune_before(before).await
    }
}
