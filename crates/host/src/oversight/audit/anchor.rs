//! The retention anchor: the `retention` row that [`AuditLog::prune`](super::AuditLog) appends
//! after dropping old rows, and how a log whose first rows were dropped is checked from it.
//!
//! The anchor's `detail` records the last row dropped (`throughSeq`, `throughHash`), how many
//! rows were dropped and the cutoff. It is a row of the chain like any other, appended in the
//! transaction that drops the rows, so it is covered by the chain from the row after it on.
//! A log starting at row `s` > 1 verifies only if a row of kind `retention` records
//! `throughSeq` = `s - 1` and `throughHash` = row `s`'s `prev_hash`: so removing the first kept
//! rows, or the anchor, is caught at the first row left, and editing the anchor at the anchor.
//! Once keying began, the anchor must be keyed too: a forged one (replacing the oldest rows with
//! a made-up "pruned" record) cannot carry a MAC that checks.

use serde::{Deserialize, Serialize};
use sqlx::{Row, SqliteConnection};

use super::chain::{StoredRow, missing};
use super::keys;
use crate::error::Result;

/// What an anchor records: its row's `detail`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Anchor {
    /// The last row dropped; every row up to it was dropped.
    pub through_seq: i64,
    /// Its hash, which the first row kept holds as `prev_hash`.
    pub through_hash: String,
    /// How many rows were dropped by this pruning.
    pub dropped: u64,
    /// The cutoff: rows written before this time (UTC, milliseconds) were dropped.
    pub before: String,
}

/// An anchor as found in the log: its row's `seq`, and what it records when its detail reads
/// as an anchor.
struct Found {
    seq: i64,
    anchor: Option<Anchor>,
}

/// The newest `retention` row matching `condition` (bound to `value`).
async fn find(conn: &mut SqliteConnection, condition: &str, value: i64) -> Result<Option<Found>> {
    let sql = format!(
        "SELECT seq, detail FROM {} WHERE kind = 'retention' AND {condition} \
         ORDER BY seq DESC LIMIT 1",
        keys::rows_where("kind = 'retention'")
    );
    let row = sqlx::query(&sql).bind(value).fetch_optional(conn).await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let detail: String = row.try_get("detail")?;
    Ok(Some(Found {
        seq: row.try_get("seq")?,
        anchor: serde_json::from_str(&detail).ok(),
    }))
}

/// Why the anchor at row `seq` cannot be trusted, if it is unkeyed while a row before it is
/// keyed: a legitimate pruning keys its anchor (it needs the key), so such an anchor is one
/// anyone who can write the file could have forged. An unkeyed anchor before any keyed row is
/// one written before keying began, and is checked as before.
async fn unkeyed_after_keyed(conn: &mut SqliteConnection, seq: i64) -> Result<Option<String>> {
    let key_id: Option<String> = sqlx::query_scalar("SELECT key_id FROM audit_log WHERE seq = ?")
        .bind(seq)
        .fetch_one(&mut *conn)
        .await?;
    if key_id.is_some() {
        return Ok(None);
    }
    let keyed: Option<i64> =
        sqlx::query_scalar("SELECT MIN(seq) FROM audit_log WHERE key_id IS NOT NULL AND seq < ?")
            .bind(seq)
            .fetch_one(&mut *conn)
            .await?;
    Ok(keyed.map(|keyed| {
        format!(
            "the retention anchor at row {seq} that accounts for the rows before it is not keyed, \
             though row {keyed} before it is: anyone who can write the file could have made it"
        )
    }))
}

/// Where the chain starts for a log whose first row, `first`, is not row 1: `Ok` with the
/// `seq` and `hash` that `first` must follow, as an anchor records them, or `Err` with why
/// `first` breaks the chain. The anchor itself is checked with the rest of the chain.
pub(crate) async fn start_for(
    conn: &mut SqliteConnection,
    first: &StoredRow,
) -> Result<std::result::Result<(i64, String), String>> {
    let expected = first.seq - 1;
    // The detail is checked to be JSON first: json_extract fails on anything else, and an
    // edited detail must be reported as a broken row, not a database error.
    let exact = find(
        &mut *conn,
        "CASE WHEN json_valid(detail) THEN json_extract(detail, '$.throughSeq') END = ?",
        expected,
    )
    .await?;
    if let Some(Found {
        seq,
        anchor: Some(anchor),
    }) = exact
    {
        if anchor.through_hash == first.prev_hash {
            if let Some(reason) = unkeyed_after_keyed(&mut *conn, seq).await? {
                return Ok(Err(reason));
            }
            return Ok(Ok((anchor.through_seq, anchor.through_hash)));
        }
        return Ok(Err(format!(
            "its prev_hash does not match the hash the retention anchor at row {seq} records \
             for row {expected}, the last row pruned"
        )));
    }
    let newest = find(&mut *conn, "seq > ?", expected).await?;
    Ok(Err(match newest {
        Some(Found {
            seq,
            anchor: Some(anchor),
        }) if anchor.through_seq < expected && anchor.through_seq >= 1 => format!(
            "{} (the log starts at row {}, and the retention anchor at row {seq} records only \
             rows 1 to {} as pruned)",
            missing(anchor.through_seq + 1, expected),
            first.seq,
            anchor.through_seq
        ),
        _ => format!(
            "{} (the log starts at row {}, and no retention anchor records them as pruned)",
            missing(1, expected),
            first.seq
        ),
    }))
}
