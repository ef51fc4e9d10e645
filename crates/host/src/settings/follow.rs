//! A live engine's settings job (started by `Host::start`, stopped by `Host::shutdown`, aborted
//! on drop): it reads the stored settings every store poll and puts a change another process
//! made (`gatehouse settings set`) in force, as `Host::set_settings` does in its own; and it
//! applies the audit retention when it starts and then once a day ([`SettingsClock`], which
//! tests set to a shorter period and another "now").

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use tokio::task::JoinHandle;

use super::apply::{apply, prune};
use crate::oversight::approvals::Approvals;
use crate::oversight::audit::AuditLog;
use crate::sessions::Sessions;
use crate::store::engine_settings::{EngineSettings, read};

/// When the audit retention is applied, and what time it is then.
#[derive(Clone)]
pub struct SettingsClock {
    /// The pause between two prunings (a day).
    pub retention_every: Duration,
    /// Now (the system clock).
    pub now: Arc<dyn Fn() -> SystemTime + Send + Sync>,
}

impl Default for SettingsClock {
    fn default() -> Self {
        SettingsClock {
            retention_every: Duration::from_secs(24 * 60 * 60),
            now: Arc::new(SystemTime::now),
        }
    }
}

impl std::fmt::Debug for SettingsClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SettingsClock")
            .field("retention_every", &self.retention_every)
            .finish_non_exhaustive()
    }
}

/// What the job works on.
pub(crate) struct Parts {
    pub(crate) pool: sqlx::SqlitePool,
    pub(crate) audit: AuditLog,
    pub(crate) approvals: Approvals,
    pub(crate) sessions: Sessions,
    pub(crate) poll: Duration,
}

/// The job, once started.
#[derive(Debug, Default)]
pub(crate) struct SettingsFollow {
    clock: SettingsClock,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl SettingsFollow {
    pub(crate) fn new(clock: Option<SettingsClock>) -> Self {
        SettingsFollow {
            clock: clock.unwrap_or_default(),
            task: Mutex::default(),
        }
    }

    /// Starts the job unless it runs.
    pub(crate) fn start(&self, parts: Parts) {
        let mut task = self.task.lock().unwrap_or_else(PoisonError::into_inner);
        if task.is_none() {
            *task = Some(tokio::spawn(follow(parts, self.clock.clone())));
        }
    }

    /// Stops the job.
    pub(crate) fn stop(&self) {
        let task = self
            .task
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(task) = task {
            task.abort();
        }
    }
}

impl Drop for SettingsFollow {
    fn drop(&mut self) {
        self.stop();
    }
}

async fn follow(parts: Parts, clock: SettingsClock) {
    let mut last: Option<EngineSettings> = read(&parts.pool).await.ok();
    let mut polls = tokio::time::interval(parts.poll);
    polls.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut prunings = tokio::time::interval(clock.retention_every);
    prunings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = polls.tick() => match read(&parts.pool).await {
                Ok(now) if last != Some(now) => {
                    apply(&now, &parts.approvals, &parts.sessions);
                    last = Some(now);
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("cannot read the engine's settings: {e}"),
            },
            _ = prunings.tick() => {
                let days = last.and_then(|s| s.audit_retention_days);
                match prune(&parts.audit, days, (clock.now)()).await {
                    Ok(Some(report)) if report.dropped > 0 => tracing::info!(
                        "audit retention: {} rows written before {} dropped, anchored",
                        report.dropped,
                        report.before
                    ),
                    Ok(_) => {}
                    Err(e) => tracing::warn!("cannot apply the audit retention: {e}"),
                }
            }
        }
    }
}
