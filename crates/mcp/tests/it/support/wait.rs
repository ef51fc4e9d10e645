//! Bounded waits: look at a state again until it holds or a deadline passes, and name the step
//! when it does not.

use std::fmt::Debug;
use std::future::Future;
use std::time::{Duration, Instant};

/// How often a bounded wait looks again.
const POLL: Duration = Duration::from_millis(20);

/// Polls `probe` until it gives `Ok`, for at most `within`; otherwise panics naming `step` and
/// the last `Err` the probe gave (what it saw instead).
pub async fn until<T, E, F, Fut>(step: &str, within: Duration, mut probe: F) -> T
where
    E: Debug,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let deadline = Instant::now() + within;
    loop {
        match probe().await {
            Ok(done) => return done,
            Err(seen) => assert!(
                Instant::now() < deadline,
                "{step}: not within {within:?}; last seen: {seen:?}"
            ),
        }
        // The interval between two looks of a bounded wait: not synchronisation, as the state
        // is looked at again rather than assumed.
        tokio::time::sleep(POLL).await;
    }
}
