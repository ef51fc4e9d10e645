//! The audit log's handle ([`AuditLog`]): the store's pool, the secret values to hide, this
//! process's writer, the keyring that holds the key and the head checkpoints. What it does is
//! in the files beside this one (appending, listing, checking, pruning, exporting).

use std::sync::{Arc, RwLock};
use std::time::Duration;

use sqlx::SqlitePool;
use tokio::sync::watch;

use super::checkpoint::{self, Checkpoint};
use super::key_source;
use super::redact::KnownSecrets;
use super::writer;
use crate::error::{HostError, Result};
use crate::store::secrets::SecretStore;

/// The audit log on the store's pool. Clones share the pool, the known secrets, the key and
/// the checkpoint.
#[derive(Debug, Clone)]
pub struct AuditLog {
    pub(super) pool: SqlitePool,
    secrets: Arc<RwLock<Known>>,
    pub(super) writer: writer::Writer,
    /// The keyring holding the key; `None`: every row is unkeyed (a log opened without one).
    pub(super) keys: Option<key_source::KeySource>,
    pub(super) checkpoints: Arc<checkpoint::Checkpoints>,
}

/// The secret values to hide: those given with [`AuditLog::set_secrets`], and the OAuth tokens
/// this process has handled ([`crate::store::secrets::tokens_seen`]) as of `generation`.
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
        let tokens = crate::store::secrets::tokens_seen::values();
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
        known.rebuild(crate::store::secrets::tokens_seen::generation());
    }

    /// The secret values to hide, as of now.
    pub(super) fn known_secrets(&self) -> KnownSecrets {
        let generation = crate::store::secrets::tokens_seen::generation();
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

impl AuditLog {
    /// Sets how often at most the head checkpoint is written (default
    /// [`checkpoint::INTERVAL`]).
    pub fn set_checkpoint_interval(&self, interval: Duration) {
        self.checkpoints.set_interval(interval);
    }

    /// The newest seq this process wrote to the checkpoint, as it changes.
    pub fn checkpointed(&self) -> watch::Receiver<i64> {
        self.checkpoints.written()
    }

    /// Starts the task that writes published heads, once, on the current runtime.
    pub(crate) fn start_checkpoints(&self) {
        if let Some(keys) = self.keys.clone() {
            self.checkpoints.start(keys, self.pool.clone());
        }
    }

    /// Writes the newest head now if it is not yet checkpointed (at shutdown, or before
    /// printing the head).
    pub async fn flush_checkpoint(&self) -> Result<()> {
        match &self.keys {
            Some(keys) => self.checkpoints.flush(keys, &self.pool).await,
            None => Ok(()),
        }
    }

    /// The checkpoint the keyring holds for this data directory, if any.
    pub async fn checkpoint(&self) -> Result<Option<Checkpoint>> {
        match &self.keys {
            Some(keys) => checkpoint::stored(keys).await,
            None => Ok(None),
        }
    }
}

impl AuditLog {
    /// Writes this data directory's audit key (created if there is none yet) to a new file at
    /// `path`, readable by its owner only, for an auditor to check a copy of the database with
    /// (`gatehouse audit verify --key-file`). Returns the key's id.
    pub async fn export_key(&self, path: &std::path::Path) -> Result<String> {
        let keys = self.keys.as_ref().ok_or_else(|| {
            HostError::Validation("this audit log was opened without a keyring".into())
        })?;
        let key = keys
            .load(true)
            .await?
            .ok_or_else(|| HostError::Secrets("the audit key could not be created".into()))?;
        key.write_file(&keys.data_dir_id().await?, path)?;
        Ok(key.id().to_owned())
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
