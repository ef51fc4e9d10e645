//! Appending to the log: each event redacted of the known secrets, then handed to this
//! process's writer thread ([`super::writer`]) with how it is keyed.

use super::event::{AuditEvent, AuditRow};
use super::log::AuditLog;
use super::redact::{self, KnownSecrets};
use crate::error::{HostError, Result};

/// `event` with every secret hidden, and the JSON text of its bounded `detail`.
fn redacted(event: AuditEvent, secrets: &KnownSecrets) -> (AuditEvent, String) {
    let (detail, text) = redact::bounded(redact::redact(event.detail, secrets));
    let event = AuditEvent {
        kind: event.kind,
        server: secrets.scrub_opt(event.server),
        source: secrets.scrub_opt(event.source),
        method: secrets.scrub_opt(event.method),
        tool: secrets.scrub_opt(event.tool),
        request_id: secrets.scrub_opt(event.request_id),
        correlation: secrets.scrub_opt(event.correlation),
        decision: secrets.scrub_opt(event.decision),
        error_type: secrets.scrub_opt(event.error_type),
        transport: secrets.scrub_opt(event.transport),
        duration_ms: event.duration_ms,
        detail,
    };
    (event, text)
}

impl AuditLog {
    /// Records one event; see [`AuditLog::append_all`].
    pub async fn append(&self, event: AuditEvent) -> Result<AuditRow> {
        let mut rows = self.append_all(vec![event]).await?;
        rows.pop()
            .ok_or_else(|| HostError::Corrupt("an appended audit row went missing".into()))
    }

    /// Records events, in order and next to each other, in one transaction (which may hold
    /// other appends of this process too: see [`super::writer`]), and returns them as stored.
    /// It returns only after the commit.
    ///
    /// Durability: the store runs in WAL mode with `synchronous=NORMAL`. A commit is then
    /// written to the WAL file before this returns, but not fsynced until the next checkpoint:
    /// a committed row survives the process being killed (SIGKILL included, as the data is in
    /// the OS's page cache), and only a power loss or an OS crash can lose the latest commits.
    /// That is accepted; `FULL` would fsync every append.
    pub async fn append_all(&self, events: Vec<AuditEvent>) -> Result<Vec<AuditRow>> {
        self.append_guarded(events, None).await?.ok_or_else(|| {
            HostError::Corrupt("an audit append with no guard was refused as stale".into())
        })
    }

    /// [`AuditLog::append_all`], only if the store's change counter (`store_changes`) is still
    /// `changes` when the rows are committed: the events record a decision made under the
    /// policy of that moment. `None` if the counter moved: nothing was written, and the caller
    /// decides again.
    pub(crate) async fn append_all_if_current(
        &self,
        events: Vec<AuditEvent>,
        changes: i64,
    ) -> Result<Option<Vec<AuditRow>>> {
        self.append_guarded(events, Some(changes)).await
    }

    async fn append_guarded(
        &self,
        events: Vec<AuditEvent>,
        guard: Option<i64>,
    ) -> Result<Option<Vec<AuditRow>>> {
        if events.is_empty() {
            return Ok(Some(Vec::new()));
        }
        // Redacted before the write lock is taken, so it is held only for the inserts.
        let prepared = self.prepare(events);
        let keying = self.keying().await;
        self.start_checkpoints();
        self.writer.append(prepared, keying, guard).await
    }

    /// `events` redacted, each with the JSON text of its bounded `detail`, ready to append.
    pub(crate) fn prepare(&self, events: Vec<AuditEvent>) -> Vec<(AuditEvent, String)> {
        let secrets = self.known_secrets();
        events
            .into_iter()
            .map(|event| redacted(event, &secrets))
            .collect()
    }
}
