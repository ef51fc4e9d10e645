//! Bounded waits: look at a state again until it holds or a deadline passes, and name the step
//! when it does not; and waiting for the wall clock (which SQLite's `now` reads) to reach a
//! later millisecond, for rows whose times must differ.

use std::fmt::Debug;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How often a bounded wait looks again.
const POLL: Duration = Duration::from_millis(20);

/// Polls `probe` until it gives `Ok`, for at most `within`; otherwise panics naming `step` and
/// the last `Err` the probe gave (what it saw instead).
pub fn until<T, E: Debug>(
    step: &str,
    within: Duration,
    mut probe: impl FnMut() -> Result<T, E>,
) -> T {
    let deadline = Instant::now() + within;
    loop {
        match probe() {
            Ok(done) => return done,
            Err(seen) => assert!(
                Instant::now() < deadline,
                "{step}: not within {within:?}; last seen: {seen:?}"
            ),
        }
        // The interval between two looks of a bounded wait: not synchronisation, as the state
        // is looked at again rather than assumed.
        std::thread::sleep(POLL);
    }
}

/// Milliseconds since the epoch on the wall clock.
fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("the clock is after 1970")
        .as_millis()
}

/// Returns once the wall clock reads a later millisecond than when it was called (at most
/// 1 s), so that a row written after it has a later `at` (millisecond precision) than any
/// written before it.
pub fn next_millisecond() {
    let start = now_ms();
    let deadline = Instant::now() + Duration::from_secs(1);
    while now_ms() <= start {
        assert!(
            Instant::now() < deadline,
            "the wall clock did not move past {start} ms within 1 s"
        );
        std::thread::yield_now();
    }
}
