//! The audit log: an append-only, tamper-evident record of what the host did and why, in the
//! `audit_log` table of the shared store.
//!
//! - [`event`]: what is recorded ([`AuditEvent`], [`AuditKind`]) and what is read back
//!   ([`AuditRow`]).
//! - [`redact`]: secrets are removed from every event before any of it is written.
//! - [`chain`]: each row holds the previous row's hash (keyed: an HMAC under the audit key);
//!   appending runs in one immediate transaction, so writers in several processes keep one
//!   chain.
//! - [`key`]: the audit key and the key file an auditor is given.
//! - [`key_source`]: the key from the OS keyring, created on first use; unkeyed rows while
//!   the keyring cannot be reached.
//! - [`checkpoint`]: the newest keyed row, kept in the keyring, so removing the newest rows is
//!   caught.
//! - [`writer`]: the thread that appends this process's rows, committing together those that
//!   queue up while it is busy.
//! - [`verify`]: recomputes the chain and names the first row that breaks it.
//! - [`report`]: what a full check says: which parts are keyed, and the checkpoint's state.
//! - [`retention`]: drops the rows older than a cutoff and appends an anchor recording them.
//! - [`anchor`]: what an anchor records, and where the chain starts once rows were dropped.
//! - [`query`]: listing, newest first, with filters.
//! - [`search`]: full-text search (FTS5) over the redacted rows, newest first.
//! - [`indexer`]: the search index brought up to date, off the appending path.
//! - [`export`]: every row, oldest first, as JSONL or CSV.
//! - [`export_file`]: an export written to a file whole or not at all.
//!
//! The table refuses `UPDATE` and `DELETE` through triggers (a pruning transaction excepted);
//! anyone who can write the file can get past those, and `verify` is what detects it: with the
//! key, any change to a keyed row, and with the checkpoint, removing the newest rows.

pub mod anchor;
pub mod chain;
pub mod checkpoint;
pub mod event;
pub mod export;
pub mod export_file;
mod indexer;
pub mod key;
pub(crate) mod key_source;
pub mod query;
pub mod redact;
pub mod report;
pub mod retention;
pub mod search;
pub mod verify;
mod writer;

use std::sync::{Arc, RwLock};

use sqlx::SqlitePool;

use crate::secrets::SecretStore;

pub use checkpoint::Checkpoint;
pub use event::{AuditEvent, AuditKind, AuditRow};
pub use export::ExportFormat;
pub use key::AuditKey;
pub use query::AuditFilter;
pub use redact::KnownSecrets;
pub use report::{ChainReport, CheckOptions};
pub use retention::PruneReport;
pub use verify::VerifyReport;

/// The audit log on the store's pool. Clones share the pool, the known secrets, the key and
/// the checkpoint.
#[derive(Debug, Clone)]
pub struct AuditLog {
    pool: SqlitePool,
    secrets: Arc<RwLock<Known>>,
    writer: writer::Writer,
    /// The keyring holding the key; `None`: every row is unkeyed (a log opened without one).
    keys: Option<key_source::KeySource>,
    checkpoints: Arc<checkpoint::Checkpoints>,
}

/// The secret values to hide: those given with [`AuditLog::set_secrets`], and the OAuth tokens
/// this process has handled ([`crate::secrets::tokens_seen`]) as of `generation`.
#[derive(Default)]
struct Known {
    given: Vec<String>,
    generation: Option<u64>,
    merged: KnownSecrets,
}

/// Shows how many values there are, never one of them.
impl std::fmt::Debug for Known {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Known")
            .field("generation", &self.generation)
            .field("merged", &self.merged)
            .finish_non_exhaustive()
    }
}

impl Known {
    fn rebuild(&mut self, generation: u64) {
        let tokens = crate::secrets::tokens_seen::values();
        self.merged = KnownSecrets::new(self.given.iter().cloned().chain(tokens));
        self.generation = Some(generation);
    }
}

impl AuditLog {
    /// The log in the store that `pool` opens, knowing no secret values yet, and unkeyed until
    /// given a keyring ([`AuditLog::with_keyring`]).
    pub fn new(pool: SqlitePool) -> Self {
        let path = pool.connect_options().get_filename().to_owned();
        let checkpoints = Arc::new(checkpoint::Checkpoints::new());
        AuditLog {
            pool,
            secrets: Arc::default(),
            writer: writer::Writer::new(path, checkpoints.heads()),
            keys: None,
            checkpoints,
        }
    }

    /// This log, keyed with the key `store` holds for the data directory (created on first
    /// use), and checkpointed there.
    pub fn with_keyring(mut self, store: Arc<dyn SecretStore>) -> Self {
        self.keys = Some(key_source::KeySource::new(store, self.pool.clone()));
        self
    }

    /// How rows appended now are keyed.
    pub(crate) async fn keying(&self) -> key_source::Keying {
        match &self.keys {
            Some(keys) => keys.for_writing().await,
            None => key_source::Keying::Unkeyed("the log was opened without a keyring".into()),
        }
    }

    /// This log, hiding `values` wherever they appear in what is appended.
    pub fn with_secrets(self, values: Vec<String>) -> Self {
        self.set_secrets(values);
        self
    }

    /// Replaces the secret values hidden from what is appended from now on: the registry's
    /// secret env values and headers, read from the keyring. Values shorter than 4 characters
    /// are ignored. The OAuth tokens this process handles are hidden as well, always.
    pub fn set_secrets(&self, values: Vec<String>) {
        let mut known = match self.secrets.write() {
            Ok(guard) => guard,
            // A writer panicked mid-assignment; the value is replaced whole either way.
            Err(poisoned) => poisoned.into_inner(),
        };
        known.given = values;
        known.rebuild(crate::secrets::tokens_seen::generation());
    }

    /// The secret values to hide, as of now.
    fn known_secrets(&self) -> KnownSecrets {
        let generation = crate::secrets::tokens_seen::generation();
        {
            let known = match self.secrets.read() {
                Ok(guard) => guard,
                Err(poisoned) => poisoned.into_inner(),
            };
            if known.generation == Some(generation) {
                return known.merged.clone();
            }
        }
        let mut known = match self.secrets.write() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        known.rebuild(generation);
        known.merged.clone()
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
