//! The queue of notices a live session still has to act on (the tool list changed or went
//! stale, the roots changed). Each distinct notice is held at most once, however often it
//! arrives: acting on it once covers every copy, so a server that floods
//! `notifications/tools/list_changed` costs one pending entry, never memory.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

struct Shared<T> {
    pending: Mutex<Vec<T>>,
    ready: Notify,
    /// The receiver still exists.
    open: AtomicBool,
}

/// The sending side; clones share the queue.
pub struct NoticeSender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Clone for NoticeSender<T> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> std::fmt::Debug for NoticeSender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NoticeSender").finish_non_exhaustive()
    }
}

/// The receiving side; dropping it closes the queue.
pub struct NoticeReceiver<T> {
    shared: Arc<Shared<T>>,
}

/// The receiver is gone: nobody will act on the notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

/// A new, empty queue.
pub fn notice_queue<T>() -> (NoticeSender<T>, NoticeReceiver<T>) {
    let shared = Arc::new(Shared {
        pending: Mutex::new(Vec::new()),
        ready: Notify::new(),
        open: AtomicBool::new(true),
    });
    (
        NoticeSender {
            shared: Arc::clone(&shared),
        },
        NoticeReceiver { shared },
    )
}

fn lock<T>(pending: &Mutex<Vec<T>>) -> MutexGuard<'_, Vec<T>> {
    pending.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<T: PartialEq> NoticeSender<T> {
    /// Queues `notice` unless the same one already waits.
    pub fn send(&self, notice: T) -> Result<(), Closed> {
        if !self.shared.open.load(Ordering::Acquire) {
            return Err(Closed);
        }
        {
            let mut pending = lock(&self.shared.pending);
            if !pending.contains(&notice) {
                pending.push(notice);
            }
        }
        self.shared.ready.notify_one();
        Ok(())
    }
}

impl<T> NoticeReceiver<T> {
    /// The oldest waiting notice, waiting for one if none is there. While a sender exists it
    /// always returns one eventually; it returns `None` never, and is cancel-safe.
    pub async fn recv(&mut self) -> Option<T> {
        loop {
            {
                let mut pending = lock(&self.shared.pending);
                if !pending.is_empty() {
                    return Some(pending.remove(0));
                }
            }
            // A notice sent after the check leaves a permit, so this wakes at once.
            self.shared.ready.notified().await;
        }
    }

    /// How many distinct notices wait.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        lock(&self.shared.pending).len()
    }

    /// Whether none waits.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T> Drop for NoticeReceiver<T> {
    fn drop(&mut self) {
        self.shared.open.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Notice {
        Tools,
        Roots,
    }

    #[tokio::test]
    async fn a_flood_of_one_notice_is_held_once_and_others_keep_their_order() {
        let (sender, mut receiver) = notice_queue();
        for _ in 0..100_000 {
            sender.send(Notice::Tools).expect("open");
        }
        sender.send(Notice::Roots).expect("open");
        sender.send(Notice::Tools).expect("open");
        assert_eq!(receiver.len(), 2, "one of each, whatever the flood");
        assert_eq!(receiver.recv().await, Some(Notice::Tools));
        assert_eq!(receiver.recv().await, Some(Notice::Roots));
        assert!(receiver.is_empty());
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_on_a_send_and_a_dropped_one_closes_the_queue() {
        let (sender, mut receiver) = notice_queue();
        let waiting = tokio::spawn(async move {
            let first = receiver.recv().await;
            (first, receiver)
        });
        tokio::task::yield_now().await;
        sender.send(Notice::Roots).expect("open");
        let (first, receiver) = tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("woken")
            .expect("task");
        assert_eq!(first, Some(Notice::Roots));
        drop(receiver);
        assert_eq!(sender.send(Notice::Tools), Err(Closed));
    }
}
