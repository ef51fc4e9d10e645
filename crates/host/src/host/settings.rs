//! The engine's settings from any face (the Settings page, `gatehouse settings`): read, checked
//! and stored (`store::engine_settings`), and applied at once in this process (`settings`): the
//! next request asked about waits the new approval timeout, every live connection's health
//! checks are re-armed to the new interval, and a new stdio server gets the new stop graces. A
//! running engine in another process follows the stored row (`settings::follow`), which also
//! applies the audit retention once a day.

use std::time::SystemTime;

use super::Host;
use crate::error::Result;
use crate::oversight::audit::PruneReport;
use crate::running::stop_grace::StopGrace;
use crate::settings::{apply, prune};
use crate::store::engine_settings::{EngineSettings, read, write};

impl Host {
    /// The engine's settings as stored.
    pub async fn settings(&self) -> Result<EngineSettings> {
        read(self.store().pool()).await
    }

    /// Stores `settings` (each value checked against its range first: nothing is stored when
    /// one is out of it) and applies them at once. Returns them as stored.
    pub async fn set_settings(&self, settings: EngineSettings) -> Result<EngineSettings> {
        write(self.store().pool(), &settings).await?;
        apply(&settings, self.gate.approvals(), &self.sessions);
        Ok(settings)
    }

    /// Sets one setting by its key (`gatehouse settings set KEY VALUE`); see
    /// [`EngineSettings::with`].
    pub async fn set_setting(&self, key: &str, value: &str) -> Result<EngineSettings> {
        let settings = self.settings().await?.with(key, value)?;
        self.set_settings(settings).await
    }

    /// The stop graces a new stdio server gets unless it says otherwise.
    pub async fn default_stop_grace(&self) -> Result<StopGrace> {
        let settings = self.settings().await?;
        Ok(StopGrace {
            stdin_ms: settings.stop_stdin_ms,
            term_ms: settings.stop_term_ms,
        })
    }

    /// Applies the audit retention as if it were `now`: drops the rows older than the
    /// retention's days and appends the anchor (see `oversight::audit::retention`). `None` when
    /// the retention is off. The daily job calls it with the settings' clock.
    pub async fn apply_audit_retention_at(&self, now: SystemTime) -> Result<Option<PruneReport>> {
        let settings = self.settings().await?;
        prune(&self.audit, settings.audit_retention_days, now).await
    }
}
