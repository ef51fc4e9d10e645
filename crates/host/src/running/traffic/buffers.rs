//! Every server's recorded messages ([`Traffic`]): one ring per server, and the set of servers
//! with messages a follower has not yet been told of.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::Notify;

use super::entry::{TrafficEntry, TrafficPage};
use super::ring::TrafficRing;

/// The most bytes of one message's text kept; the rest is cut and the entry marked.
pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;

/// Every server's recorded messages, shared by the clones of a host's registry.
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    rings: Arc<Mutex<HashMap<String, TrafficRing>>>,
    /// Servers with messages not yet announced to the follower.
    changed: Arc<Mutex<HashSet<String>>>,
    notify: Arc<Notify>,
}

impl Traffic {
    /// Keeps one message of a server.
    pub fn record(&self, server_id: &str, entry: TrafficEntry) {
        {
            let mut rings = self.rings.lock().unwrap_or_else(PoisonError::into_inner);
            match rings.get_mut(server_id) {
                Some(ring) => ring.push(entry),
                None => rings.entry(server_id.to_owned()).or_default().push(entry),
            };
        }
        let mut changed = self.changed.lock().unwrap_or_else(PoisonError::into_inner);
        if !changed.contains(server_id) {
            changed.insert(server_id.to_owned());
            self.notify.notify_one();
        }
    }

    /// A server's messages after `seq`: at most `max_count`, and `max_bytes` past the first.
    pub fn after(
        &self,
        server_id: &str,
        seq: u64,
        max_count: usize,
        max_bytes: usize,
    ) -> TrafficPage {
        let rings = self.rings.lock().unwrap_or_else(PoisonError::into_inner);
        rings
            .get(server_id)
            .map(|ring| ring.after(seq, max_count, max_bytes))
            .unwrap_or_default()
    }

    /// How many messages and bytes are kept for a server.
    pub fn size(&self, server_id: &str) -> (usize, usize) {
        let rings = self.rings.lock().unwrap_or_else(PoisonError::into_inner);
        rings
            .get(server_id)
            .map(TrafficRing::size)
            .unwrap_or_default()
    }

    /// Waits until some server has new messages and returns which (for one follower).
    pub async fn changed(&self) -> HashSet<String> {
        loop {
            let notified = self.notify.notified();
            {
                let mut changed = self.changed.lock().unwrap_or_else(PoisonError::into_inner);
                if !changed.is_empty() {
                    return std::mem::take(&mut *changed);
                }
            }
            notified.await;
        }
    }

    /// The servers with new messages since the last call, without waiting.
    pub fn take_changed(&self) -> HashSet<String> {
        std::mem::take(&mut *self.changed.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Forgets a server's messages (it was removed).
    pub fn forget(&self, server_id: &str) {
        self.rings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(server_id);
    }
}
