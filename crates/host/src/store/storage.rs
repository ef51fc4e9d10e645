//! The SQLite store: one database file in the data directory, opened in WAL mode with a 15 s busy
//! timeout so that the desktop app and the CLI can use it at the same time, and migrated to the
//! current schema at start-up (under a file lock, so two processes never migrate at once). The
//! directory and the database files are private to the person (see [`private_files`]).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use crate::error::{HostError, Result};
use crate::store::paths::DATABASE_FILE;
use crate::store::private_files;

/// The forward-only migrations in the repository's `migrations/` folder.
static MIGRATOR: Migrator = sqlx::migrate!("../../migrations");

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
        private_files::private_database(&path)?;
        let options = SqliteConnectOptions::from_str("sqlite://")?
            .filename(&path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(options)
            .await?;
        let lock = lock_for_migration(&path).await?;
        let migrated = MIGRATOR.run(&pool).await;
        drop(lock);
        migrated?;
        Ok(Store { pool, path })
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
