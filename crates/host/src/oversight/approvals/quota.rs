//! Fair shares of the person's attention. Whoever asks the person something (a server's
//! sampling or elicitation, an app's tool call or sampling, later a gateway client's call) is
//! an [`Asker`]: the server, the source and, for a source with several, the caller. Each asker
//! may have at most [`WAITING`] requests waiting for an answer at once and put at most
//! [`PER_MINUTE`] to the person in any minute; past either, its request is refused at once, so
//! one asker can neither flood the person nor fill the queue that every server shares. The
//! person's own requests (asked about because their rules say so) are not limited. 2025-11-25
//! client/sampling and client/elicitation, "Security Considerations": clients SHOULD implement
//! rate limiting.
//!
//! The time is given by the caller (the queue passes tokio's clock, which a test can pause and
//! advance).

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use tokio::time::Instant;

use crate::vocabulary::request::Source;

/// Requests one asker may have waiting for the person at once.
pub const WAITING: usize = 3;

/// Requests one asker may put to the person in any 60 seconds.
pub const PER_MINUTE: usize = 10;

const MINUTE: Duration = Duration::from_secs(60);

/// The most askers tracked; past it, the idle ones are forgotten.
const MAX_ASKERS: usize = 1024;

/// Who asks the person: a source of requests for one server.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Asker {
    pub server_id: String,
    pub source: Source,
    /// The calling client, for a source with several (none for the others).
    pub caller: Option<String>,
}

impl Asker {
    pub fn new(server_id: &str, source: Source, caller: Option<&str>) -> Self {
        Self {
            server_id: server_id.to_owned(),
            source,
            caller: caller.map(str::to_owned),
        }
    }

    /// Whether the asker's requests are limited: all but the person's own.
    fn limited(&self) -> bool {
        self.source != Source::User
    }

    fn who(&self) -> &'static str {
        match self.source {
            Source::Server => "the server",
            Source::App => "the server's app",
            Source::Model => "the model",
            Source::Gateway => "the gateway client",
            Source::User => "the person",
        }
    }
}

#[derive(Debug, Default)]
struct Asks {
    /// When each request of the last minute was put to the person, oldest first.
    recent: VecDeque<Instant>,
    waiting: usize,
}

/// Every asker's recent and waiting requests.
#[derive(Debug, Default)]
pub(super) struct Quota {
    by_asker: HashMap<Asker, Asks>,
}

impl Quota {
    /// Admits a request of `asker` arriving at `now` (counted as waiting until
    /// [`Quota::leave`]), or says why not.
    pub(super) fn admit(&mut self, asker: &Asker, now: Instant) -> Result<(), String> {
        if !asker.limited() {
            return Ok(());
        }
        if self.by_asker.len() >= MAX_ASKERS && !self.by_asker.contains_key(asker) {
            self.by_asker.retain(|_, asks| asks.waiting > 0);
        }
        let asks = self.by_asker.entry(asker.clone()).or_default();
        while asks
            .recent
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= MINUTE)
        {
            asks.recent.pop_front();
        }
        let who = asker.who();
        if asks.waiting >= WAITING {
            return Err(format!(
                "{who} already has {WAITING} requests waiting for an answer, the most allowed"
            ));
        }
        if asks.recent.len() >= PER_MINUTE {
            return Err(format!(
                "{who} asked {PER_MINUTE} times in the last minute, the most allowed"
            ));
        }
        asks.recent.push_back(now);
        asks.waiting += 1;
        Ok(())
    }

    /// A request of `asker` admitted earlier no longer waits.
    pub(super) fn leave(&mut self, asker: &Asker) {
        if let Some(asks) = self.by_asker.get_mut(asker) {
            asks.waiting = asks.waiting.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asker(server: &str, source: Source) -> Asker {
        Asker::new(server, source, None)
    }

    #[test]
    fn an_asker_waits_on_at_most_three_answers_at_once_and_others_are_not_held_back() {
        let mut quota = Quota::default();
        let now = Instant::now();
        let a = asker("a", Source::Server);
        for _ in 0..WAITING {
            quota.admit(&a, now).expect("admitted");
        }
        let refused = quota.admit(&a, now).expect_err("a fourth waits for none");
        assert!(refused.contains("waiting"), "{refused}");
        assert!(
            quota.admit(&asker("b", Source::Server), now).is_ok(),
            "another server is not held back by the first"
        );
        assert!(
            quota.admit(&asker("a", Source::App), now).is_ok(),
            "the server's app is another asker than the server"
        );
        quota.leave(&a);
        assert!(quota.admit(&a, now).is_ok(), "answered ones make room");
    }

    #[test]
    fn an_asker_asks_at_most_ten_times_a_minute() {
        let mut quota = Quota::default();
        let start = Instant::now();
        let a = asker("a", Source::App);
        for i in 0..PER_MINUTE {
            let at = start + Duration::from_secs(u64::try_from(i).unwrap_or(0));
            quota.admit(&a, at).expect("within the budget");
            quota.leave(&a);
        }
        let refused = quota
            .admit(&a, start + Duration::from_secs(30))
            .expect_err("the eleventh in a minute");
        assert!(refused.contains("last minute"), "{refused}");
        assert!(
            quota.admit(&a, start + Duration::from_secs(60)).is_ok(),
            "a minute after the first, there is room for one more"
        );
    }

    #[test]
    fn the_persons_own_requests_are_not_limited() {
        let mut quota = Quota::default();
        let now = Instant::now();
        let person = asker("a", Source::User);
        for _ in 0..(PER_MINUTE * 2) {
            quota
                .admit(&person, now)
                .expect("the person is not rate limited");
        }
    }
}
