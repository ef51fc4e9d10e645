//! [`LatestSink`]: delivering a stream of updates (progress, task status) to a caller's bounded
//! channel without ever blocking the request or growing without bound: when the caller's
//! channel is full, the newest update is held back (replacing any update held before it) and
//! sent as soon as there is room, so a slow reader skips intermediate updates but always sees
//! the latest one.

use tokio::sync::mpsc;

/// A suggested capacity for a caller's progress or task-status channel.
pub const UPDATE_BUFFER: usize = 64;

/// A caller's channel and the one update waiting for room in it.
#[derive(Debug)]
pub struct LatestSink<T> {
    sink: mpsc::Sender<T>,
    held: Option<T>,
    /// How many updates were skipped because the reader fell behind (for the log).
    skipped: u64,
}

impl<T> LatestSink<T> {
    pub fn new(sink: mpsc::Sender<T>) -> Self {
        Self {
            sink,
            held: None,
            skipped: 0,
        }
    }

    /// Offers an update: sent at once if there is room (after the update held back, if any),
    /// else held in place of any update held before it.
    pub fn offer(&mut self, update: T) {
        if let Some(older) = self.held.take() {
            match self.sink.try_send(older) {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Closed(_)) => return,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    self.skipped += 1;
                    self.held = Some(update);
                    return;
                }
            }
        }
        match self.sink.try_send(update) {
            Ok(()) | Err(mpsc::error::TrySendError::Closed(_)) => {}
            Err(mpsc::error::TrySendError::Full(update)) => {
                if self.skipped == 0 {
                    tracing::debug!(
                        "the update reader is behind its {}-slot channel; keeping only the latest update",
                        self.sink.max_capacity()
                    );
                }
                self.held = Some(update);
            }
        }
    }

    /// Whether an update waits for room.
    pub fn is_holding(&self) -> bool {
        self.held.is_some()
    }

    /// Waits for room and sends the held update. Pending forever when nothing is held, so it
    /// can sit in a `select!` beside other work. Cancel-safe: the update stays held until sent.
    pub async fn send_held(&mut self) {
        if self.held.is_none() {
            return std::future::pending().await;
        }
        match self.sink.reserve().await {
            Ok(permit) => {
                if let Some(update) = self.held.take() {
                    permit.send(update);
                }
            }
            Err(_) => self.held = None,
        }
    }

    /// Sends the held update if there is room now, else drops it (the request is over and must
    /// not wait for a reader that may never read).
    pub fn flush(&mut self) {
        if let Some(update) = self.held.take()
            && let Err(mpsc::error::TrySendError::Full(_)) = self.sink.try_send(update)
        {
            self.skipped += 1;
        }
        if self.skipped > 0 {
            tracing::info!(
                "{} updates were skipped because their reader fell behind",
                self.skipped
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_slow_reader_gets_the_latest_update_and_nothing_grows() {
        let (tx, mut rx) = mpsc::channel(2);
        let mut sink = LatestSink::new(tx);
        for n in 0..1000 {
            sink.offer(n);
        }
        assert!(sink.is_holding());
        assert_eq!(rx.recv().await, Some(0));
        sink.send_held().await;
        assert_eq!(
            (rx.recv().await, rx.recv().await),
            (Some(1), Some(999)),
            "the two that fit, then the latest; the rest were skipped"
        );
        sink.offer(1000);
        sink.flush();
        assert_eq!(rx.recv().await, Some(1000));
    }
}
