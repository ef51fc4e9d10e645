//! How often a live session lists a server's tools again: at most once per interval
//! ([`RELIST_EVERY`] by default, `HostOptions::relist_every`), however many
//! `notifications/tools/list_changed`, stale lists or reopened subscriptions call for it. A
//! listing called for sooner is held until the interval has passed since the last one ended,
//! and every call that comes meanwhile is covered by that one listing; so a server that sends
//! `list_changed` in a loop costs one listing (and one write of its definitions) per interval.
//! A listing that follows the server's own `list_changed` is told on to whoever watches (the
//! gateway's agents) even when the list came back the same: the server said it changed, and
//! an agent relisting once too often costs less than one missing a change ([`RelistPace::announced`]).
//! Time is tokio's clock, which tests can pause and advance.

use std::time::Duration;

use tokio::time::Instant;

/// The least time between the end of one listing of a server's tools and the next.
pub const RELIST_EVERY: Duration = Duration::from_secs(1);

/// When a server's tools were last listed, and whether a listing is held.
#[derive(Debug)]
pub(super) struct RelistPace {
    every: Duration,
    last: Option<Instant>,
    held: Option<Instant>,
    announced: bool,
}

impl RelistPace {
    pub(super) fn new(every: Duration) -> Self {
        Self {
            every,
            last: None,
            held: None,
            announced: false,
        }
    }

    /// The server announced that its tools changed: the next listing is told on.
    pub(super) fn announce(&mut self) {
        self.announced = true;
    }

    /// Whether the listing about to run follows the server's announcement; asked once.
    pub(super) fn announced(&mut self) -> bool {
        std::mem::take(&mut self.announced)
    }

    /// The tools were just listed: a held listing is done with.
    pub(super) fn listed(&mut self) {
        self.last = Some(Instant::now());
        self.held = None;
    }

    /// A listing is called for: true if it may run now; otherwise it is held until
    /// [`RelistPace::due`].
    pub(super) fn ask(&mut self) -> bool {
        let Some(next) = self.last.and_then(|last| last.checked_add(self.every)) else {
            return true;
        };
        if Instant::now() >= next {
            return true;
        }
        self.held.get_or_insert(next);
        false
    }

    /// Completes when the listing held now may run; never if none is held.
    pub(super) fn due(&self) -> impl std::future::Future<Output = ()> + use<> {
        let held = self.held;
        async move {
            match held {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::Pin;

    /// Whether the future completes when polled now.
    async fn ready(future: Pin<&mut impl Future<Output = ()>>) -> bool {
        tokio::select! {
            biased;
            () = future => true,
            () = std::future::ready(()) => false,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_storm_of_calls_makes_one_listing_per_interval() {
        let every = Duration::from_secs(1);
        let mut pace = RelistPace::new(every);
        assert!(pace.ask(), "the first listing runs at once");
        pace.listed();
        for _ in 0..1000 {
            assert!(!pace.ask(), "calls within the interval are held");
        }
        let held = pace.due();
        tokio::pin!(held);
        tokio::time::advance(every - Duration::from_millis(1)).await;
        assert!(!ready(held.as_mut()).await, "not before the interval");
        tokio::time::advance(Duration::from_millis(1)).await;
        assert!(ready(held.as_mut()).await, "one listing then");
        pace.listed();
        let idle = pace.due();
        tokio::pin!(idle);
        tokio::time::advance(every * 10).await;
        assert!(!ready(idle.as_mut()).await, "nothing is held once it ran");
        assert!(pace.ask(), "a call after a quiet interval runs at once");
    }
}
