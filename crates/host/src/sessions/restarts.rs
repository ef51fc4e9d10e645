//! When a live session's server is started again after it exited unexpectedly: after a pause
//! that doubles from [`FIRST_PAUSE`] to [`MAX_PAUSE`], back to the first pause once a run lasted
//! [`STABLE`]; and not at all once it exited [`LOOP_EXITS`] times within [`LOOP_WINDOW`] (a
//! crash loop, shown as `Crashed` with its last stderr lines). An HTTP server that is lost
//! is connected to again on the same pauses, and never given up on ([`Restarts::lost`]): it
//! is a network or a server that comes back, not a program that crashes.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

/// The pause before the first restart.
pub const FIRST_PAUSE: Duration = Duration::from_secs(1);
/// The longest pause between restarts.
pub const MAX_PAUSE: Duration = Duration::from_secs(60);
/// A run this long resets the pause to [`FIRST_PAUSE`].
pub const STABLE: Duration = Duration::from_secs(60);
/// This many exits within [`LOOP_WINDOW`] is a crash loop.
pub const LOOP_EXITS: usize = 5;
/// See [`LOOP_EXITS`].
pub const LOOP_WINDOW: Duration = Duration::from_secs(60);

/// What to do after an exit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// Start it again after `pause`; this is restart number `attempt` since the last stable run.
    Restart { attempt: u32, pause: Duration },
    /// A crash loop: `exits` exits within the window. Leave it stopped.
    GiveUp { exits: u32 },
}

/// The exits of one session's server.
#[derive(Debug, Default)]
pub(super) struct Restarts {
    /// When it exited, within the last [`LOOP_WINDOW`]; at most [`LOOP_EXITS`].
    exits: VecDeque<Instant>,
    attempt: u32,
}

impl Restarts {
    /// Records an exit at `now` of a run that lasted `lived`, and says what follows.
    pub(super) fn exited(&mut self, lived: Duration, now: Instant) -> Next {
        if lived >= STABLE {
            self.attempt = 0;
        }
        while self
            .exits
            .front()
            .is_some_and(|&at| now.duration_since(at) >= LOOP_WINDOW)
        {
            self.exits.pop_front();
        }
        self.exits.push_back(now);
        if self.exits.len() >= LOOP_EXITS {
            return Next::GiveUp {
                exits: u32::try_from(self.exits.len()).unwrap_or(u32::MAX),
            };
        }
        let (attempt, pause) = self.next_pause();
        Next::Restart { attempt, pause }
    }

    /// Records the loss of a connection that lasted `lived` and says which reconnection this
    /// is and after what pause.
    pub(super) fn lost(&mut self, lived: Duration) -> (u32, Duration) {
        if lived >= STABLE {
            self.attempt = 0;
        }
        self.next_pause()
    }

    fn next_pause(&mut self) -> (u32, Duration) {
        self.attempt = self.attempt.saturating_add(1);
        let doublings = (self.attempt - 1).min(16);
        let pause = FIRST_PAUSE.saturating_mul(1 << doublings).min(MAX_PAUSE);
        (self.attempt, pause)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn pauses_double_up_to_a_minute_and_reset_after_a_stable_run() {
        let mut restarts = Restarts::default();
        let mut now = Instant::now();
        let mut pauses = Vec::new();
        // Runs of 20 s: never five exits within a minute.
        for _ in 0..9 {
            now += secs(20);
            match restarts.exited(secs(20), now) {
                Next::Restart { pause, .. } => {
                    pauses.push(pause.as_secs());
                    now += pause;
                }
                Next::GiveUp { .. } => panic!("not a crash loop"),
            }
        }
        assert_eq!(pauses, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        now += secs(61);
        assert_eq!(
            restarts.exited(secs(61), now),
            Next::Restart {
                attempt: 1,
                pause: secs(1)
            }
        );
    }

    #[test]
    fn five_exits_within_a_minute_are_a_crash_loop() {
        let mut restarts = Restarts::default();
        let start = Instant::now();
        let nexts: Vec<Next> = (0..5)
            .map(|i| restarts.exited(Duration::ZERO, start + secs(i * 5)))
            .collect();
        assert!(matches!(nexts[3], Next::Restart { attempt: 4, .. }));
        assert_eq!(nexts[4], Next::GiveUp { exits: 5 });
    }

    #[test]
    fn a_lost_connection_is_never_given_up_on() {
        let mut restarts = Restarts::default();
        let pauses: Vec<u64> = (0..9)
            .map(|_| restarts.lost(Duration::ZERO).1.as_secs())
            .collect();
        assert_eq!(pauses, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(restarts.lost(secs(61)), (1, secs(1)));
    }

    #[test]
    fn exits_older_than_the_window_do_not_count() {
        let mut restarts = Restarts::default();
        let start = Instant::now();
        for i in 0..4 {
            restarts.exited(Duration::ZERO, start + secs(i));
        }
        let next = restarts.exited(Duration::ZERO, start + secs(70));
        assert!(matches!(next, Next::Restart { .. }), "{next:?}");
    }
}
