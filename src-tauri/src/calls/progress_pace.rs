//! A call's progress paced for the window: the first update after a quiet moment goes at once,
//! then at most one every [`PACE`], each the latest (a server reporting thousands of steps a
//! second shows its last step, not a queue of old ones). Times are given by the caller, so the
//! tests drive the clock.

use std::time::Instant;

use gatehouse_host::protocol::Progress;

/// The least time between two progress events of one call: the window's pace for state events.
pub use crate::events::PACE;

/// The progress held back until the pace allows it, and when the last one went.
#[derive(Debug, Default)]
pub struct ProgressPace {
    last_sent: Option<Instant>,
    held: Option<Progress>,
}

impl ProgressPace {
    /// Takes an update at `now`: returned if it may go now, otherwise held (replacing any
    /// update held before it).
    pub fn offer(&mut self, update: Progress, now: Instant) -> Option<Progress> {
        if self
            .last_sent
            .is_none_or(|sent| now.duration_since(sent) >= PACE)
        {
            self.last_sent = Some(now);
            self.held = None;
            Some(update)
        } else {
            self.held = Some(update);
            None
        }
    }

    /// When the held update may go, if one is held.
    pub fn due_at(&self) -> Option<Instant> {
        self.held.as_ref()?;
        self.last_sent.map(|sent| sent + PACE)
    }

    /// The held update, sent at `now`.
    pub fn release(&mut self, now: Instant) -> Option<Progress> {
        let held = self.held.take()?;
        self.last_sent = Some(now);
        Some(held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn step(n: f64) -> Progress {
        Progress {
            progress: n,
            total: Some(1000.0),
            message: None,
        }
    }

    #[test]
    fn a_burst_shows_its_first_update_then_only_the_latest_each_pace() {
        let start = Instant::now();
        let mut pace = ProgressPace::default();
        assert_eq!(pace.offer(step(1.0), start).map(|p| p.progress), Some(1.0));
        assert_eq!(pace.due_at(), None, "nothing held");
        for n in 2..=500 {
            let at = start + Duration::from_micros(n * 100);
            assert!(
                pace.offer(step(n as f64), at).is_none(),
                "held within the pace"
            );
        }
        assert_eq!(pace.due_at(), Some(start + PACE));
        let released = pace.release(start + PACE).map(|p| p.progress);
        assert_eq!(released, Some(500.0), "the latest, not the first held");
        assert_eq!(pace.release(start + PACE), None);
        assert!(
            pace.offer(step(501.0), start + PACE + Duration::from_millis(10))
                .is_none()
        );
        assert_eq!(
            pace.offer(step(502.0), start + PACE * 2)
                .map(|p| p.progress),
            Some(502.0),
            "a pace later an update goes at once"
        );
    }
}
