//! The calls in flight, by the id the window gave them, each with the sender that cancels it.
//! The map is bounded, and a call's entry is removed when the call ends, however it ends.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::oneshot;

use crate::ipc_error::IpcError;
use gatehouse_host::ErrorCode;

/// How many calls may run at once.
pub const MAX_IN_FLIGHT: usize = 32;

type Senders = Arc<Mutex<HashMap<String, oneshot::Sender<()>>>>;

/// The calls in flight (app state).
#[derive(Debug, Default)]
pub struct PendingCalls {
    senders: Senders,
}

/// A call's place in the map; dropping it removes the entry.
pub struct Entry {
    senders: Senders,
    id: String,
}

impl Drop for Entry {
    fn drop(&mut self) {
        lock(&self.senders).remove(&self.id);
    }
}

fn lock(senders: &Senders) -> MutexGuard<'_, HashMap<String, oneshot::Sender<()>>> {
    senders.lock().unwrap_or_else(PoisonError::into_inner)
}

impl PendingCalls {
    /// Registers a call: the receiver fires when it is cancelled, and the entry lives as long
    /// as the call. Refused past [`MAX_IN_FLIGHT`] calls or for an id already in flight.
    pub fn begin(&self, id: &str) -> Result<(oneshot::Receiver<()>, Entry), IpcError> {
        let mut senders = lock(&self.senders);
        if senders.contains_key(id) {
            return Err(IpcError {
                code: ErrorCode::Validation,
                message: format!("a call with id `{id}` is already running"),
            });
        }
        if senders.len() >= MAX_IN_FLIGHT {
            return Err(IpcError {
                code: ErrorCode::TooManyCalls,
                message: format!(
                    "{MAX_IN_FLIGHT} tool calls are already running; wait for one to end"
                ),
            });
        }
        let (cancel, cancelled) = oneshot::channel();
        senders.insert(id.to_owned(), cancel);
        let entry = Entry {
            senders: self.senders.clone(),
            id: id.to_owned(),
        };
        Ok((cancelled, entry))
    }

    /// Cancels the call with this id; false if no such call is running.
    pub fn cancel(&self, id: &str) -> bool {
        lock(&self.senders)
            .remove(id)
            .is_some_and(|cancel| cancel.send(()).is_ok())
    }

    /// How many calls are in flight.
    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.senders).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_lives_as_long_as_its_call_and_the_map_is_bounded() {
        let pending = PendingCalls::default();
        let mut entries = Vec::new();
        for n in 0..MAX_IN_FLIGHT {
            entries.push(pending.begin(&n.to_string()).expect("room for the call"));
        }
        let refused = pending.begin("one more").err().expect("the map is full");
        assert_eq!(refused.code, "too_many_calls", "{}", refused.message);
        assert_eq!(
            pending.begin("0").err().map(|e| e.code.as_str()),
            Some("validation"),
            "an id in flight cannot be reused"
        );

        entries.pop();
        assert_eq!(
            pending.len(),
            MAX_IN_FLIGHT - 1,
            "an ended call leaves the map"
        );
        assert!(pending.begin("one more").is_ok(), "its place is free again");
    }

    #[test]
    fn cancelling_fires_the_calls_receiver_once() {
        let pending = PendingCalls::default();
        let (mut cancelled, _entry) = pending.begin("a").expect("begin");
        assert!(pending.cancel("a"), "a running call can be cancelled");
        assert_eq!(cancelled.try_recv(), Ok(()), "the call hears of it");
        assert!(
            !pending.cancel("a"),
            "a cancelled call is no longer pending"
        );
        assert!(!pending.cancel("unknown"), "nothing to cancel");
    }
}
