//! What decides a server's requests, read from the store once and kept: the policy rules that
//! concern the server, its "trust read-only hints" setting, and its configuration's version
//! (for its secret values, see [`super::server_secrets`]).
//!
//! A kept snapshot is used for as long as the store's change counter (`store_changes`, moved
//! on by triggers in the very transaction of any change to a server, a rule or a trust
//! setting, whichever process makes it) has not moved. [`Snapshots::of`] checks it, one read of
//! one row on a connection of its own, so a request costs that instead of three queries, and a
//! rule the CLI adds applies to the app's very next request. The gate's admission does better:
//! it decides under the kept snapshot unchecked ([`Snapshots::kept`]) and commits the decision
//! only if the counter, read in the commit's own transaction, is still the snapshot's (see
//! `audit::append_tx`), deciding again under a fresh snapshot if not.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::error::Result;
use crate::oversight::policy::{PolicyStore, Rule};
use crate::store::change_counter;
use crate::store::registry::Registry;

/// The most servers whose snapshots are kept; past it, all are dropped and read again.
pub const MAX_SERVERS: usize = 1024;

/// How long reading the counter waits if the database is busy (readers in WAL mode are
/// normally never kept waiting).
const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// What decides one server's requests, as of the change counter `changes`.
#[derive(Debug)]
pub(crate) struct Snapshot {
    pub changes: i64,
    pub rules: Vec<Rule>,
    pub trust_read_only: bool,
    /// The configuration's `updated_at`.
    pub config_version: String,
}

/// The kept snapshots of one store; clones share them.
#[derive(Debug, Clone)]
pub(crate) struct Snapshots {
    path: PathBuf,
    counter: Arc<Mutex<Option<Connection>>>,
    by_server: Arc<Mutex<HashMap<String, Arc<Snapshot>>>>,
}

impl Snapshots {
    pub(crate) fn new(path: PathBuf) -> Self {
        Snapshots {
            path,
            counter: Arc::default(),
            by_server: Arc::default(),
        }
    }

    /// The current snapshot of the server `server_id`, read again only if something changed.
    pub(crate) async fn of(
        &self,
        registry: &Registry,
        policy: &PolicyStore,
        server_id: &str,
    ) -> Result<Arc<Snapshot>> {
        // The counter is read before what it guards: a change made in between leaves a
        // snapshot that the next request finds out of date, never one taken for current.
        let changes = self.changes()?;
        if let Some(kept) = lock(&self.by_server).get(server_id)
            && kept.changes == changes
        {
            return Ok(Arc::clone(kept));
        }
        let config = registry.get(server_id).await?;
        let snapshot = Arc::new(Snapshot {
            changes,
            rules: policy.rules_for(server_id).await?,
            trust_read_only: policy.trusts_read_only(server_id).await?,
            config_version: config.updated_at,
        });
        let mut kept = lock(&self.by_server);
        if kept.len() >= MAX_SERVERS && !kept.contains_key(server_id) {
            tracing::info!("more than {MAX_SERVERS} servers' policies kept; reading all again");
            kept.clear();
        }
        kept.insert(server_id.to_owned(), Arc::clone(&snapshot));
        Ok(snapshot)
    }

    /// The snapshot kept for the server `server_id`, if any, without checking that it is
    /// current: for a caller that checks its counter where it commits what it decided.
    pub(crate) fn kept(&self, server_id: &str) -> Option<Arc<Snapshot>> {
        lock(&self.by_server).get(server_id).cloned()
    }

    /// Whether nothing that decides requests changed since `snapshot` was read.
    pub(crate) fn is_current(&self, snapshot: &Snapshot) -> Result<bool> {
        Ok(self.changes()? == snapshot.changes)
    }

    /// The store's change counter.
    fn changes(&self) -> Result<i64> {
        let mut counter = lock(&self.counter);
        let connection = match counter.as_mut() {
            Some(connection) => connection,
            None => counter.insert(open(&self.path)?),
        };
        let read = change_counter::read(connection);
        if read.is_err() {
            // Opened afresh next time, in case the connection itself is what failed.
            *counter = None;
        }
        Ok(read?)
    }
}

fn open(path: &std::path::Path) -> rusqlite::Result<Connection> {
    let connection = Connection::open_with_flags(
        path,
        // Read-write, though it only reads: a read-only connection to a WAL database fails
        // when it cannot update the shared-memory index.
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    connection.busy_timeout(BUSY_TIMEOUT)?;
    Ok(connection)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
