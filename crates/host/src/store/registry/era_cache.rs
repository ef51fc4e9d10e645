//! The era each server was last found to speak (2026-07-28 basic/versioning: clients "MAY
//! persist it across restarts of the same server configuration, re-probing if the cached
//! assumption later fails"). A finding is kept with the configuration it was made for, so an
//! edited server is probed again.
//!
//! Kept in the `server_eras` table. `connect` tries the remembered era without the probe; a
//! protocol failure (not a spawn or network one) probes again and corrects the record.

use gatehouse_mcp::Era;

use super::Registry;
use super::model::ServerConfig;
use crate::error::Result;

fn spec_key(config: &ServerConfig) -> String {
    serde_json::to_string(&config.spec).unwrap_or_default()
}

impl Registry {
    /// The era found for this exact configuration, if any. A read failure counts as unknown.
    pub async fn cached_era(&self, config: &ServerConfig) -> Option<Era> {
        self.remembered_era(config).await.map(|(era, _)| era)
    }

    /// The era found for this exact configuration, with when it was found (UTC, RFC 3339).
    pub async fn remembered_era(&self, config: &ServerConfig) -> Option<(Era, String)> {
        let row: Option<(String, String)> = sqlx::query_as(
            "SELECT era, checked_at FROM server_eras WHERE server_id = ? AND spec = ?",
        )
        .bind(&config.id)
        .bind(spec_key(config))
        .fetch_optional(self.pool())
        .await
        .unwrap_or_else(|e| {
            tracing::debug!("reading the era cache failed: {e}");
            None
        });
        let (era, checked_at) = row?;
        match era.as_str() {
            "modern" => Some((Era::Modern, checked_at)),
            "legacy" => Some((Era::Legacy, checked_at)),
            _ => None,
        }
    }

    /// Records the era found for this configuration.
    pub async fn remember_era(&self, config: &ServerConfig, era: Era) -> Result<()> {
        sqlx::query(
            "INSERT INTO server_eras (server_id, spec, era) VALUES (?, ?, ?) \
             ON CONFLICT(server_id) DO UPDATE SET spec = excluded.spec, era = excluded.era, \
             checked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(&config.id)
        .bind(spec_key(config))
        .bind(era.as_str())
        .execute(self.pool())
        .await?;
        Ok(())
    }
}
