//! The audit log: an append-only, tamper-evident record of what the host did and why, in the
//! `audit_log` table of the shared store.
//!
//! - [`event`]: what is recorded ([`AuditEvent`], [`AuditKind`]) and what is read back
//!   ([`AuditRow`]).
//! - [`redact`]: secrets are removed from every event before any of it is written.
//! - [`chain`]: each row holds the previous row's hash; appending runs in one immediate
//!   transaction, so writers in several processes keep one chain.
//! - [`writer`]: the thread that appends this process's rows, committing together those that
//!   queue up while it is busy.
//! - [`verify`]: recomputes the chain and names the first row that breaks it.
//! - [`retention`]: drops the rows older than a cutoff and appends an anchor recording them.
//! - [`anchor`]: what an anchor records, and where the chain starts once rows were dropped.
//! - [`query`]: listing, newest first, with filters.
//! - [`search`]: full-text search (FTS5) over the redacted rows, newest first.
//! - [`indexer`]: the search index brought up to date, off the appending path.
//! - [`export`]: every row, oldest first, as JSONL or CSV.
//! - [`export_file`]: an export written to a file whole or not at all.
//!
//! The table refuses `UPDATE` and `DELETE` through triggers (a pruning transaction excepted);
//! anyone who can write the file can get past those, and `verify` is what detects it.

pub mod anchor;
pub mod chain;
pub mod event;
pub mod export;
pub mod export_file;
mod indexer;
pub mod query;
pub mod redact;
pub mod retention;
pub mod search;
pub mod verify;
mod writer;

use std::sync::{Arc, RwLock};

use sqlx::SqlitePool;

pub use event::{AuditEvent, AuditKind, AuditRow};
pub use export::ExportFormat;
pub use query::AuditFilter;
pub use redact::KnownSecrets;
pub use retention::PruneReport;
pub use verify::VerifyReport;

/// The audit log on the store's pool. Clones share the pool and the known secrets.
#[derive(Debug, Clone)]
pub struct AuditLog {
    pool: SqlitePool,
    secrets: Arc<RwLock<KnownSecrets>>,
    writer: writer::Writer,
}

impl AuditLog {
    /// The log in the store that `pool` opens, knowing no secret values yet.
    pub fn new(pool: SqlitePool) -> Self {
        let path = pool.connect_options().get_filename().to_owned();
        AuditLog {
            pool,
            secrets: Arc::default(),
            writer: writer::Writer::new(path),
        }
    }

    /// This log, hiding `values` wherever they appear in what is appended.
    pub fn with_secrets(self, values: Vec<String>) -> Self {
        self.set_secrets(values);
        self
    }

    /// Replaces the secret values hidden from what is appended from now on: the registry's
    /// secret env values and headers, read from the keyring. Values shorter than 4 characters
    /// are ignored.
    pub fn set_secrets(&self, values: Vec<String>) {
        let known = KnownSecrets::new(values);
        match self.secrets.write() {
            Ok(mut guard) => *guard = known,
            // A writer panicked mid-assignment; the value is replaced whole either way.
            Err(poisoned) => *poisoned.into_inner() = known,
        }
    }

    /// The secret values to hide, as of now.
    fn known_secrets(&self) -> KnownSecrets {
        match self.secrets.read() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn clones_share_the_known_secrets() {
        // A lazily connecting pool: no database is opened by this test.
        let pool = sqlx::sqlite::SqlitePoolOptions::new().connect_lazy_with(
            sqlx::sqlite::SqliteConnectOptions::new().filename("unused-audit-test.db"),
        );
        let log = AuditLog::new(pool).with_secrets(vec!["first-secret".into()]);
        let clone = log.clone();
        log.set_secrets(vec!["second-secret".into(), "abc".into()]);
        let known = clone.known_secrets();
        assert_eq!(
            known.scrub("first-secret second-secret abc"),
            "first-secret [redacted] abc",
            "the host's handle and the request gate's must hide the same, latest values"
        );
    }
}
