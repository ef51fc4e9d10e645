//! The engine's settings: one row of the `engine_settings` table (how long a request waits for a
//! person, the stop graces a new stdio server gets, how often live connections are checked, how
//! many days of the audit log are kept). Read and written here, each value checked against its
//! range with an error that names the setting and the range; applied by `host::settings`.

use serde::{Deserialize, Serialize};
use sqlx::{Row, SqlitePool};

use crate::error::{HostError, Result};

/// The engine's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct EngineSettings {
    /// Seconds a request waits for a person's answer before it is denied (1 to 86400).
    pub approval_timeout_secs: u32,
    /// Milliseconds a new stdio server's stop waits after closing its stdin (0 to 600000).
    pub stop_stdin_ms: u32,
    /// Milliseconds it then waits after SIGTERM, before SIGKILL (0 to 600000).
    pub stop_term_ms: u32,
    /// Seconds between two health checks of a live connection (1 to 3600).
    pub health_every_secs: u32,
    /// Days of the audit log kept, pruned daily with an anchor (1 to 36500); `None` keeps all.
    pub audit_retention_days: Option<u32>,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            approval_timeout_secs: 300,
            stop_stdin_ms: 2000,
            stop_term_ms: 3000,
            health_every_secs: 30,
            audit_retention_days: None,
        }
    }
}

/// One setting, by the key `gatehouse settings set KEY VALUE` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingKey {
    pub key: &'static str,
    /// The least and greatest value accepted.
    pub range: (u32, u32),
    /// The unit the value is in, for messages.
    pub unit: &'static str,
}

/// Every setting, in the order they are shown.
pub const KEYS: [SettingKey; 5] = [
    SettingKey {
        key: "approval-timeout",
        range: (1, 86_400),
        unit: "seconds",
    },
    SettingKey {
        key: "stop-stdin-grace",
        range: (0, 600_000),
        unit: "milliseconds",
    },
    SettingKey {
        key: "stop-term-grace",
        range: (0, 600_000),
        unit: "milliseconds",
    },
    SettingKey {
        key: "health-check-interval",
        range: (1, 3_600),
        unit: "seconds",
    },
    SettingKey {
        key: "audit-retention",
        range: (1, 36_500),
        unit: "days",
    },
];

impl EngineSettings {
    /// The value of `key` (`None`: unset, which only audit retention can be).
    pub fn get(&self, key: &str) -> Result<Option<u32>> {
        Ok(match setting(key)?.key {
            "approval-timeout" => Some(self.approval_timeout_secs),
            "stop-stdin-grace" => Some(self.stop_stdin_ms),
            "stop-term-grace" => Some(self.stop_term_ms),
            "health-check-interval" => Some(self.health_every_secs),
            _ => self.audit_retention_days,
        })
    }

    /// These settings with `key` set to `value` (`off` or `none` unsets audit retention), or
    /// an error naming the key and its range.
    pub fn with(mut self, key: &str, value: &str) -> Result<EngineSettings> {
        let setting = setting(key)?;
        let value = value.trim();
        if setting.key == "audit-retention" && matches!(value, "off" | "none" | "") {
            self.audit_retention_days = None;
            return Ok(self);
        }
        let number: u32 = value.parse().map_err(|_| {
            HostError::Validation(format!(
                "{}: `{value}` is not a whole number of {}",
                setting.key, setting.unit
            ))
        })?;
        match setting.key {
            "approval-timeout" => self.approval_timeout_secs = number,
            "stop-stdin-grace" => self.stop_stdin_ms = number,
            "stop-term-grace" => self.stop_term_ms = number,
            "health-check-interval" => self.health_every_secs = number,
            _ => self.audit_retention_days = Some(number),
        }
        self.validate()?;
        Ok(self)
    }

    /// Every value within its range, or an error naming the first that is not.
    pub fn validate(&self) -> Result<()> {
        let values = [
            Some(self.approval_timeout_secs),
            Some(self.stop_stdin_ms),
            Some(self.stop_term_ms),
            Some(self.health_every_secs),
            self.audit_retention_days,
        ];
        for (setting, value) in KEYS.iter().zip(values) {
            let (least, most) = setting.range;
            if let Some(value) = value
                && !(least..=most).contains(&value)
            {
                return Err(HostError::Validation(format!(
                    "{} must be {least} to {most} {}, not {value}",
                    setting.key, setting.unit
                )));
            }
        }
        Ok(())
    }
}

fn setting(key: &str) -> Result<&'static SettingKey> {
    KEYS.iter().find(|s| s.key == key).ok_or_else(|| {
        let known: Vec<&str> = KEYS.iter().map(|s| s.key).collect();
        HostError::Validation(format!(
            "no setting `{key}`; the settings are {}",
            known.join(", ")
        ))
    })
}

fn number(row: &sqlx::sqlite::SqliteRow, column: &str) -> Result<u32> {
    let value: i64 = row.try_get(column)?;
    u32::try_from(value)
        .map_err(|_| HostError::Corrupt(format!("the setting {column} is {value}, not a count")))
}

/// The stored settings.
pub(crate) async fn read(pool: &SqlitePool) -> Result<EngineSettings> {
    let row = sqlx::query(
        "SELECT approval_timeout_secs, stop_stdin_ms, stop_term_ms, health_every_secs, \
         audit_retention_days FROM engine_settings WHERE id = 1",
    )
    .fetch_one(pool)
    .await?;
    let retention: Option<i64> = row.try_get("audit_retention_days")?;
    Ok(EngineSettings {
        approval_timeout_secs: number(&row, "approval_timeout_secs")?,
        stop_stdin_ms: number(&row, "stop_stdin_ms")?,
        stop_term_ms: number(&row, "stop_term_ms")?,
        health_every_secs: number(&row, "health_every_secs")?,
        audit_retention_days: retention
            .map(|days| {
                u32::try_from(days)
                    .map_err(|_| HostError::Corrupt(format!("the audit retention is {days} days")))
            })
            .transpose()?,
    })
}

/// Stores `settings` after checking them.
pub(crate) async fn write(pool: &SqlitePool, settings: &EngineSettings) -> Result<()> {
    settings.validate()?;
    sqlx::query(
        "UPDATE engine_settings SET approval_timeout_secs = ?, stop_stdin_ms = ?, \
         stop_term_ms = ?, health_every_secs = ?, audit_retention_days = ? WHERE id = 1",
    )
    .bind(i64::from(settings.approval_timeout_secs))
    .bind(i64::from(settings.stop_stdin_ms))
    .bind(i64::from(settings.stop_term_ms))
    .bind(i64::from(settings.health_every_secs))
    .bind(settings.audit_retention_days.map(i64::from))
    .execute(pool)
    .await?;
    Ok(())
}
