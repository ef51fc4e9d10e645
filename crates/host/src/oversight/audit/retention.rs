//! Retention: dropping the rows older than a cutoff while keeping the chain verifiable.
//!
//! [`AuditLog::prune_before`] runs in one `BEGIN IMMEDIATE` transaction:
//!
//! 1. the rows to drop are the oldest ones, up to (not including) the first row written at or
//!    after the cutoff, so what is dropped is always a prefix of the chain and what is kept has
//!    no gap;
//! 2. nothing is dropped when those rows are only earlier anchors (pruning again with nothing
//!    new to drop changes nothing);
//! 3. the rows to drop, and the link from the last of them to the first row kept, are checked
//!    as `verify` would: a log broken there is refused with the broken row named, as dropping
//!    those rows would destroy the evidence;
//! 4. the rows are deleted (the `audit_prune` table declares them to the no-delete trigger, and
//!    a trigger removes them from the search index);
//! 5. a `retention` row, the anchor (see [`super::anchor`]), is appended after the last row,
//!    recording the seq and hash of the last row dropped, how many were dropped and the cutoff.
//!    The anchor is keyed: pruning needs the audit key, and is refused while the OS keyring
//!    cannot be reached, since an unkeyed anchor is one anyone could forge.
//!
//! Readers (`verify`, `export`) read in one transaction, so they see the log either before or
//! after a pruning, never half of it.
//!
//! `AuditLog::prune_older_than` is the same with a cutoff that long ago.

use std::time::Duration;

use serde::Serialize;

use super::anchor::Anchor;
use super::chain::{self, append_linked};
use super::event::{AuditEvent, AuditKind, AuditRow};
use super::key::AuditKey;
use super::key_source::Keying;
use super::keys;
use super::log::AuditLog;
use super::verify::{VerifyReport, walk};
use crate::error::{HostError, Result};

/// What [`AuditLog::prune_before`] did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PruneReport {
    /// How many rows were dropped; 0 when no row but earlier anchors was older than `before`.
    pub dropped: u64,
    /// The cutoff: rows written before it were dropped (UTC, milliseconds).
    pub before: String,
    /// The anchor appended, when rows were dropped.
    pub anchor: Option<AuditRow>,
}

impl AuditLog {
    /// Drops the rows written more than `age` ago; see [`AuditLog::prune_before`].
    pub async fn prune_older_than(&self, age: Duration) -> Result<PruneReport> {
        let modifier = format!("-{:.3} seconds", age.as_secs_f64());
        let before: Option<String> =
            sqlx::query_scalar("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)")
                .bind(&modifier)
                .fetch_one(&self.pool)
                .await?;
        let before = before
            .filter(|b| !b.starts_with('-'))
            .ok_or_else(|| HostError::Validation(format!("{age:?} ago is not a time")))?;
        self.prune_at(before).await
    }

    /// Drops the rows written before `before` (RFC 3339, such as `2026-11-23T09:00:00Z`, or a
    /// date) and appends an anchor recording them, in one transaction; see the module docs. A
    /// log that does not verify up to the first row kept is refused with
    /// [`HostError::AuditBroken`], and nothing is dropped.
    pub async fn prune_before(&self, before: &str) -> Result<PruneReport> {
        let before = self.normalise_time(before).await?;
        self.prune_at(before).await
    }

    async fn prune_at(&self, before: String) -> Result<PruneReport> {
        let nothing = |before: String| PruneReport {
            dropped: 0,
            before,
            anchor: None,
        };
        let keying = self.keying().await;
        let key = match &keying {
            Keying::Keyed(key) => key.clone(),
            Keying::Unkeyed(reason) => {
                return Err(HostError::KeyringUnavailable {
                    action: "key the retention anchor (pruning needs the audit key)".into(),
                    detail: reason.clone(),
                });
            }
        };
        let keys: [&AuditKey; 1] = [&key];
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let (last_seq, last_hash) = chain::last_link(&mut tx).await?;
        let first_kept: Option<i64> = sqlx::query_scalar(&format!(
            "SELECT MIN(seq) FROM {} WHERE at >= ?",
            keys::rows_where("at >= ?")
        ))
        .bind(&before)
        .bind(&before)
        .fetch_one(&mut *tx)
        .await?;
        let through = first_kept.map_or(last_seq, |kept| kept - 1);
        let droppable: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM audit_log WHERE seq <= ? AND kind != 'retention'",
        )
        .bind(through)
        .fetch_one(&mut *tx)
        .await?;
        if droppable == 0 {
            return Ok(nothing(before));
        }
        // The rows to drop and the first row kept must verify: dropping a broken range would
        // destroy the evidence of what broke it.
        let walked = walk(&mut tx, Some(through + 1), &keys).await?;
        if let VerifyReport::Broken { seq, reason } = walked.result {
            return Err(HostError::AuditBroken {
                seq,
                reason: format!(
                    "{reason}; nothing was pruned, as pruning would remove the evidence"
                ),
            });
        }
        let through_hash: String = sqlx::query_scalar("SELECT hash FROM audit_log WHERE seq = ?")
            .bind(through)
            .fetch_one(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO audit_prune (through_seq) VALUES (?)")
            .bind(through)
            .execute(&mut *tx)
            .await?;
        let deleted = sqlx::query("DELETE FROM audit_log WHERE seq <= ?")
            .bind(through)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("DELETE FROM audit_prune")
            .execute(&mut *tx)
            .await?;
        let anchor = Anchor {
            through_seq: through,
            through_hash,
            dropped: deleted,
            before: before.clone(),
        };
        let detail = serde_json::to_value(&anchor)
            .map_err(|e| HostError::Corrupt(format!("cannot encode a retention anchor: {e}")))?;
        let event = AuditEvent {
            kind: AuditKind::Retention,
            detail,
            ..Default::default()
        };
        let prepared = self.prepare(vec![event]);
        let mut written = append_linked(&mut tx, (last_seq, last_hash), prepared, &keying).await?;
        tx.commit().await?;
        Ok(PruneReport {
            dropped: deleted,
            before,
            anchor: written.pop(),
        })
    }
}
