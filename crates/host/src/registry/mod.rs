//! The server registry: add, edit, remove, enable and disable server configurations, stored in
//! SQLite. Servers are found by id or, for people and scripts, by name (case-insensitively).

pub mod model;
pub mod validate;

use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};

use crate::error::{HostError, Result};
use model::{ServerConfig, ServerInput, ServerSpec};

/// CRUD over the `servers` table.
#[derive(Debug, Clone)]
pub struct Registry {
    pool: SqlitePool,
}

const COLUMNS: &str = "id, name, enabled, spec, created_at, updated_at";

impl Registry {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }

    /// Every server, by name.
    pub async fn list(&self) -> Result<Vec<ServerConfig>> {
        let sql = format!("SELECT {COLUMNS} FROM servers ORDER BY name COLLATE NOCASE");
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter().map(row_to_config).collect()
    }

    /// The server with this id, or else with this name.
    pub async fn get(&self, id_or_name: &str) -> Result<ServerConfig> {
        let sql = format!(
            "SELECT {COLUMNS} FROM servers WHERE id = ?1 OR name = ?1 ORDER BY id = ?1 DESC LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(id_or_name)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref()
            .map(row_to_config)
            .unwrap_or_else(|| Err(HostError::NotFound(id_or_name.to_owned())))
    }

    /// Validates and stores a new server.
    pub async fn add(&self, input: ServerInput) -> Result<ServerConfig> {
        let input = validate::validate(input)?;
        let sql = format!(
            "INSERT INTO servers (id, name, enabled, kind, spec) VALUES (?, ?, ?, ?, ?) RETURNING {COLUMNS}"
        );
        let row = sqlx::query(&sql)
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(&input.name)
            .bind(input.enabled)
            .bind(input.spec.kind())
            .bind(spec_json(&input.spec)?)
            .fetch_one(&self.pool)
            .await
            .map_err(|e| name_conflict(e, &input.name))?;
        row_to_config(&row)
    }

    /// Validates and replaces a server's configuration.
    pub async fn update(&self, id_or_name: &str, input: ServerInput) -> Result<ServerConfig> {
        let input = validate::validate(input)?;
        let existing = self.get(id_or_name).await?;
        let sql = format!(
            "UPDATE servers SET name = ?, enabled = ?, kind = ?, spec = ?, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? RETURNING {COLUMNS}"
        );
        let row = sqlx::query(&sql)
            .bind(&input.name)
            .bind(input.enabled)
            .bind(input.spec.kind())
            .bind(spec_json(&input.spec)?)
            .bind(&existing.id)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| name_conflict(e, &input.name))?;
        let row = row.ok_or_else(|| HostError::NotFound(id_or_name.to_owned()))?;
        row_to_config(&row)
    }

    /// Removes a server; returns what was removed.
    pub async fn remove(&self, id_or_name: &str) -> Result<ServerConfig> {
        let existing = self.get(id_or_name).await?;
        let deleted = sqlx::query("DELETE FROM servers WHERE id = ?")
            .bind(&existing.id)
            .execute(&self.pool)
            .await?;
        if deleted.rows_affected() == 0 {
            return Err(HostError::NotFound(id_or_name.to_owned()));
        }
        Ok(existing)
    }

    /// Enables or disables a server.
    pub async fn set_enabled(&self, id_or_name: &str, enabled: bool) -> Result<ServerConfig> {
        let existing = self.get(id_or_name).await?;
        let sql = format!(
            "UPDATE servers SET enabled = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
             WHERE id = ? RETURNING {COLUMNS}"
        );
        let row = sqlx::query(&sql)
            .bind(enabled)
            .bind(&existing.id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| HostError::NotFound(id_or_name.to_owned()))?;
        row_to_config(&row)
    }
}

fn spec_json(spec: &ServerSpec) -> Result<String> {
    serde_json::to_string(spec)
        .map_err(|e| HostError::Corrupt(format!("cannot encode server spec: {e}")))
}

fn name_conflict(error: sqlx::Error, name: &str) -> HostError {
    match &error {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            HostError::DuplicateName(name.to_owned())
        }
        _ => HostError::Storage(error),
    }
}

fn row_to_config(row: &SqliteRow) -> Result<ServerConfig> {
    let id: String = row.try_get("id")?;
    let spec: String = row.try_get("spec")?;
    let spec = serde_json::from_str(&spec)
        .map_err(|e| HostError::Corrupt(format!("server {id} has an unreadable spec: {e}")))?;
    Ok(ServerConfig {
        name: row.try_get("name")?,
        enabled: row.try_get("enabled")?,
        spec,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        id,
    })
}
