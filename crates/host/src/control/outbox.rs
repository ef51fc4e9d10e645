//! What goes back to one face: its queue of messages, each encoded as its line when queued,
//! bounded by count ([`OUTGOING_QUEUE`]) and by bytes ([`OUTGOING_BYTES`], counted when a line
//! is queued and released once it is written). A line that would go over either bound means the
//! face does not read: the queue is cut (it takes nothing more, so the face's requests still
//! running need not build their replies) and the connection ended. A single line longer than the
//! byte budget is taken only into an empty queue, so a face that reads always gets its reply. And
//! the face as its requests know it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde_json::Value;
use tokio::io::AsyncWrite;
use tokio::sync::{Notify, mpsc};

use super::framing::{encode, write_line};
use super::protocol::{FaceKind, OUTGOING_BYTES, OUTGOING_QUEUE};

/// How long the last messages to a face (or to an agent on its own stdio) may take to be
/// written once it is closing.
pub(crate) const FLUSH_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// The sending side of the queue to one face.
#[derive(Clone)]
pub(crate) struct Outbox {
    tx: mpsc::Sender<Vec<u8>>,
    queued: Arc<AtomicUsize>,
    budget: usize,
    cut: Arc<AtomicBool>,
    /// Notified when the face let the queue fill: the connection is to end.
    pub overflow: Arc<Notify>,
}

/// The writing side: the lines to write, in order.
pub(crate) struct Outgoing {
    rx: mpsc::Receiver<Vec<u8>>,
    queued: Arc<AtomicUsize>,
}

impl Outbox {
    /// A queue bounded by [`OUTGOING_QUEUE`] messages and [`OUTGOING_BYTES`] bytes.
    pub fn new() -> (Outbox, Outgoing) {
        Self::bounded(OUTGOING_QUEUE, OUTGOING_BYTES)
    }

    fn bounded(count: usize, bytes: usize) -> (Outbox, Outgoing) {
        let (tx, rx) = mpsc::channel(count);
        let queued = Arc::new(AtomicUsize::new(0));
        let outbox = Outbox {
            tx,
            queued: queued.clone(),
            budget: bytes,
            cut: Arc::new(AtomicBool::new(false)),
            overflow: Arc::new(Notify::new()),
        };
        (outbox, Outgoing { rx, queued })
    }

    /// Whether the queue was cut (the face let it fill): nothing more is sent to the face.
    pub fn is_cut(&self) -> bool {
        self.cut.load(Ordering::Acquire)
    }

    /// Counts `len` more bytes as queued, if the byte bound allows them (a line alone in the
    /// queue always fits).
    fn admit(&self, len: usize) -> bool {
        let budget = self.budget;
        self.queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |queued| {
                (queued == 0 || queued.saturating_add(len) <= budget).then_some(queued + len)
            })
            .is_ok()
    }

    fn cut_off(&self) {
        self.cut.store(true, Ordering::Release);
        self.overflow.notify_one();
    }

    /// Queues `message`; one over the queue's bounds means the face does not read: the queue is
    /// cut and the connection ends.
    pub fn send(&self, message: Value) {
        if self.is_cut() {
            return;
        }
        let line = match encode(&message) {
            Ok(line) => line,
            Err(e) => {
                tracing::warn!("a message to a face could not be encoded: {e}");
                return;
            }
        };
        let len = line.len();
        if !self.admit(len) {
            self.cut_off();
            return;
        }
        match self.tx.try_send(line) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.queued.fetch_sub(len, Ordering::AcqRel);
                self.cut_off();
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.queued.fetch_sub(len, Ordering::AcqRel);
            }
        }
    }

    /// Queues `message` once the queue has room for one more (for a stream whose source can
    /// wait: a watch, an agent's session), so a face slow to read holds its stream back instead
    /// of being cut off by count; the byte bound still cuts a face that lets the bytes pile up.
    /// `false` when the connection is gone or cut.
    pub async fn deliver(&self, message: Value) -> bool {
        let Ok(permit) = self.tx.reserve().await else {
            return false;
        };
        if self.is_cut() {
            return false;
        }
        let line = match encode(&message) {
            Ok(line) => line,
            Err(e) => {
                tracing::warn!("a message to a face could not be encoded: {e}");
                return true;
            }
        };
        let len = line.len();
        if !self.admit(len) {
            self.cut_off();
            return false;
        }
        permit.send(line);
        true
    }
}

impl Outgoing {
    /// The next line to write, once one is queued; `None` when every sender is gone. Its bytes
    /// stay counted until [`Outgoing::written`].
    pub async fn next(&mut self) -> Option<Vec<u8>> {
        self.rx.recv().await
    }

    /// A line of `len` bytes was written (or given up): its bytes leave the budget.
    pub fn written(&self, len: usize) {
        self.queued.fetch_sub(len, Ordering::AcqRel);
    }

    /// Writes the queue's lines to `write` until every sender is gone or a write fails.
    pub async fn write_to<W: AsyncWrite + Unpin>(mut self, mut write: W) {
        while let Some(line) = self.next().await {
            let written = write_line(&mut write, &line).await;
            self.written(line.len());
            if written.is_err() {
                return;
            }
        }
    }
}

/// The face, as the requests it makes know it.
#[derive(Debug, Clone)]
pub(crate) struct Face {
    pub kind: FaceKind,
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A message whose line is exactly `len` bytes.
    fn message(len: usize) -> Value {
        // `"…"` and the newline are 3 bytes.
        Value::from("x".repeat(len - 3))
    }

    /// Whether the queue told its connection to end (without waiting).
    async fn overflowed(outbox: &Outbox) -> bool {
        tokio::time::timeout(Duration::ZERO, outbox.overflow.notified())
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn a_face_that_does_not_read_is_cut_off_by_bytes_before_the_count() {
        let (outbox, mut outgoing) = Outbox::bounded(100, 1000);
        for _ in 0..3 {
            outbox.send(message(300));
        }
        assert!(!overflowed(&outbox).await, "900 bytes are within 1000");
        outbox.send(message(300));
        assert!(
            overflowed(&outbox).await,
            "1200 bytes are over the budget, with 4 of 100 messages"
        );
        assert!(outbox.is_cut());
        outbox.send(message(10));
        // What was refused, and anything after it, was never queued: three lines wait.
        let mut waiting = 0;
        while let Ok(Some(line)) = tokio::time::timeout(Duration::ZERO, outgoing.next()).await {
            assert_eq!(line.len(), 300);
            waiting += 1;
        }
        assert_eq!(waiting, 3);
    }

    #[tokio::test]
    async fn written_lines_leave_the_budget_and_the_one_being_written_still_counts() {
        let (outbox, mut outgoing) = Outbox::bounded(100, 1000);
        outbox.send(message(600));
        let line = outgoing.next().await.expect("queued");
        outgoing.written(line.len());
        outbox.send(message(600));
        assert!(
            !overflowed(&outbox).await,
            "the written line's bytes were released"
        );

        let (outbox, mut outgoing) = Outbox::bounded(100, 1000);
        outbox.send(message(600));
        let _being_written = outgoing.next().await.expect("queued");
        outbox.send(message(600));
        assert!(
            overflowed(&outbox).await,
            "a line taken off the queue but not yet written still counts"
        );
    }

    #[tokio::test]
    async fn a_line_longer_than_the_budget_goes_only_into_an_empty_queue() {
        let (outbox, mut outgoing) = Outbox::bounded(100, 1000);
        outbox.send(message(5000));
        assert!(
            !overflowed(&outbox).await,
            "a reply longer than the budget still reaches a face that reads"
        );
        let line = outgoing.next().await.expect("queued");
        assert_eq!(line.len(), 5000);
        outgoing.written(line.len());
        outbox.send(message(10));
        assert!(!overflowed(&outbox).await);

        let (outbox, _outgoing) = Outbox::bounded(100, 1000);
        outbox.send(message(5000));
        outbox.send(message(10));
        assert!(
            overflowed(&outbox).await,
            "nothing goes after it until it is written"
        );
    }

    #[tokio::test]
    async fn a_full_count_still_cuts_off_small_messages() {
        let (outbox, _outgoing) = Outbox::bounded(2, 1000);
        outbox.send(message(10));
        outbox.send(message(10));
        assert!(!overflowed(&outbox).await);
        outbox.send(message(10));
        assert!(
            overflowed(&outbox).await,
            "a third message is over the count"
        );
    }
}
