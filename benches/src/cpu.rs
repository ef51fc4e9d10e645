//! CPU time of this process (user + system, every thread, from `getrusage(RUSAGE_SELF)`), so
//! that a client's CPU cost per call can be taken over its timed loop. The servers the clients
//! talk to are child processes and are not counted; the tokio workers and SQLite's connection
//! threads of the engine and the gate are threads of this process and are.

use std::time::Duration;

use nix::sys::resource::{UsageWho, getrusage};

use crate::BoxError;

/// The process's CPU time so far.
#[derive(Debug, Clone, Copy)]
pub struct CpuClock(Duration);

impl CpuClock {
    /// Reads the clock.
    pub fn now() -> Result<CpuClock, BoxError> {
        let usage = getrusage(UsageWho::RUSAGE_SELF)
            .map_err(|e| format!("getrusage(RUSAGE_SELF) failed: {e}"))?;
        Ok(CpuClock(
            timeval(usage.user_time()) + timeval(usage.system_time()),
        ))
    }

    /// CPU time used since `self` was read.
    pub fn elapsed(self) -> Result<Duration, BoxError> {
        Ok(CpuClock::now()?.0.saturating_sub(self.0))
    }
}

fn timeval(t: nix::sys::time::TimeVal) -> Duration {
    let secs = u64::try_from(t.tv_sec()).unwrap_or(0);
    let micros = u64::try_from(t.tv_usec()).unwrap_or(0);
    Duration::from_secs(secs) + Duration::from_micros(micros)
}

/// CPU µs per call, `None` for no call.
pub fn per_call_us(cpu: Duration, calls: usize) -> Option<f64> {
    (calls > 0).then(|| cpu.as_secs_f64() * 1e6 / calls as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_counts_work_done_in_this_process() {
        // Busy work until the clock shows 20 ms (a loaded machine may take a while to give
        // them), or 20 s of wall time, which only a clock that does not count would take.
        let start = CpuClock::now().expect("getrusage");
        let wall = std::time::Instant::now();
        let mut x = 0u64;
        let mut used = Duration::ZERO;
        while used < Duration::from_millis(20) && wall.elapsed() < Duration::from_secs(20) {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            used = start.elapsed().expect("getrusage");
        }
        assert!(
            used >= Duration::from_millis(20),
            "busy work shows as CPU time: {used:?} after {:?}",
            wall.elapsed()
        );
        assert_eq!(per_call_us(Duration::from_millis(3), 1000), Some(3.0));
        assert_eq!(per_call_us(Duration::from_millis(3), 0), None);
    }
}
