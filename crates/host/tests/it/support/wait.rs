//! Bounded waits: look at a state again until it holds or a deadline passes, and name the step
//! when it does not; and waiting for the wall clock (which SQLite's `now` reads) to reach a
//! later millisecond, for rows whose times must differ.

use std::fmt::Debug;
use std::future::Future;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How often a bounded wait looks again.
const POLL: Duration = Duration::from_millis(20);

/// Polls `probe` until it gives `Ok`, for at most `within`; otherwise panics naming `step` and
/// the last `Err` the probe gave (what it saw instead). The deadline is on the real clock, so
/// a test on tokio's paused clock still waits for real work.
pub async fn until<T, E, F, Fut>(step: &str, within: Duration, probe: F) -> T
where
    E: Debug,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    match within_time(within, probe).await {
        Ok(done) => done,
        Err(seen) => panic!("{step}: not within {within:?}; last seen: {seen:?}"),
    }
}

/// Polls `probe` until it gives `Ok`, for at most `within`; the last `Err` otherwise, for a
/// test that must clean up before it fails.
pub async fn within_time<T, E, F, Fut>(within: Duration, mut probe: F) -> Result<T, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let deadline = Instant::now() + within;
    loop {
        match probe().await {
            Ok(done) => return Ok(done),
            Err(seen) if Instant::now() >= deadline => return Err(seen),
            Err(_) => {}
        }
        // The interval between two looks of a bounded wait: not synchronisation, as the state
        // is looked at again rather than assumed.
        tokio::time::sleep(POLL).await;
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
pub async fn next_millisecond() {
    let start = now_ms();
    let deadline = Instant::now() + Duration::from_secs(1);
    while now_ms() <= start {
        assert!(
            Instant::now() < deadline,
            "the wall clock did not move past {start} ms within 1 s"
        );
        tokio::task::yield_now().await;
    }
}
