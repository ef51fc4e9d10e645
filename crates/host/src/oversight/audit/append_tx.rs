//! The transaction that appends rows to the audit log: the chain's newest row read, each new
//! row linked to it and hashed (keyed where its append is), inserted, and committed in one
//! `BEGIN IMMEDIATE` transaction, so writers in several processes keep one chain. Used by
//! [`super::writer`], on whichever thread commits.
//!
//! Each append's rows are keyed with the audit key, or unkeyed (the keyring unavailable). Where
//! the keying changes from the row before, a `keying` row says so first: keyed, where keying
//! starts (or resumes) after unkeyed rows; unkeyed, with the reason, where keyed rows are
//! followed by unkeyed ones.
//!
//! An append may be guarded by the store's change counter (`store_changes`, moved on by
//! triggers in the transaction of any change to a server, a rule or a trust setting) as the
//! caller read it: the gate's decision, made under the policy of that moment. The counter is
//! read inside this transaction, under the write lock, and a guarded append whose counter has
//! moved is not written (the caller decides again under the policy as it is now), so a decision
//! on record was made under the policy current at its commit.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use serde_json::json;

use super::chain::{COLUMNS, GENESIS, StoredRow};
use super::checkpoint::Head;
use super::event::{AuditEvent, AuditKind, AuditRow};
use super::key_source::Keying;
use crate::error::{HostError, Result};
use crate::store::change_counter;

/// Events, redacted and each with its `detail` text, in the order they are to be appended.
pub(crate) type Prepared = Vec<(AuditEvent, String)>;

/// An append's events, how they are keyed, and its guard (see the module's header).
pub(super) struct Batch {
    pub prepared: Prepared,
    pub keying: Keying,
    /// The store's change counter the append's decision was made under: the append is written
    /// only if the counter is still this.
    pub guard: Option<i64>,
}

/// A connection for appending: WAL commits not synced (see `append_all` for what NORMAL means
/// for durability), and no checkpoint inside a commit (SQLite's default checkpoints every 1,000
/// pages in the committing call, which made one append in a few hundred take milliseconds; the
/// writer checkpoints when idle instead).
pub(super) fn open(path: &Path, busy_timeout: Duration) -> rusqlite::Result<Connection> {
    let connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    connection.busy_timeout(busy_timeout)?;
    // The store opened the file in WAL mode, which is persistent; synchronous is per
    // connection.
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    connection.pragma_update(None, "wal_autocheckpoint", 0)?;
    Ok(connection)
}

/// Each batch's rows as appended (`None` for a guarded batch whose counter moved, not written),
/// and the new head when the newest row is keyed.
pub(super) type Written = (Vec<Option<Vec<AuditRow>>>, Option<Head>);

/// Why rows were not appended.
pub(super) enum Failure {
    /// Another connection holds the write lock: nothing was written, the batches are untouched.
    Busy,
    Other(HostError),
}

impl Failure {
    pub(super) fn into_error(self) -> HostError {
        match self {
            Failure::Busy => HostError::AuditWrite("the database is busy".into()),
            Failure::Other(e) => e,
        }
    }
}

/// Appends every batch's events, in order, in one transaction; returns each batch's rows and
/// the new head when the newest row is keyed. The batches are taken once the write lock is.
pub(super) fn write(
    connection: &mut Connection,
    batches: &mut Vec<Batch>,
) -> std::result::Result<Written, Failure> {
    let tx = match connection.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) if is_busy(&e) => return Err(Failure::Busy),
        Err(e) => return Err(Failure::Other(failed(e))),
    };
    append_in(tx, std::mem::take(batches)).map_err(Failure::Other)
}

/// Whether `e` is SQLite saying another connection holds the lock.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// [`write`] once the transaction is open.
fn append_in(tx: rusqlite::Transaction<'_>, batches: Vec<Batch>) -> Result<Written> {
    let at: String = tx
        .prepare_cached("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')")
        .and_then(|mut now| now.query_row([], |row| row.get(0)))
        .map_err(failed)?;
    let last = tx
        .prepare_cached("SELECT seq, hash, key_id FROM audit_log ORDER BY seq DESC LIMIT 1")
        .and_then(|mut newest| {
            newest
                .query_row([], |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, Option<String>>(2)?,
                    ))
                })
                .optional()
        })
        .map_err(failed)?;
    let mut link = match last {
        Some((seq, hash, key_id)) => Link { seq, hash, key_id },
        None => Link {
            seq: 0,
            hash: GENESIS.to_owned(),
            key_id: None,
        },
    };
    // Read once for every guarded append of the batch, under the write lock taken above.
    let changes = if batches.iter().any(|batch| batch.guard.is_some()) {
        Some(change_counter::read(&tx).map_err(failed)?)
    } else {
        None
    };
    let mut written = Vec::with_capacity(batches.len());
    let mut appended_any = false;
    {
        let sql = format!(
            "INSERT INTO audit_log ({COLUMNS}) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        );
        let mut insert = tx.prepare_cached(&sql).map_err(failed)?;
        let mut append = |event: &AuditEvent, detail: String, keying: &Keying, link: &mut Link| {
            let row = StoredRow::new(event, detail, (link.seq + 1, &at, &link.hash), keying);
            insert
                .execute(params![
                    row.seq,
                    row.at,
                    row.kind,
                    row.server,
                    row.source,
                    row.mcp_method_name,
                    row.gen_ai_tool_name,
                    row.jsonrpc_request_id,
                    row.correlation,
                    row.decision,
                    row.error_type,
                    row.network_transport,
                    row.duration_ms,
                    row.detail,
                    row.prev_hash,
                    row.hash,
                    row.key_id,
                ])
                .map_err(failed)?;
            link.seq = row.seq;
            link.hash.clone_from(&row.hash);
            link.key_id.clone_from(&row.key_id);
            Ok::<_, HostError>(row)
        };
        for Batch {
            prepared,
            keying,
            guard,
        } in batches
        {
            if guard.is_some() && guard != changes {
                written.push(None);
                continue;
            }
            appended_any = true;
            if let Some((event, detail)) = keying_row(&link, &keying) {
                append(&event, detail, &keying, &mut link)?;
            }
            let mut rows = Vec::with_capacity(prepared.len());
            for (event, detail) in prepared {
                let row = append(&event, detail, &keying, &mut link)?;
                rows.push(AuditRow {
                    seq: row.seq,
                    at: row.at,
                    event,
                    hash: row.hash,
                    prev_hash: row.prev_hash,
                    key_id: row.key_id,
                });
            }
            written.push(Some(rows));
        }
    }
    tx.commit().map_err(failed)?;
    if !appended_any {
        return Ok((written, None));
    }
    let head = link.key_id.map(|key_id| Head {
        seq: link.seq,
        hash: link.hash,
        key_id,
    });
    Ok((written, head))
}

/// The newest row: what the next one links to.
struct Link {
    seq: i64,
    hash: String,
    key_id: Option<String>,
}

/// The `keying` row to write before rows keyed as `keying` after `last`, if the keying
/// changes there: keyed rows after unkeyed ones (or after rows of another key), or unkeyed rows
/// after keyed ones. A new log needs none.
fn keying_row(last: &Link, keying: &Keying) -> Option<(AuditEvent, String)> {
    if last.seq == 0 {
        return None;
    }
    let detail = match (keying, &last.key_id) {
        (Keying::Keyed(key), previous) if previous.as_deref() != Some(key.id()) => json!({
            "keyed": true,
            "keyId": key.id(),
            "previousKeyId": previous,
        }),
        (Keying::Unkeyed(reason), Some(previous)) => json!({
            "keyed": false,
            "previousKeyId": previous,
            "reason": reason,
        }),
        _ => return None,
    };
    let text = detail.to_string();
    let event = AuditEvent {
        kind: AuditKind::Keying,
        detail,
        ..Default::default()
    };
    Some((event, text))
}

pub(super) fn failed(e: rusqlite::Error) -> HostError {
    HostError::AuditWrite(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::storage::Store;

    fn batch() -> Vec<Batch> {
        let event = AuditEvent {
            kind: AuditKind::CallStarted,
            server: Some("everything".into()),
            ..Default::default()
        };
        vec![Batch {
            prepared: vec![(event, "{}".into())],
            keying: Keying::Unkeyed("a test".into()),
            guard: None,
        }]
    }

    #[tokio::test]
    async fn a_failed_append_rolls_back_and_the_next_one_commits() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path()).await.expect("store");
        let mut connection = open(store.path(), Duration::ZERO).expect("connection");
        connection
            .execute_batch(
                "CREATE TEMP TRIGGER refuse BEFORE INSERT ON audit_log \
                 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
            )
            .expect("trigger");
        let failed = write(&mut connection, &mut batch());
        assert!(
            matches!(&failed, Err(Failure::Other(e)) if e.to_string().contains("refused by the test")),
            "the insert's failure is reported"
        );
        assert!(
            connection.is_autocommit(),
            "no transaction is left open to hold the write lock"
        );
        connection
            .execute_batch("DROP TRIGGER temp.refuse")
            .expect("drop the trigger");
        let Ok((rows, _)) = write(&mut connection, &mut batch()) else {
            panic!("the next append commits");
        };
        let first = rows[0].as_ref().map(|rows| rows[0].seq);
        assert_eq!(first, Some(1), "nothing of the failed append was kept");
        let other = open(store.path(), Duration::ZERO).expect("another connection");
        let count: i64 = other
            .query_row("SELECT COUNT(*) FROM audit_log", [], |row| row.get(0))
            .expect("count");
        assert_eq!(count, 1, "the commit is seen by another connection");
    }

    #[tokio::test]
    async fn a_guarded_append_is_written_only_while_the_store_has_not_changed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path()).await.expect("store");
        let mut connection = open(store.path(), Duration::ZERO).expect("connection");
        let changes = change_counter::read(&connection).expect("the counter");
        let guarded = |guard| {
            let mut batches = batch();
            batches[0].guard = Some(guard);
            batches.extend(batch());
            batches
        };
        let Ok((rows, _)) = write(&mut connection, &mut guarded(changes)) else {
            panic!("a current guard's append commits");
        };
        assert!(rows.iter().all(Option::is_some), "{rows:?}");

        // Another connection changes what decides requests, as the CLI would.
        let other = open(store.path(), Duration::ZERO).expect("another connection");
        other
            .execute("UPDATE store_changes SET n = n + 1 WHERE id = 1", [])
            .expect("a change");
        let Ok((rows, _)) = write(&mut connection, &mut guarded(changes)) else {
            panic!("the transaction commits");
        };
        assert!(rows[0].is_none(), "the stale append is not written");
        let beside = rows[1].as_ref().map(|rows| rows[0].seq);
        assert_eq!(
            beside,
            Some(3),
            "an unguarded append beside it is, linked to the last row"
        );
        let count: i64 = other
            .query_row("SELECT COUNT(*) FROM audit_log", [], |row| row.get(0))
            .expect("count");
        assert_eq!(count, 3, "two rows of the first commit, one of the second");
        let Ok((rows, _)) = write(&mut connection, &mut guarded(changes + 1)) else {
            panic!("a guard read anew commits");
        };
        assert!(rows.iter().all(Option::is_some), "{rows:?}");
    }
}
