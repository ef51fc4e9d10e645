//! Which of an agent's entries were imported into Gatehouse: read from the import's record
//! (`agent_imports`, written by `gatehouse import`). Until that table exists in this database
//! no entry counts as imported.

use std::path::PathBuf;

use sqlx::Row;

use crate::agents::Agent;
use crate::error::Result;
use crate::host::Host;

/// One imported server and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub server_id: String,
    pub server_name: String,
    pub agent: Agent,
    pub file: PathBuf,
    pub section: Option<String>,
    pub entry: String,
}

/// Every server imported from `agent`'s files.
pub async fn imported(host: &Host, agent: Agent) -> Result<Vec<Imported>> {
    let pool = host.store().pool();
    let table: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agent_imports'",
    )
    .fetch_optional(pool)
    .await?;
    if table.is_none() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(
        "SELECT i.server_id, s.name, i.file, i.section, i.entry \
         FROM agent_imports i JOIN servers s ON s.id = i.server_id WHERE i.agent = ?",
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
            })
        })
        .collect()
}
