//! Where the audit log gets its key: the OS keyring entry `audit/<data dir id>/key` (service
//! `gatehouse`), created on first use, read once per process and then kept in memory (the key
//! MACs every row; reading the keyring for each would be far too slow).
//!
//! The data directory's id is a random value kept in the `audit_chain` table, so two data
//! directories never share a key. Creating the key runs under a file lock beside the database,
//! so the app and a CLI command that both append first never make two keys.
//!
//! Without a reachable keyring (no Secret Service, a locked collection) the log keeps working
//! unkeyed: rows are never lost, and they say they are unkeyed ([`Keying::Unkeyed`]); the
//! keyring is tried again [`RETRY`] later.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::SqlitePool;
use tokio::sync::Mutex;

use super::key::AuditKey;
use crate::error::{HostError, Result};
use crate::store::secrets::{SecretKey, SecretStore};

/// How long after failing to reach the keyring the log tries again.
pub const RETRY: Duration = Duration::from_secs(30);

/// How a batch of rows is written: keyed with the data directory's key, or unkeyed and why.
#[derive(Debug, Clone)]
pub(crate) enum Keying {
    Keyed(Arc<AuditKey>),
    Unkeyed(String),
}

#[derive(Debug)]
enum State {
    Unknown,
    Ready(Arc<AuditKey>),
    Unavailable { reason: String, since: Instant },
}

/// The keyring and the data directory whose key it holds; clones share what was read.
#[derive(Debug, Clone)]
pub(crate) struct KeySource {
    store: Arc<dyn SecretStore>,
    pool: SqlitePool,
    lock_path: PathBuf,
    state: Arc<Mutex<State>>,
    data_dir_id: Arc<tokio::sync::OnceCell<String>>,
}

/// The id of the data directory whose database `pool` opens: a row the migration wrote, made
/// anew should it be gone. It names the directory's keyring entries.
pub(crate) async fn data_dir_id(pool: &SqlitePool) -> Result<String> {
    let read = || {
        sqlx::query_scalar("SELECT data_dir_id FROM audit_chain WHERE id = 1").fetch_optional(pool)
    };
    if let Some(id) = read().await? {
        return Ok(id);
    }
    sqlx::query(
        "INSERT OR IGNORE INTO audit_chain (id, data_dir_id) VALUES (1, lower(hex(randomblob(16))))",
    )
    .execute(pool)
    .await?;
    read().await?.ok_or_else(|| {
        HostError::Corrupt("the audit chain's data directory id went missing".into())
    })
}

impl KeySource {
    pub(crate) fn new(store: Arc<dyn SecretStore>, pool: SqlitePool) -> Self {
        let db = pool.connect_options().get_filename().to_owned();
        KeySource {
            store,
            pool,
            lock_path: db.with_extension("db.audit-key-lock"),
            state: Arc::new(Mutex::new(State::Unknown)),
            data_dir_id: Arc::default(),
        }
    }

    /// The data directory's id, which names its keyring entries; read once per process (a
    /// row the migration wrote, made anew should it be gone).
    pub(crate) async fn data_dir_id(&self) -> Result<String> {
        self.data_dir_id
            .get_or_try_init(|| data_dir_id(&self.pool))
            .await
            .cloned()
    }

    /// The key to write with, created if this data directory has none yet; unkeyed (with the
    /// reason) while the keyring cannot be reached.
    pub(crate) async fn for_writing(&self) -> Keying {
        let mut state = self.state.lock().await;
        match &*state {
            State::Ready(key) => return Keying::Keyed(key.clone()),
            State::Unavailable { reason, since } if since.elapsed() < RETRY => {
                return Keying::Unkeyed(reason.clone());
            }
            _ => {}
        }
        match self.load(true).await {
            Ok(Some(key)) => {
                let key = Arc::new(key);
                *state = State::Ready(key.clone());
                Keying::Keyed(key)
            }
            Ok(None) => Keying::Unkeyed("the audit key could not be created".into()),
            Err(e) => {
                let reason = e.to_string();
                tracing::warn!("audit rows are written unkeyed: {reason}");
                *state = State::Unavailable {
                    reason: reason.clone(),
                    since: Instant::now(),
                };
                Keying::Unkeyed(reason)
            }
        }
    }

    /// The key as the keyring holds it, never creating one: `None` when this data directory
    /// has none.
    pub(crate) async fn existing(&self) -> Result<Option<Arc<AuditKey>>> {
        if let State::Ready(key) = &*self.state.lock().await {
            return Ok(Some(key.clone()));
        }
        Ok(self.load(false).await?.map(Arc::new))
    }

    /// The key, created when `create` and there is none.
    pub(crate) async fn load(&self, create: bool) -> Result<Option<AuditKey>> {
        let entry = SecretKey::AuditKey {
            data_dir_id: self.data_dir_id().await?,
        };
        if let Some(text) = self.store.get(&entry).await? {
            return AuditKey::decode(text.expose()).map(Some);
        }
        if !create {
            return Ok(None);
        }
        let _lock = self.lock().await?;
        // Another process may have made it while this one waited for the lock.
        if let Some(text) = self.store.get(&entry).await? {
            return AuditKey::decode(text.expose()).map(Some);
        }
        let key = AuditKey::generate()?;
        self.store
            .set(&entry, "Gatehouse: audit log key", &key.encode())
            .await?;
        tracing::info!(
            "a new audit key ({}) keys this data directory's chain",
            key.id()
        );
        Ok(Some(key))
    }

    /// The checkpoint entry of this data directory.
    pub(crate) async fn head_entry(&self) -> Result<SecretKey> {
        Ok(SecretKey::AuditHead {
            data_dir_id: self.data_dir_id().await?,
        })
    }

    pub(crate) fn store(&self) -> &dyn SecretStore {
        self.store.as_ref()
    }

    /// An exclusive lock on a file beside the database, held until the file is dropped.
    async fn lock(&self) -> Result<std::fs::File> {
        let path = self.lock_path.clone();
        tokio::task::spawn_blocking(move || {
            let file = std::fs::File::create(&path)
                .map_err(|e| HostError::io(format!("cannot create {}", path.display()), e))?;
            file.lock()
                .map_err(|e| HostError::io(format!("cannot lock {}", path.display()), e))?;
            Ok(file)
        })
        .await
        .map_err(|e| HostError::io("the audit key lock task failed", std::io::Error::other(e)))?
    }
}
