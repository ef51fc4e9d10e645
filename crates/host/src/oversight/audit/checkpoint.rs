//! The head checkpoint: the newest keyed row's `seq` and `hash`, kept outside the database (the
//! OS keyring entry `audit/<data dir id>/head`) and MACed with the audit key, so removing the
//! newest rows (or rolling the whole file back to an older copy) is caught: the checkpoint is
//! then ahead of the table.
//!
//! The checkpoint is written at most once per interval ([`INTERVAL`] unless set otherwise):
//! the first head at once, later ones when the interval since the last write has passed
//! ([`Debounce`]), and whatever is pending when the host shuts down ([`AuditLog::flush_checkpoint`](super::AuditLog::flush_checkpoint)).
//! Rows written after the last checkpoint and removed before the next are not caught by it.
//!
//! It only moves forward: a checkpoint is replaced only by a newer head, and only while the
//! table still holds the row the old one records (or pruned it through a keyed anchor): should
//! it not, the old checkpoint is kept as the evidence `verify` reports.
//!
//! `gatehouse audit head` prints it as JSON for the person to keep a copy elsewhere;
//! `audit verify --head FILE` checks the log against such a copy.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sqlx::{SqliteConnection, SqlitePool};
use tokio::sync::{Mutex, watch};

use super::key::AuditKey;
use super::key_source::KeySource;
use crate::error::{HostError, Result};

/// How often at most the checkpoint is written, by default.
pub const INTERVAL: Duration = Duration::from_secs(5);

/// The format tag of a checkpoint.
const FORMAT: &str = "gatehouse-audit-head/1";

/// The newest keyed row, as the writer publishes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Head {
    pub seq: i64,
    pub hash: String,
    pub key_id: String,
}

/// A checkpoint as kept in the keyring and printed by `gatehouse audit head`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    pub format: String,
    /// The data directory whose chain it is.
    pub data_dir_id: String,
    /// The newest row it vouches for.
    pub seq: i64,
    /// That row's hash (its MAC).
    pub hash: String,
    /// The key that MACs the row and this checkpoint.
    pub key_id: String,
    /// Hex HMAC-SHA256 of the other fields' canonical JSON under the key.
    pub mac: String,
}

/// What a checkpoint's MAC covers.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Signed<'a> {
    format: &'a str,
    data_dir_id: &'a str,
    seq: i64,
    hash: &'a str,
    key_id: &'a str,
}

impl Checkpoint {
    /// The checkpoint of `head` in data directory `data_dir_id`, MACed with `key`.
    pub(crate) fn new(data_dir_id: &str, head: &Head, key: &AuditKey) -> Self {
        let mut checkpoint = Checkpoint {
            format: FORMAT.to_owned(),
            data_dir_id: data_dir_id.to_owned(),
            seq: head.seq,
            hash: head.hash.clone(),
            key_id: head.key_id.clone(),
            mac: String::new(),
        };
        checkpoint.mac = key.mac_json(&checkpoint.signed());
        checkpoint
    }

    fn signed(&self) -> Signed<'_> {
        Signed {
            format: &self.format,
            data_dir_id: &self.data_dir_id,
            seq: self.seq,
            hash: &self.hash,
            key_id: &self.key_id,
        }
    }

    /// Whether `key` made this checkpoint (and nobody changed it since).
    pub fn authentic(&self, key: &AuditKey) -> bool {
        let text = serde_jcs::to_string(&self.signed()).unwrap_or_default();
        self.format == FORMAT && key.id() == self.key_id && key.verifies(text.as_bytes(), &self.mac)
    }

    /// A checkpoint as JSON text (`gatehouse audit head`'s output, or a copy of it).
    pub fn parse(text: &str) -> Result<Self> {
        serde_json::from_str(text)
            .map_err(|e| HostError::Validation(format!("not an audit head checkpoint: {e}")))
    }
}

/// When a debounced write is due: the first at once, then at most one per `interval`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Debounce {
    pub interval: Duration,
    pub last: Option<Instant>,
}

impl Debounce {
    /// When the next write may happen, given `now`: `now` itself when it is due already.
    pub(crate) fn due(&self, now: Instant) -> Instant {
        match self.last {
            Some(last) if now < last + self.interval => last + self.interval,
            _ => now,
        }
    }
}

/// The state every clone of one log shares: the heads the writer publishes, what was written,
/// and the task that writes them.
#[derive(Debug)]
pub(crate) struct Checkpoints {
    heads: Arc<watch::Sender<Option<Head>>>,
    /// The newest seq written to the keyring by this process; held while writing.
    written: Mutex<Option<i64>>,
    written_seq: watch::Sender<i64>,
    interval_ms: AtomicU64,
    task: std::sync::OnceLock<gatehouse_mcp::transport::owned_task::OwnedTask>,
}

impl Checkpoints {
    pub(crate) fn new() -> Self {
        Checkpoints {
            heads: Arc::new(watch::Sender::new(None)),
            written: Mutex::new(None),
            written_seq: watch::Sender::new(0),
            interval_ms: AtomicU64::new(u64::try_from(INTERVAL.as_millis()).unwrap_or(5000)),
            task: std::sync::OnceLock::new(),
        }
    }

    pub(crate) fn heads(&self) -> Arc<watch::Sender<Option<Head>>> {
        self.heads.clone()
    }

    fn interval(&self) -> Duration {
        Duration::from_millis(self.interval_ms.load(Ordering::Relaxed))
    }
}

impl Checkpoints {
    /// Sets how often at most the head checkpoint is written (default [`INTERVAL`]).
    pub(crate) fn set_interval(&self, interval: Duration) {
        let ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX);
        self.interval_ms.store(ms, Ordering::Relaxed);
    }

    /// The newest seq this process wrote to the checkpoint, as it changes.
    pub(crate) fn written(&self) -> watch::Receiver<i64> {
        self.written_seq.subscribe()
    }

    /// Starts the task that writes published heads, once, on the current runtime.
    pub(crate) fn start(self: &Arc<Self>, keys: KeySource, pool: SqlitePool) {
        self.task.get_or_init(|| {
            // The task holds the shared state weakly, so it ends with the log.
            let run = run(Arc::downgrade(self), self.heads.subscribe(), keys, pool);
            gatehouse_mcp::transport::owned_task::OwnedTask::spawn(run)
        });
    }

    /// Writes the newest head now if it is not yet checkpointed.
    pub(crate) async fn flush(&self, keys: &KeySource, pool: &SqlitePool) -> Result<()> {
        let head = self.heads.borrow().clone();
        match head {
            Some(head) => write(self, keys, pool, &head).await,
            None => Ok(()),
        }
    }
}

/// The checkpoint in the keyring.
pub(crate) async fn stored(keys: &KeySource) -> Result<Option<Checkpoint>> {
    let entry = keys.head_entry().await?;
    match keys.store().get(&entry).await? {
        Some(text) => Checkpoint::parse(text.expose()).map(Some),
        None => Ok(None),
    }
}

/// Writes each head published, at most once per interval; ends when the log is gone.
async fn run(
    checkpoints: std::sync::Weak<Checkpoints>,
    mut heads: watch::Receiver<Option<Head>>,
    keys: KeySource,
    pool: SqlitePool,
) {
    let mut debounce = Debounce {
        interval: Duration::ZERO,
        last: None,
    };
    while heads.changed().await.is_ok() {
        let Some(interval) = checkpoints.upgrade().map(|c| c.interval()) else {
            return;
        };
        debounce.interval = interval;
        tokio::time::sleep_until(debounce.due(Instant::now()).into()).await;
        let head = heads.borrow_and_update().clone();
        let Some(checkpoints) = checkpoints.upgrade() else {
            return;
        };
        if let Some(head) = head {
            if let Err(e) = write(&checkpoints, &keys, &pool, &head).await {
                tracing::warn!("cannot write the audit log's head checkpoint: {e}");
            }
            debounce.last = Some(Instant::now());
        }
    }
}

/// Writes the checkpoint of `head` unless the keyring's is as new, and only while the table
/// still holds the row the keyring's records.
async fn write(
    checkpoints: &Checkpoints,
    keys: &KeySource,
    pool: &SqlitePool,
    head: &Head,
) -> Result<()> {
    let mut written = checkpoints.written.lock().await;
    if written.is_some_and(|seq| seq >= head.seq) {
        return Ok(());
    }
    let Some(key) = keys.existing().await? else {
        return Ok(());
    };
    if key.id() != head.key_id {
        return Ok(());
    }
    let data_dir_id = keys.data_dir_id().await?;
    if let Some(old) = stored(keys).await? {
        if old.authentic(&key) && old.data_dir_id == data_dir_id {
            if old.seq >= head.seq {
                *written = Some(old.seq);
                return Ok(());
            }
            let mut conn = pool.acquire().await?;
            if let Some(problem) = still_holds(&mut conn, &old).await? {
                tracing::error!(
                    "the audit head checkpoint is kept at row {}: {problem}; \
                     `gatehouse audit verify` says more",
                    old.seq
                );
                return Err(HostError::AuditBroken {
                    seq: old.seq,
                    reason: problem,
                });
            }
        } else {
            tracing::warn!("the audit head checkpoint in the keyring is not authentic; replaced");
        }
    }
    let checkpoint = Checkpoint::new(&data_dir_id, head, &key);
    let text = serde_json::to_string(&checkpoint)
        .map_err(|e| HostError::Corrupt(format!("cannot encode a checkpoint: {e}")))?;
    keys.store()
        .set(
            &keys.head_entry().await?,
            "Gatehouse: audit log head checkpoint",
            &text,
        )
        .await?;
    *written = Some(head.seq);
    checkpoints.written_seq.send_replace(head.seq);
    Ok(())
}

/// Why the table no longer holds the row `checkpoint` records, if it does not: the row is
/// there with the checkpoint's hash, or was pruned (the first row left is after it).
pub(crate) async fn still_holds(
    conn: &mut SqliteConnection,
    checkpoint: &Checkpoint,
) -> Result<Option<String>> {
    let row: Option<String> = sqlx::query_scalar("SELECT hash FROM audit_log WHERE seq = ?")
        .bind(checkpoint.seq)
        .fetch_optional(&mut *conn)
        .await?;
    match row {
        Some(hash) if hash == checkpoint.hash => Ok(None),
        Some(_) => Ok(Some(format!(
            "row {} is not the row the head checkpoint records",
            checkpoint.seq
        ))),
        None => {
            let last: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM audit_log")
                .fetch_one(&mut *conn)
                .await?;
            if last < checkpoint.seq {
                Ok(Some(format!(
                    "{} (the log ends at row {last}, but the head checkpoint records row {})",
                    super::chain::missing(last + 1, checkpoint.seq),
                    checkpoint.seq
                )))
            } else {
                // Pruned: verify checks the anchor that accounts for it.
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_write_is_at_once_and_later_ones_wait_out_the_interval() {
        let start = Instant::now();
        let mut debounce = Debounce {
            interval: Duration::from_secs(5),
            last: None,
        };
        assert_eq!(debounce.due(start), start, "nothing written yet: at once");
        debounce.last = Some(start);
        let soon = start + Duration::from_secs(1);
        assert_eq!(
            debounce.due(soon),
            start + Duration::from_secs(5),
            "within the interval: when it ends"
        );
        let later = start + Duration::from_secs(9);
        assert_eq!(debounce.due(later), later, "after it: at once");
    }

    #[test]
    fn a_checkpoint_is_authentic_only_under_its_key_and_unchanged() {
        let key = AuditKey::generate().expect("random");
        let head = Head {
            seq: 7,
            hash: "ab".repeat(32),
            key_id: key.id().to_owned(),
        };
        let checkpoint = Checkpoint::new("dir", &head, &key);
        assert!(checkpoint.authentic(&key));
        let text = serde_json::to_string(&checkpoint).expect("json");
        assert_eq!(Checkpoint::parse(&text).expect("parse"), checkpoint);
        let mut moved = checkpoint.clone();
        moved.seq = 3;
        assert!(!moved.authentic(&key), "a changed seq is caught");
        let other = AuditKey::generate().expect("random");
        assert!(!checkpoint.authentic(&other), "another key's");
        let forged = Checkpoint::new("dir", &head, &other);
        assert!(
            !forged.authentic(&key),
            "a checkpoint made with another key does not pass for this one's"
        );
    }
}
