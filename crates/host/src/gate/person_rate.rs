//! A bound on how often one server may ask the person (sampling and elicitation requests):
//! 2025-11-25 client/sampling and client/elicitation, "Security Considerations": clients
//! SHOULD implement rate limiting. A server may have at most [`WAITING`] such requests waiting
//! for an answer at once, and may put at most [`PER_MINUTE`] to the person in any minute; past
//! either, a request is refused at once (and recorded), so one server cannot flood the person,
//! nor fill the approval queue that every server shares.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Requests one server may have waiting for the person at once.
pub const WAITING: usize = 3;

/// Requests one server may put to the person in any 60 seconds.
pub const PER_MINUTE: usize = 10;

const MINUTE: Duration = Duration::from_secs(60);

/// The most servers tracked; past it, the idle ones are forgotten.
const MAX_SERVERS: usize = 1024;

#[derive(Debug, Default)]
struct Asks {
    /// When each request of the last minute was put to the person, oldest first.
    recent: VecDeque<Instant>,
    waiting: usize,
}

/// Every server's recent requests to the person; clones share them.
#[derive(Debug, Default, Clone)]
pub(crate) struct PersonRate {
    by_server: Arc<Mutex<HashMap<String, Asks>>>,
}

/// A request admitted: it counts as waiting until this is dropped.
#[derive(Debug)]
pub(crate) struct Admitted {
    rate: PersonRate,
    server_id: String,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Some(asks) = self.rate.lock().get_mut(&self.server_id) {
            asks.waiting = asks.waiting.saturating_sub(1);
        }
    }
}

impl PersonRate {
    /// Admits a request of the server `server_id` arriving at `now`, or says why not.
    pub(crate) fn admit(&self, server_id: &str, now: Instant) -> Result<Admitted, String> {
        let mut by_server = self.lock();
        if by_server.len() >= MAX_SERVERS && !by_server.contains_key(server_id) {
            by_server.retain(|_, asks| asks.waiting > 0);
        }
        let asks = by_server.entry(server_id.to_owned()).or_default();
        while asks
            .recent
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= MINUTE)
        {
            asks.recent.pop_front();
        }
        if asks.waiting >= WAITING {
            return Err(format!(
                "the server already has {WAITING} requests waiting for an answer"
            ));
        }
        if asks.recent.len() >= PER_MINUTE {
            return Err(format!(
                "the server asked {PER_MINUTE} times in the last minute, the most allowed"
            ));
        }
        asks.recent.push_back(now);
        asks.waiting += 1;
        Ok(Admitted {
            rate: self.clone(),
            server_id: server_id.to_owned(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Asks>> {
        self.by_server
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_waits_on_at_most_three_answers_at_once() {
        let rate = PersonRate::default();
        let now = Instant::now();
        let held: Vec<_> = (0..WAITING)
            .map(|_| rate.admit("a", now).expect("admitted"))
            .collect();
        let refused = rate.admit("a", now).expect_err("a fourth waits for none");
        assert!(refused.contains("waiting"), "{refused}");
        assert!(
            rate.admit("b", now).is_ok(),
            "another server is not held back by the first"
        );
        drop(held);
        assert!(rate.admit("a", now).is_ok(), "answered ones make room");
    }

    #[test]
    fn a_server_asks_at_most_ten_times_a_minute() {
        let rate = PersonRate::default();
        let start = Instant::now();
        for i in 0..PER_MINUTE {
            let at = start + Duration::from_secs(u64::try_from(i).unwrap_or(0));
            drop(rate.admit("a", at).expect("within the budget"));
        }
        let refused = rate
            .admit("a", start + Duration::from_secs(30))
            .expect_err("the eleventh in a minute");
        assert!(refused.contains("last minute"), "{refused}");
        assert!(
            rate.admit("a", start + Duration::from_secs(60)).is_ok(),
            "a minute after the first, there is room for one more"
        );
    }
}
