//! The SQLite store: one database file in the data directory, opened in WAL mode with a 15 s busy
//! timeout so that the desktop app and the CLI can use it at the same time, and migrated to the
//! current schema at start-up (under a file lock, so two processes never migrate at once). The
//! directory and the database files are private to the person (see [`private_files`]). A
//! database a newer build wrote is refused before it is opened for writing ([`schema_version`]).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::migrate::{MigrateError, Migrator};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{ConnectOptions, Connection};

use crate::error::{HostError, Result};
use crate::store::paths::DATABASE_FILE;
use crate::store::{private_files, schema_version};

/// The forward-only migrations in the repository's `migrations/` folder.
static MIGRATOR: Migrator = sqlx::migrate!("../../migrations");

/// The newest migration this build carries.
fn newest_known() -> i64 {
    MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
}

/// How long a writer waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(15);

/// An open, migrated database.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database in `data_dir` and migrates it.
    pub async fn open(data_dir: &Path) -> Result<Store> {
        private_files::private_dir(data_dir)?;
        let path = data_dir.join(DATABASE_FILE);
        let lock = lock_for_migration(&path).await?;
        // Before anything opens the file for writing: a newer build's database is left as it is.
        // A check that cannot read the file does not stop the open (the migrator refuses a
        // newer database too, below); only a newer schema does.
        match schema_version::refuse_newer(&path, newest_known()) {
            Err(newer @ HostError::SchemaTooNew { .. }) => return Err(newer),
            Err(e) => tracing::debug!("the schema's version could not be read first: {e}"),
            Ok(()) => {}
        }
        private_files::private_database(&path)?;
        let options = SqliteConnectOptions::from_str("sqlite://")?
            .filename(&path)
            .create_if_missing(true)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true);
        let prepared = into_wal(&options, |_| {}).await;
        let migrated = match prepared {
            Ok(()) => Self::connect_and_migrate(options, path).await,
            Err(e) => Err(e),
        };
        drop(lock);
        migrated
    }

    /// The pool on the database (already in WAL mode, which the file keeps, so the pool's
    /// connections never ask for the exclusive lock that switching modes needs), migrated.
    async fn connect_and_migrate(options: SqliteConnectOptions, path: PathBuf) -> Result<Store> {
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(options)
            .await?;
        match MIGRATOR.run(&pool).await {
            Ok(()) => Ok(Store { pool, path }),
            // A newer build's migration that reached the file between the check and here.
            Err(MigrateError::VersionMissing(found)) if found > newest_known() => {
                pool.close().await;
                Err(HostError::SchemaTooNew {
                    found,
                    known: newest_known(),
                })
            }
            Err(e) => {
                pool.close().await;
                Err(e.into())
            }
        }
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Closes every connection, checkpointing the WAL.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Puts the database in WAL mode. Switching needs an exclusive lock that SQLite's busy timeout
/// does not wait for: while another process's last connection is closing (and checkpointing),
/// the switch fails at once with "database is locked". So a busy answer is tried again, with a
/// growing pause, until [`BUSY_TIMEOUT`]; `on_busy` hears of each busy attempt.
async fn into_wal(options: &SqliteConnectOptions, on_busy: impl Fn(u32)) -> Result<()> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    let mut attempt = 0u32;
    loop {
        let connected = options
            .clone()
            .journal_mode(SqliteJournalMode::Wal)
            .connect()
            .await;
        match connected {
            Ok(connection) => {
                connection.close().await?;
                return Ok(());
            }
            Err(e) if is_busy(&e) && Instant::now() < deadline => {
                attempt += 1;
                on_busy(attempt);
                tracing::debug!("the database is busy, trying again ({attempt}): {e}");
                // A backoff between attempts (10 ms doubling to 320 ms), not a wait for an
                // event: SQLite tells nobody when another process lets the lock go.
                tokio::time::sleep(Duration::from_millis(10u64 << attempt.min(5))).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Whether SQLite answered `SQLITE_BUSY` or `SQLITE_LOCKED` (any extended code of either).
fn is_busy(e: &sqlx::Error) -> bool {
    let Some(db) = e.as_database_error() else {
        return false;
    };
    db.code()
        .and_then(|code| code.parse::<i32>().ok())
        .is_some_and(|code| matches!(code & 0xff, 5 | 6))
}

/// Takes an exclusive lock on a file beside the database for the duration of a migration.
async fn lock_for_migration(db: &Path) -> Result<File> {
    let lock_path = db.with_extension("db.migrate-lock");
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options
        .open(&lock_path)
        .map_err(|e| HostError::io(format!("cannot create {}", lock_path.display()), e))?;
    let locked = tokio::task::spawn_blocking(move || file.lock().map(|()| file))
        .await
        .map_err(|e| HostError::io("migration lock task failed", std::io::Error::other(e)))?;
    locked.map_err(|e| HostError::io(format!("cannot lock {}", lock_path.display()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database held under an exclusive lock by another connection (as while another
    /// process's last connection closes) is opened once the lock goes, not refused.
    #[tokio::test]
    async fn a_database_busy_while_opening_is_waited_for() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(DATABASE_FILE);
        let holder = rusqlite::Connection::open(&path).expect("open with rusqlite");
        holder
            .execute_batch("CREATE TABLE held(x); BEGIN EXCLUSIVE; INSERT INTO held VALUES (1);")
            .expect("hold an exclusive lock");
        let (busy_tx, mut busy_rx) = tokio::sync::mpsc::unbounded_channel();
        let options = SqliteConnectOptions::new()
            .filename(&path)
            .busy_timeout(Duration::from_millis(50));
        let opening = tokio::spawn(async move {
            into_wal(&options, move |attempt| {
                let _ = busy_tx.send(attempt);
            })
            .await
        });
        let first = tokio::time::timeout(Duration::from_secs(10), busy_rx.recv())
            .await
            .expect("step: the first attempt finds the database busy");
        assert_eq!(first, Some(1));
        holder.execute_batch("COMMIT").expect("release the lock");
        drop(holder);
        tokio::time::timeout(Duration::from_secs(20), opening)
            .await
            .expect("step: the database is opened once the lock is gone")
            .expect("the task")
            .expect("WAL mode once the lock is gone");
        let mode: String = rusqlite::Connection::open(&path)
            .expect("reopen")
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .expect("journal mode");
        assert_eq!(mode, "wal");
    }
}
