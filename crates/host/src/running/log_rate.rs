//! A bound on how fast one server's log messages (`notifications/message`) reach Gatehouse's log
//! (2025-11-25 and 2026-07-28 server/utilities/logging, "Security": implementations SHOULD rate
//! limit messages). Each server gets a budget of messages per one-second window ([`PER_WINDOW`],
//! 50); past it messages are dropped, and the next admitted one says how many were.

use std::time::{Duration, Instant};

/// Messages a server may log in one window.
pub const PER_WINDOW: u32 = 50;
const WINDOW: Duration = Duration::from_secs(1);

/// One server's log budget.
#[derive(Debug)]
pub struct LogRate {
    window_start: Instant,
    admitted: u32,
    dropped: u64,
}

/// Whether a message may be logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Log it.
    Yes,
    /// Log it, and say that this many were dropped before it.
    AfterDropping(u64),
    /// Over budget: drop it.
    No,
}

impl LogRate {
    pub fn new(now: Instant) -> Self {
        Self {
            window_start: now,
            admitted: 0,
            dropped: 0,
        }
    }

    /// Counts a message arriving at `now`.
    pub fn admit(&mut self, now: Instant) -> Admit {
        if now.duration_since(self.window_start) >= WINDOW {
            self.window_start = now;
            self.admitted = 0;
        }
        if self.admitted >= PER_WINDOW {
            self.dropped += 1;
            return Admit::No;
        }
        self.admitted += 1;
        match std::mem::take(&mut self.dropped) {
            0 => Admit::Yes,
            dropped => Admit::AfterDropping(dropped),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_cut_to_the_budget_and_the_loss_reported() {
        let start = Instant::now();
        let mut rate = LogRate::new(start);
        let admitted = (0..PER_WINDOW + 30)
            .filter(|_| rate.admit(start) != Admit::No)
            .count();
        assert_eq!(
            admitted, PER_WINDOW as usize,
            "a server cannot flood the log past its budget"
        );
        assert_eq!(
            rate.admit(start + WINDOW),
            Admit::AfterDropping(30),
            "the next window's first message says how many were lost"
        );
        assert_eq!(rate.admit(start + WINDOW), Admit::Yes);
    }
}
