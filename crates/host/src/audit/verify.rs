//! Checking the chain: every row is read in `seq` order, a page at a time (so a log of millions
//! of rows is checked in bounded memory), its hash recomputed and its link to the row before
//! compared, all in one read transaction (one state of the log, even while rows are appended
//! or pruned meanwhile). The first row that breaks is reported:
//!
//! - a row whose stored content was changed: its hash no longer matches its content;
//! - a removed row: `seq` jumps past it (reported at the row after the gap);
//! - a row whose content and hash were both rewritten: the next row's `prev_hash` no longer
//!   matches.
//!
//! The chain starts at row 1, whose `prev_hash` is [`GENESIS`], or, once old rows were pruned,
//! just after the rows a retention anchor records as dropped (see [`super::anchor`]): a log that
//! starts anywhere else is missing its first rows, and is reported at its first row.
//!
//! What a chain alone cannot show: removing the newest rows (the rest is still a valid chain),
//! or rewriting every row from some point on with freshly computed hashes (the newest anchor
//! included, while it is the newest row). Detecting those needs an anchor kept outside the
//! database (the row count and last hash, noted elsewhere); none is kept yet.

use serde::Serialize;

use sqlx::SqliteConnection;

use super::AuditLog;
use super::anchor;
use super::chain::{self, GENESIS, StoredRow};
use crate::error::Result;

/// What [`AuditLog::verify`] found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "state",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
pub enum VerifyReport {
    /// Every row matches its hash and links to the one before.
    Intact { rows: u64 },
    /// The first row that does not; `reason` says how.
    Broken { seq: i64, reason: String },
}

/// Follows the chain row by row.
#[derive(Debug)]
struct ChainCheck {
    rows: u64,
    last_seq: i64,
    last_hash: String,
}

impl ChainCheck {
    fn new() -> Self {
        ChainCheck::after(0, GENESIS.to_owned())
    }

    /// A check whose next row must be `seq + 1`, linking to `hash`.
    fn after(seq: i64, hash: String) -> Self {
        ChainCheck {
            rows: 0,
            last_seq: seq,
            last_hash: hash,
        }
    }

    /// Checks the next row, returning why it breaks the chain.
    fn check(&mut self, row: &StoredRow) -> Option<String> {
        let expected = self.last_seq + 1;
        if row.seq != expected {
            return Some(format!(
                "{} (seq jumps from {} to {})",
                missing(expected, row.seq - 1),
                self.last_seq,
                row.seq
            ));
        }
        if row.prev_hash != self.last_hash {
            return Some(if self.last_seq == 0 {
                "its prev_hash is not that of a first row".to_owned()
            } else {
                format!(
                    "its prev_hash does not match the hash of row {}",
                    self.last_seq
                )
            });
        }
        if row.content_hash() != row.hash {
            return Some("its content does not match its hash".to_owned());
        }
        self.rows += 1;
        self.last_seq = row.seq;
        self.last_hash.clone_from(&row.hash);
        None
    }
}

/// "row N is missing" or "rows N to M are missing".
pub(super) fn missing(from: i64, to: i64) -> String {
    if from == to {
        format!("row {from} is missing")
    } else {
        format!("rows {from} to {to} are missing")
    }
}

impl AuditLog {
    /// Recomputes every row's hash and link, oldest first, in one read transaction; see the
    /// module docs for what this can and cannot detect. Rows appended meanwhile are left for the
    /// next check.
    pub async fn verify(&self) -> Result<VerifyReport> {
        let mut tx = self.pool.begin().await?;
        let report = walk(&mut tx, None).await?;
        tx.commit().await?;
        Ok(report)
    }
}

/// Checks the chain from its start through row `through` (every row when `None`), reading
/// through `conn`, which should hold a transaction so that every page is of one state.
pub(crate) async fn walk(
    conn: &mut SqliteConnection,
    through: Option<i64>,
) -> Result<VerifyReport> {
    let mut page = chain::page_after(&mut *conn, i64::MIN).await?;
    let Some(first) = page.first() else {
        return Ok(VerifyReport::Intact { rows: 0 });
    };
    let mut chain = if first.seq == 1 {
        ChainCheck::new()
    } else {
        match anchor::start_for(&mut *conn, first).await? {
            Ok((seq, hash)) => ChainCheck::after(seq, hash),
            Err(reason) => {
                return Ok(VerifyReport::Broken {
                    seq: first.seq,
                    reason,
                });
            }
        }
    };
    loop {
        let mut after = None;
        for row in &page {
            if through.is_some_and(|last| row.seq > last) {
                return Ok(VerifyReport::Intact { rows: chain.rows });
            }
            if let Some(reason) = chain.check(row) {
                return Ok(VerifyReport::Broken {
                    seq: row.seq,
                    reason,
                });
            }
            after = Some(row.seq);
        }
        let Some(after) = after else {
            return Ok(VerifyReport::Intact { rows: chain.rows });
        };
        page = chain::page_after(&mut *conn, after).await?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::event::{AuditEvent, AuditKind};

    fn chain(n: i64) -> Vec<StoredRow> {
        let event = AuditEvent {
            kind: AuditKind::Connection,
            ..Default::default()
        };
        let mut rows: Vec<StoredRow> = Vec::new();
        for seq in 1..=n {
            let prev = rows.last().map_or(GENESIS, |r| r.hash.as_str());
            let detail = format!("{{\"n\":{seq}}}");
            let row = StoredRow::new(&event, detail, seq, "2026-11-23T09:00:00.000Z", prev);
            rows.push(row);
        }
        rows
    }

    fn first_break(rows: &[StoredRow]) -> Option<(i64, String)> {
        let mut check = ChainCheck::new();
        rows.iter()
            .find_map(|row| check.check(row).map(|reason| (row.seq, reason)))
    }

    #[test]
    fn an_untouched_chain_passes() {
        assert_eq!(first_break(&chain(5)), None);
    }

    #[test]
    fn each_kind_of_tampering_is_named_at_the_first_broken_row() {
        let mut edited = chain(5);
        edited[2].detail = "{\"n\":99}".into();
        assert_eq!(
            first_break(&edited),
            Some((3, "its content does not match its hash".into())),
            "an edited row must be named"
        );

        let mut rehashed = edited.clone();
        rehashed[2].hash = rehashed[2].content_hash();
        assert_eq!(
            first_break(&rehashed),
            Some((4, "its prev_hash does not match the hash of row 3".into())),
            "a row re-hashed after an edit is caught by the next row's link"
        );

        let mut removed = chain(6);
        removed.remove(4);
        assert_eq!(
            first_break(&removed),
            Some((6, "row 5 is missing (seq jumps from 4 to 6)".into())),
            "a deleted row must be named"
        );

        let headless = &chain(3)[1..];
        assert_eq!(
            first_break(headless),
            Some((2, "row 1 is missing (seq jumps from 0 to 2)".into()))
        );
    }
}
