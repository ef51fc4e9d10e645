//! The server registry: add, edit, remove, enable and disable server configurations, stored in
//! SQLite. Servers are found by id or, for people and scripts, by name (case-insensitively).
//! Secret env values and headers go to the OS keyring; the database only ever sees them blank.

pub(crate) mod era_cache;
pub(crate) mod list_cache;
pub(crate) mod model;
pub(crate) mod secret_values;
pub(crate) mod task_log;
pub(crate) mod validate;

use std::sync::Arc;

use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};

use crate::error::{HostError, Result};
use crate::running::launch::{Launcher, SharedLauncher};
use crate::running::server_logs::ServerLogs;
use crate::running::traffic::Traffic;
use crate::store::secrets::SecretStore;
use model::{ServerConfig, ServerInput, ServerSpec};

/// CRUD over the `servers` table.
#[derive(Debug, Clone)]
pub struct Registry {
    pool: SqlitePool,
    secrets: Arc<dyn SecretStore>,
    logs: ServerLogs,
    /// The servers' JSON-RPC messages, recorded for the window.
    traffic: Traffic,
    launcher: SharedLauncher,
    cache: Arc<list_cache::ListCache>,
}

const COLUMNS: &str = "id, name, enabled, roots, spec, created_at, updated_at";

impl Registry {
    /// The registry on `pool`, with secret values in `secrets`; the servers it connects keep
    /// their stderr in `logs`, and stdio servers are started by `launcher`.
    pub(crate) fn new(
        pool: SqlitePool,
        secrets: Arc<dyn SecretStore>,
        logs: ServerLogs,
        launcher: SharedLauncher,
    ) -> Self {
        Self {
            pool,
            secrets,
            logs,
            traffic: Traffic::default(),
            launcher,
            cache: Arc::default(),
        }
    }

    /// Keeps the list of servers in memory (`on`: an engine following the store's changes,
    /// which calls [`Registry::forget_cached`] when they move), or stops keeping it.
    pub(crate) fn keep_list(&self, on: bool) {
        self.cache.keep(on);
    }

    /// Forgets the list kept in memory: the servers changed.
    pub(crate) fn forget_cached(&self) {
        self.cache.forget();
    }

    /// The servers' stderr logs.
    pub fn logs(&self) -> &ServerLogs {
        &self.logs
    }

    /// The servers' recorded JSON-RPC messages.
    pub fn traffic(&self) -> &Traffic {
        &self.traffic
    }

    /// How this process starts the stdio servers (environment, stop waits, group record).
    pub fn launcher(&self) -> &Launcher {
        &self.launcher
    }

    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// The keyring holding the servers' secret values.
    pub fn secrets(&self) -> &dyn SecretStore {
        self.secrets.as_ref()
    }

    /// The keyring, shared (for the OAuth token store a connection keeps).
    pub fn shared_secrets(&self) -> Arc<dyn SecretStore> {
        self.secrets.clone()
    }

    /// Every server, by name.
    pub async fn list(&self) -> Result<Vec<ServerConfig>> {
        let sql = format!("SELECT {COLUMNS} FROM servers ORDER BY name COLLATE NOCASE");
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter().map(row_to_config).collect()
    }

    /// Every server, by name, from memory where the engine keeps the list (`list_cache`): at
    /// most one poll of the store (500 ms) behind a change another process made. For the
    /// gateway's routing of each call; everything else reads [`Registry::list`].
    pub async fn list_kept(&self) -> Result<Arc<Vec<ServerConfig>>> {
        let generation = match self.cache.get() {
            Ok(kept) => return Ok(kept),
            Err(generation) => generation,
        };
        let list = Arc::new(self.list().await?);
        self.cache.put(generation, &list);
        Ok(list)
    }

    /// Every server, by name, read from the store now and kept from then on where the engine
    /// keeps the list: for a name or URI the kept list routes to no server, which may be one
    /// another process added since the engine last looked.
    pub async fn list_afresh(&self) -> Result<Arc<Vec<ServerConfig>>> {
        self.cache.forget();
        self.list_kept().await
    }

    /// The server with this id, or else with this name, from the list the engine keeps in
    /// memory (see [`Registry::list_kept`]), else read: for a call's routing, where a read per
    /// call through the pool cost more than the rest of the host's own work.
    pub async fn get_kept(&self, id_or_name: &str) -> Result<ServerConfig> {
        if !self.cache.is_on() {
            return self.get(id_or_name).await;
        }
        let kept = self.list_kept().await?;
        let found = kept
            .iter()
            .find(|c| c.id == id_or_name)
            .or_else(|| kept.iter().find(|c| c.name == id_or_name));
        match found {
            Some(config) => Ok(config.clone()),
            None => self.get(id_or_name).await,
        }
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
        let written = self.add_row(input).await;
        self.cache.forget();
        written
    }

    async fn add_row(&self, input: ServerInput) -> Result<ServerConfig> {
        let input = validate::validate(input)?;
        secret_values::require_values(&input.spec, None)?;
        let id = uuid::Uuid::new_v4().to_string();
        let roots = roots_json(&input.roots)?;
        let spec = spec_json(&secret_values::redact(&input.spec))?;
        // Secrets first: without a keyring (`KeyringUnavailable`) the server is not added at
        // all, so no other process ever sees a row whose secrets are nowhere.
        if let Err(e) = secret_values::store(self.secrets(), &id, &input.name, &input.spec).await {
            let _ = secret_values::delete_dropped(self.secrets(), &id, &input.spec, None).await;
            return Err(e);
        }
        let sql = format!(
            "INSERT INTO servers (id, name, enabled, roots, kind, spec) VALUES (?, ?, ?, ?, ?, ?) RETURNING {COLUMNS}"
        );
        let inserted = sqlx::query(&sql)
            .bind(&id)
            .bind(&input.name)
            .bind(input.enabled)
            .bind(roots)
            .bind(input.spec.kind())
            .bind(spec)
            .fetch_one(&self.pool)
            .await
            .map_err(|e| name_conflict(e, &input.name));
        match inserted {
            Ok(row) => row_to_config(&row),
            Err(e) => {
                // Keep nothing half-saved: the secrets of a server that was not added go too.
                let _ = secret_values::delete_dropped(self.secrets(), &id, &input.spec, None).await;
                Err(e)
            }
        }
    }

    /// Validates and replaces a server's configuration.
    pub async fn update(&self, id_or_name: &str, input: ServerInput) -> Result<ServerConfig> {
        let written = self.update_row(id_or_name, input).await;
        self.cache.forget();
        written
    }

    async fn update_row(&self, id_or_name: &str, input: ServerInput) -> Result<ServerConfig> {
        let input = validate::validate(input)?;
        let existing = self.get(id_or_name).await?;
        secret_values::require_values(&input.spec, Some(&existing.spec))?;
        // New secret values first: if the keyring fails, the stored config is unchanged.
        secret_values::store(self.secrets(), &existing.id, &input.name, &input.spec).await?;
        let sql = format!(
            "UPDATE servers SET name = ?, enabled = ?, roots = ?, kind = ?, spec = ?, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? RETURNING {COLUMNS}"
        );
        let row = sqlx::query(&sql)
            .bind(&input.name)
            .bind(input.enabled)
            .bind(roots_json(&input.roots)?)
            .bind(input.spec.kind())
            .bind(spec_json(&secret_values::redact(&input.spec))?)
            .bind(&existing.id)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| name_conflict(e, &input.name))?;
        let row = row.ok_or_else(|| HostError::NotFound(id_or_name.to_owned()))?;
        secret_values::delete_dropped(
            self.secrets(),
            &existing.id,
            &existing.spec,
            Some(&input.spec),
        )
        .await?;
        row_to_config(&row)
    }

    /// Removes a server; returns what was removed.
    pub async fn remove(&self, id_or_name: &str) -> Result<ServerConfig> {
        let written = self.remove_row(id_or_name).await;
        self.cache.forget();
        written
    }

    async fn remove_row(&self, id_or_name: &str) -> Result<ServerConfig> {
        let existing = self.get(id_or_name).await?;
        let deleted = sqlx::query("DELETE FROM servers WHERE id = ?")
            .bind(&existing.id)
            .execute(&self.pool)
            .await?;
        if deleted.rows_affected() == 0 {
            return Err(HostError::NotFound(id_or_name.to_owned()));
        }
        secret_values::delete_dropped(self.secrets(), &existing.id, &existing.spec, None).await?;
        if matches!(existing.spec, ServerSpec::Http { .. }) {
            // Only HTTP servers sign in (OAuth). A server without a secret value may be removed
            // while no keyring is reachable: the removal stands, with a warning.
            match crate::store::secrets::oauth::delete_tokens(self.secrets(), &existing.id).await {
                Ok(()) => {}
                Err(e @ HostError::KeyringUnavailable { .. }) => {
                    tracing::warn!(
                        "`{}` removed; its OAuth tokens were not checked: {e}",
                        existing.name
                    );
                }
                Err(e) => return Err(e),
            }
        }
        Ok(existing)
    }

    /// Enables or disables a server.
    pub async fn set_enabled(&self, id_or_name: &str, enabled: bool) -> Result<ServerConfig> {
        let written = self.set_enabled_row(id_or_name, enabled).await;
        self.cache.forget();
        written
    }

    async fn set_enabled_row(&self, id_or_name: &str, enabled: bool) -> Result<ServerConfig> {
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

fn roots_json(roots: &[String]) -> Result<String> {
    serde_json::to_string(roots)
        .map_err(|e| HostError::Corrupt(format!("cannot encode roots: {e}")))
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
    let spec = ServerSpec::from_stored(&spec)
        .map_err(|e| HostError::Corrupt(format!("server {id} has an unreadable spec: {e}")))?;
    let roots: String = row.try_get("roots")?;
    let roots = serde_json::from_str(&roots)
        .map_err(|e| HostError::Corrupt(format!("server {id} has unreadable roots: {e}")))?;
    Ok(ServerConfig {
        roots,
        name: row.try_get("name")?,
        enabled: row.try_get("enabled")?,
        spec,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        id,
    })
}
