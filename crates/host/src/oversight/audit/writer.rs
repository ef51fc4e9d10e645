//! The audit log's writer: one thread with its own connection to the database appends every
//! row this process records.
//!
//! Appends are handed to it through a bounded queue ([`QUEUE`]); a full queue makes the
//! appending task wait, so a burst costs time, never memory. The thread takes whatever has
//! queued while it was committing and writes it in one `BEGIN IMMEDIATE` transaction (group
//! commit, at most [`BATCH`] appends): under load, many appends share one commit, which is
//! what keeps the audited calls per second up; alone, an append is committed at once. Each
//! append is answered only after the commit that holds it, so a returned row is durable (see
//! [`super::AuditLog::append_all`]).
//!
//! The writer also keeps the search index up to date ([`super::indexer`]), off the appending
//! path: once it has been idle for [`IDLE`], or has appended [`super::indexer::BACKLOG`] rows
//! since it last did, and whenever a search asks it to.
//!
//! Each append comes with its [`Keying`]: its rows are keyed with the audit key, or unkeyed
//! (the keyring unavailable). Where the keying changes from the row before, a `keying` row
//! says so first: keyed, where keying starts (or resumes) after unkeyed rows; unkeyed, with
//! the reason, where keyed rows are followed by unkeyed ones. After each commit the newest row,
//! when keyed, is published as the head for the checkpoint ([`super::checkpoint`]).
//!
//! The thread is started by the first append and ends when the last handle to the log is
//! dropped (its queue closes); it owns the connection, which closes with it.
//!
//! It checkpoints the WAL when idle (or every [`CHECKPOINT_EVERY`] commits, should it never be
//! idle) rather than within a commit.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use serde_json::json;
use tokio::sync::{oneshot, watch};

use super::chain::{COLUMNS, GENESIS, StoredRow};
use super::checkpoint::Head;
use super::event::{AuditEvent, AuditKind, AuditRow};
use super::indexer;
use super::key_source::Keying;
use crate::error::{HostError, Result};

/// Appends that may wait for the writer before appending tasks wait in turn.
pub const QUEUE: usize = 1024;

/// The most appends committed in one transaction.
pub const BATCH: usize = 256;

/// How long the writer is idle before it indexes what it appended.
pub const IDLE: Duration = Duration::from_millis(250);

/// Commits after which a writer that is never idle checkpoints the WAL anyway, so it does
/// not grow without bound.
pub const CHECKPOINT_EVERY: usize = 2000;

/// How long the writer waits for another process's write lock (the app and CLI processes
/// share the database), as the store's pool does.
const BUSY_TIMEOUT: Duration = Duration::from_secs(15);

/// Events, redacted and each with its `detail` text, in the order they are to be appended.
pub(crate) type Prepared = Vec<(AuditEvent, String)>;

enum Job {
    Append {
        prepared: Prepared,
        keying: Keying,
        done: oneshot::Sender<Result<Vec<AuditRow>>>,
    },
    /// Index every row not yet in the search index.
    CatchUp { done: oneshot::Sender<Result<()>> },
}

/// A handle to the writer of one database file; clones share the thread.
#[derive(Debug, Clone)]
pub(crate) struct Writer {
    path: PathBuf,
    queue: Arc<OnceLock<SyncSender<Job>>>,
    heads: Arc<watch::Sender<Option<Head>>>,
}

impl Writer {
    /// The writer of the database at `path`, publishing each new keyed head to `heads`.
    pub(crate) fn new(path: PathBuf, heads: Arc<watch::Sender<Option<Head>>>) -> Self {
        Writer {
            path,
            queue: Arc::default(),
            heads,
        }
    }

    /// Appends `prepared` after the last row, keyed as `keying` says, and returns the rows
    /// once they are committed.
    pub(crate) async fn append(&self, prepared: Prepared, keying: Keying) -> Result<Vec<AuditRow>> {
        let (done, written) = oneshot::channel();
        self.send(Job::Append {
            prepared,
            keying,
            done,
        })
        .await?;
        written.await.map_err(|_| writer_gone())?
    }

    /// Returns once every row committed so far is in the search index.
    pub(crate) async fn catch_up(&self) -> Result<()> {
        let (done, indexed) = oneshot::channel();
        self.send(Job::CatchUp { done }).await?;
        indexed.await.map_err(|_| writer_gone())?
    }

    async fn send(&self, job: Job) -> Result<()> {
        let queue = self
            .queue
            .get_or_init(|| start(self.path.clone(), self.heads.clone()))
            .clone();
        match queue.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(job)) => {
                tracing::info!("{QUEUE} audit appends wait for the writer; the next one waits too");
                tokio::task::spawn_blocking(move || queue.send(job))
                    .await
                    .map_err(|_| writer_gone())?
                    .map_err(|_| writer_gone())
            }
            Err(TrySendError::Disconnected(_)) => Err(writer_gone()),
        }
    }
}

fn writer_gone() -> HostError {
    HostError::AuditWrite("the writer thread stopped before it wrote the rows".into())
}

/// Starts the thread; it ends when every sender is dropped.
fn start(path: PathBuf, heads: Arc<watch::Sender<Option<Head>>>) -> SyncSender<Job> {
    let (sender, receiver) = mpsc::sync_channel(QUEUE);
    let spawned = std::thread::Builder::new()
        .name("audit-writer".into())
        .spawn(move || run(&path, &receiver, &heads));
    if let Err(e) = spawned {
        // The receiver went with the closure: every append reports the writer gone.
        tracing::error!("cannot start the audit writer thread: {e}");
    }
    sender
}

fn run(path: &Path, receiver: &Receiver<Job>, heads: &watch::Sender<Option<Head>>) {
    let mut connection = open(path);
    // Rows appended since the search index last caught up, and commits since the last
    // checkpoint.
    let mut unindexed = 0usize;
    let mut commits = 0usize;
    loop {
        let first = match receiver.recv_timeout(IDLE) {
            Ok(job) => job,
            Err(RecvTimeoutError::Timeout) => {
                if unindexed > 0 {
                    // A failure is logged by `index`; the next idle moment tries again.
                    let _ = index(&mut connection, path);
                    unindexed = 0;
                }
                if commits > 0 {
                    checkpoint(&connection);
                    commits = 0;
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let mut appends = Vec::new();
        let mut catch_ups = Vec::new();
        let mut next = Some(first);
        while let Some(job) = next {
            match job {
                Job::Append {
                    prepared,
                    keying,
                    done,
                } => appends.push(((prepared, keying), done)),
                Job::CatchUp { done } => catch_ups.push(done),
            }
            next = if appends.len() < BATCH {
                receiver.try_recv().ok()
            } else {
                None
            };
        }
        if !appends.is_empty() {
            unindexed += appends.iter().map(|((p, _), _)| p.len()).sum::<usize>();
            commit(&mut connection, path, appends, heads);
            commits += 1;
            if commits >= CHECKPOINT_EVERY {
                checkpoint(&connection);
                commits = 0;
            }
        }
        if !catch_ups.is_empty() || unindexed >= indexer::BACKLOG {
            let outcome = index(&mut connection, path);
            unindexed = 0;
            for done in catch_ups {
                let _ = done.send(
                    outcome
                        .as_ref()
                        .map(drop)
                        .map_err(|e| HostError::AuditWrite(format!("cannot index: {e}"))),
                );
            }
        }
    }
}

/// An append's events and how they are keyed.
type Batch = (Prepared, Keying);

/// Writes a batch of appends, answers each and publishes the new head.
fn commit(
    connection: &mut rusqlite::Result<Connection>,
    path: &Path,
    appends: Vec<(Batch, oneshot::Sender<Result<Vec<AuditRow>>>)>,
    heads: &watch::Sender<Option<Head>>,
) {
    let (batches, dones): (Vec<_>, Vec<_>) = appends.into_iter().unzip();
    let outcome = match connection {
        Ok(connection) => write(connection, batches),
        Err(e) => Err(HostError::AuditWrite(format!(
            "cannot open the database: {e}"
        ))),
    };
    match outcome {
        Ok((rows, head)) => {
            if let Some(head) = head {
                heads.send_replace(Some(head));
            }
            for (done, rows) in dones.into_iter().zip(rows) {
                let _ = done.send(Ok(rows));
            }
        }
        Err(e) => {
            let message = e.to_string();
            for done in dones {
                let _ = done.send(Err(HostError::AuditWrite(message.clone())));
            }
            // A connection that failed mid-transaction is opened afresh for the next batch.
            *connection = open(path);
        }
    }
}

/// Copies what the WAL holds into the database file, as far as readers allow (`PASSIVE`: it
/// never waits for them), so the WAL can be reused from its start.
fn checkpoint(connection: &rusqlite::Result<Connection>) {
    if let Ok(connection) = connection
        && let Err(e) = connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
    {
        tracing::warn!("cannot checkpoint the database's WAL: {e}");
    }
}

/// Brings the search index up to date; a failure is logged (and told to a search that asked).
fn index(
    connection: &mut rusqlite::Result<Connection>,
    path: &Path,
) -> std::result::Result<usize, String> {
    let outcome = match connection {
        Ok(connection) => indexer::catch_up(connection).map_err(|e| e.to_string()),
        Err(e) => Err(format!("cannot open the database: {e}")),
    };
    if let Err(e) = &outcome {
        tracing::warn!("the audit log's search index is behind: {e}");
        *connection = open(path);
    }
    outcome
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    connection.busy_timeout(BUSY_TIMEOUT)?;
    // The store opened the file in WAL mode, which is persistent; synchronous is per
    // connection (see `append_all` for what NORMAL means for durability).
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    // Its commits do not checkpoint the WAL (SQLite's default does, every 1,000 pages, in the
    // committing call, which made one append in a few hundred take milliseconds): the writer
    // checkpoints when idle, or every [`CHECKPOINT_EVERY`] commits under steady load.
    connection.pragma_update(None, "wal_autocheckpoint", 0)?;
    Ok(connection)
}

/// Appends every batch's events, in order, in one transaction; returns each batch's rows and
/// the new head when the newest row is keyed.
fn write(
    connection: &mut Connection,
    batches: Vec<Batch>,
) -> Result<(Vec<Vec<AuditRow>>, Option<Head>)> {
    let tx = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    let at: String = tx
        .query_row("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')", [], |row| {
            row.get(0)
        })
        .map_err(failed)?;
    let last = tx
        .query_row(
            "SELECT seq, hash, key_id FROM audit_log ORDER BY seq DESC LIMIT 1",
            [],
            |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, Option<String>>(2)?,
                ))
            },
        )
        .optional()
        .map_err(failed)?;
    let mut link = match last {
        Some((seq, hash, key_id)) => Link { seq, hash, key_id },
        None => Link {
            seq: 0,
            hash: GENESIS.to_owned(),
            key_id: None,
        },
    };
    let mut written = Vec::with_capacity(batches.len());
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
        for (prepared, keying) in batches {
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
            written.push(rows);
        }
    }
    tx.commit().map_err(failed)?;
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

fn failed(e: rusqlite::Error) -> HostError {
    HostError::AuditWrite(e.to_string())
}
