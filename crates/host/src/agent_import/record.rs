//! The record of what was imported: which Gatehouse server came from which entry of which
//! agent's file (the `agent_imports` table; names only, never values). `gatehouse connect`
//! reads it to remove exactly those entries and to give the agent's client a profile of them.
//! A server removed from Gatehouse leaves the record with it (`ON DELETE CASCADE`).

use std::path::PathBuf;

use serde::Serialize;
use sqlx::{Row, SqlitePool};

use crate::agents::Agent;
use crate::error::Result;
use crate::host::Host;

/// One imported server and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    pub server_id: String,
    pub server_name: String,
    pub agent: Agent,
    pub file: PathBuf,
    /// Where in the file, when not at the format's usual place (Claude Code's per-project
    /// sections of `~/.claude.json`).
    pub section: Option<String>,
    /// The entry's name in the agent's file (the server's Gatehouse name may differ: renamed).
    pub entry: String,
    pub imported_at: String,
}

/// Every server imported from `agent`'s files, oldest first.
pub async fn imported(host: &Host, agent: Agent) -> Result<Vec<Imported>> {
    imported_in(host.store().pool(), agent).await
}

pub(crate) async fn imported_in(pool: &SqlitePool, agent: Agent) -> Result<Vec<Imported>> {
    let rows = sqlx::query(
        "SELECT i.server_id, s.name, i.file, i.section, i.entry, i.imported_at \
         FROM agent_imports i JOIN servers s ON s.id = i.server_id \
         WHERE i.agent = ? ORDER BY i.imported_at, i.rowid",
    )
    .bind(agent.id())
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Imported {
                server_id: row.try_get(0)?,
                server_name: row.try_get(1)?,
                agent,
                file: PathBuf::from(row.try_get::<String, _>(2)?),
                section: row.try_get(3)?,
                entry: row.try_get(4)?,
                imported_at: row.try_get(5)?,
            })
        })
        .collect()
}

/// Records one imported server (a replaced server's earlier record is replaced).
pub(crate) async fn record(
    pool: &SqlitePool,
    server_id: &str,
    agent: Agent,
    file: &std::path::Path,
    section: Option<&str>,
    entry: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT OR REPLACE INTO agent_imports (server_id, agent, file, section, entry) \
         VALUES (?, ?, ?, ?, ?)",
    )
    .bind(server_id)
    .bind(agent.id())
    .bind(file.to_string_lossy().as_ref())
    .bind(section)
    .bind(entry)
    .execute(pool)
    .await?;
    Ok(())
}
