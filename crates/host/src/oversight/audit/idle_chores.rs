//! What the audit writer's thread does once appends pause (see [`super::writer`]): bring the
//! search index up to date, and checkpoint the WAL.

use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;

use super::{append_tx, indexer};

/// Copies what the WAL holds into the database file, as far as readers allow (`PASSIVE`: it
/// never waits for them), so the WAL can be reused from its start.
pub(super) fn checkpoint(connection: &rusqlite::Result<Connection>) {
    if let Ok(connection) = connection
        && let Err(e) = connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
    {
        tracing::warn!("cannot checkpoint the database's WAL: {e}");
    }
}

/// Brings the search index up to date; a failure is logged (and told to a search that asked).
pub(super) fn index(
    connection: &mut rusqlite::Result<Connection>,
    path: &Path,
    busy_timeout: Duration,
) -> std::result::Result<usize, String> {
    let outcome = match connection {
        Ok(connection) => indexer::catch_up(connection).map_err(|e| e.to_string()),
        Err(e) => Err(format!("cannot open the database: {e}")),
    };
    if let Err(e) = &outcome {
        tracing::warn!("the audit log's search index is behind: {e}");
        *connection = append_tx::open(path, busy_timeout);
    }
    outcome
}
