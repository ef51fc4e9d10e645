//! Settings put in force: the approval timeout and health checks an engine opens with and
//! takes when they change, and the audit retention's pruning at a given time (the cutoff as
//! RFC 3339 UTC, which `AuditLog::prune_before` reads).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::{HostError, Result};
use crate::oversight::approvals::Approvals;
use crate::oversight::audit::{AuditLog, PruneReport};
use crate::sessions::Sessions;
use crate::sessions::health::HealthChecks;
use crate::store::engine_settings::EngineSettings;

const DAY_SECS: u64 = 86_400;

/// The approval timeout an engine opens with: the caller's, else `GATEHOUSE_APPROVAL_TIMEOUT`'s,
/// else the stored one.
pub(crate) fn opening_timeout(
    given: Option<Duration>,
    stored: &EngineSettings,
) -> Result<Duration> {
    match given {
        Some(timeout) => Ok(timeout),
        None if std::env::var_os(crate::oversight::approvals::TIMEOUT_VAR).is_some() => {
            Approvals::timeout_from_env()
        }
        None => Ok(Duration::from_secs(stored.approval_timeout_secs.into())),
    }
}

/// The health checks an engine opens with: the caller's, else the defaults at the stored
/// interval.
pub(crate) fn opening_health(given: Option<HealthChecks>, stored: &EngineSettings) -> HealthChecks {
    given.unwrap_or(HealthChecks {
        every: Duration::from_secs(stored.health_every_secs.into()),
        ..HealthChecks::default()
    })
}

/// Puts `settings` in force: the approval timeout and the health checks' interval.
pub(crate) fn apply(settings: &EngineSettings, approvals: &Approvals, sessions: &Sessions) {
    approvals.set_timeout(Duration::from_secs(settings.approval_timeout_secs.into()));
    sessions.set_health_checks(HealthChecks {
        every: Duration::from_secs(settings.health_every_secs.into()),
        ..sessions.health_checks()
    });
}

/// Drops the rows older than `days` before `now`.
pub(crate) async fn prune(
    audit: &AuditLog,
    days: Option<u32>,
    now: SystemTime,
) -> Result<Option<PruneReport>> {
    let Some(days) = days else {
        return Ok(None);
    };
    let now = now
        .duration_since(UNIX_EPOCH)
        .map_err(|_| HostError::Validation("the clock is before 1970".to_owned()))?;
    let cutoff = now.saturating_sub(Duration::from_secs(u64::from(days) * DAY_SECS));
    let millis = u64::try_from(cutoff.as_millis()).unwrap_or(u64::MAX);
    audit
        .prune_before(&crate::running::server_logs::clock::format_ms(millis))
        .await
        .map(Some)
}

#[cfg(test)]
mod tests {
    use crate::running::server_logs::clock::format_ms as utc_time;

    #[test]
    fn unix_milliseconds_read_as_utc_times() {
        assert_eq!(utc_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(utc_time(1_795_830_245_123), "2026-11-28T01:44:05.123Z");
        assert_eq!(utc_time(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }
}
