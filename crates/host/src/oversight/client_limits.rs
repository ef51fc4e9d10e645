//! Each gateway client's share of the engine: at most so many requests running at once and so
//! many in any 60 seconds, across all its sessions (stdio and HTTP alike), as its profile's
//! [`Limits`] say (the profile is `gateway::profiles`; the engine keeps one [`Limiter`]). A request over a limit is refused at once with an error naming the limit;
//! other clients are not affected. The time is given by the caller (the session passes tokio's
//! clock, which a test can pause and advance), so the window is tested without waiting.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use serde::Serialize;

/// A client's limits, every one resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    pub max_in_flight: u32,
    /// `None`: no limit.
    pub per_minute: Option<u32>,
    pub max_message_bytes: u32,
}

const MINUTE: Duration = Duration::from_secs(60);
/// The most clients tracked; past it, the idle ones are forgotten.
const MAX_CLIENTS: usize = 1024;

/// Which limit a request was over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Over {
    InFlight(u32),
    /// The limit, and how long until a request would be admitted again.
    PerMinute(u32, Duration),
}

impl Over {
    /// What the client is told.
    pub fn message(&self, client: &str) -> String {
        match self {
            Over::InFlight(n) => format!(
                "client `{client}` is over its limit of {n} requests in flight; wait for one to finish (the person can raise it: `gatehouse clients profile {client} --max-in-flight N`)"
            ),
            Over::PerMinute(n, wait) => format!(
                "client `{client}` is over its limit of {n} requests per minute; try again in {} s (the person can raise it: `gatehouse clients profile {client} --per-minute N`)",
                wait.as_secs().max(1)
            ),
        }
    }
}

#[derive(Debug, Default)]
struct Usage {
    in_flight: u32,
    /// When each request of the last minute was admitted, oldest first (kept only while the
    /// client has a per-minute limit, so at most that many).
    recent: VecDeque<Instant>,
}

/// Every client's requests running and recent; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Limiter {
    by_client: Arc<Mutex<HashMap<String, Usage>>>,
}

/// An admitted request: it counts as in flight until dropped.
#[derive(Debug)]
pub struct Admitted {
    limiter: Limiter,
    client: String,
}

impl Limiter {
    /// Admits a request of `client` arriving at `now`, or says which limit it is over.
    pub fn admit(&self, client: &str, limits: &Limits, now: Instant) -> Result<Admitted, Over> {
        let mut by_client = self
            .by_client
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if by_client.len() >= MAX_CLIENTS && !by_client.contains_key(client) {
            by_client.retain(|_, usage| usage.in_flight > 0);
        }
        let usage = by_client.entry(client.to_owned()).or_default();
        while usage
            .recent
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= MINUTE)
        {
            usage.recent.pop_front();
        }
        if usage.in_flight >= limits.max_in_flight {
            return Err(Over::InFlight(limits.max_in_flight));
        }
        match limits.per_minute {
            Some(limit) => {
                if usage.recent.len() >= limit as usize {
                    let oldest = usage.recent.front().copied().unwrap_or(now);
                    let wait = MINUTE.saturating_sub(now.saturating_duration_since(oldest));
                    return Err(Over::PerMinute(limit, wait));
                }
                usage.recent.push_back(now);
            }
            None => usage.recent.clear(),
        }
        usage.in_flight += 1;
        Ok(Admitted {
            limiter: self.clone(),
            client: client.to_owned(),
        })
    }

    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.by_client
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut by_client = self
            .limiter
            .by_client
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(usage) = by_client.get_mut(&self.client) {
            usage.in_flight = usage.in_flight.saturating_sub(1);
            if usage.in_flight == 0 && usage.recent.is_empty() {
                by_client.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(in_flight: u32, per_minute: Option<u32>) -> Limits {
        Limits {
            max_in_flight: in_flight,
            per_minute,
            max_message_bytes: 1 << 20,
        }
    }

    #[test]
    fn requests_in_flight_are_limited_per_client_and_freed_when_done() {
        let limiter = Limiter::default();
        let now = Instant::now();
        let two = limits(2, None);
        let a = limiter.admit("flood", &two, now).expect("as expected");
        let _b = limiter.admit("flood", &two, now).expect("as expected");
        assert_eq!(
            limiter.admit("flood", &two, now).expect_err("refused"),
            Over::InFlight(2)
        );
        assert!(
            limiter.admit("calm", &two, now).is_ok(),
            "another client is not affected"
        );
        drop(a);
        assert!(limiter.admit("flood", &two, now).is_ok(), "one finished");
    }

    #[test]
    fn requests_per_minute_are_limited_on_a_sliding_window_of_the_given_clock() {
        let limiter = Limiter::default();
        let start = Instant::now();
        let three = limits(100, Some(3));
        for i in 0..3 {
            let at = start + Duration::from_secs(i * 10);
            drop(limiter.admit("flood", &three, at).expect("as expected"));
        }
        let at = start + Duration::from_secs(30);
        let over = limiter.admit("flood", &three, at).expect_err("refused");
        assert_eq!(over, Over::PerMinute(3, Duration::from_secs(30)));
        assert!(over.message("flood").contains("3 requests per minute"));
        assert!(
            limiter.admit("calm", &three, at).is_ok(),
            "others unaffected"
        );
        // The first request leaves the window 60 s after it was made, not before.
        let almost = start + Duration::from_secs(59);
        assert!(limiter.admit("flood", &three, almost).is_err());
        let after = start + Duration::from_secs(60);
        assert!(limiter.admit("flood", &three, after).is_ok());
    }

    #[test]
    fn idle_clients_are_forgotten() {
        let limiter = Limiter::default();
        let now = Instant::now();
        drop(
            limiter
                .admit("a", &limits(1, None), now)
                .expect("as expected"),
        );
        assert_eq!(limiter.tracked(), 0, "no limit per minute: nothing kept");
        drop(
            limiter
                .admit("b", &limits(1, Some(5)), now)
                .expect("as expected"),
        );
        assert_eq!(limiter.tracked(), 1, "its minute is remembered");
    }
}
