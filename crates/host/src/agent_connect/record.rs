//! The record of each connect (the `agent_connections` table): which agent's file (and
//! section) was rewritten, where its original is kept, the hashes of the original and of what
//! was written, and whether it was undone. `--undo` takes the latest one not undone (of the
//! project's files, with a project).

use std::path::PathBuf;

use sqlx::{Row, SqlitePool};

use crate::agents::Agent;
use crate::error::Result;

/// One connect, as recorded.
#[derive(Debug, Clone)]
pub struct Connection {
    pub id: i64,
    pub file: PathBuf,
    pub section: Option<String>,
    pub backup: PathBuf,
    pub original_hash: String,
    pub written_hash: String,
    pub connected_at: String,
}

/// What a connect wrote.
pub struct NewConnection<'a> {
    pub agent: Agent,
    pub file: &'a std::path::Path,
    pub section: Option<&'a str>,
    pub backup: &'a std::path::Path,
    pub original_hash: &'a str,
    pub written_hash: &'a str,
}

pub async fn insert(pool: &SqlitePool, new: &NewConnection<'_>) -> Result<i64> {
    let id = sqlx::query(
        "INSERT INTO agent_connections (agent, file, section, backup, original_hash, written_hash) \
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(new.agent.id())
    .bind(new.file.to_string_lossy().as_ref())
    .bind(new.section)
    .bind(new.backup.to_string_lossy().as_ref())
    .bind(new.original_hash)
    .bind(new.written_hash)
    .execute(pool)
    .await?
    .last_insert_rowid();
    Ok(id)
}

/// The connects of `agent` not undone, latest first.
pub async fn active(pool: &SqlitePool, agent: Agent) -> Result<Vec<Connection>> {
    let rows = sqlx::query(
        "SELECT id, file, section, backup, original_hash, written_hash, connected_at \
         FROM agent_connections WHERE agent = ? AND undone_at IS NULL ORDER BY id DESC",
    )
    .bind(agent.id())
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Connection {
                id: row.try_get(0)?,
                file: PathBuf::from(row.try_get::<String, _>(1)?),
                section: row.try_get(2)?,
                backup: PathBuf::from(row.try_get::<String, _>(3)?),
                original_hash: row.try_get(4)?,
                written_hash: row.try_get(5)?,
                connected_at: row.try_get(6)?,
            })
        })
        .collect()
}

pub async fn mark_undone(pool: &SqlitePool, id: i64) -> Result<()> {
    sqlx::query(
        "UPDATE agent_connections SET undone_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
    )
    .bind(id)
    .execute(pool)
    .await?;
    Ok(())
}
