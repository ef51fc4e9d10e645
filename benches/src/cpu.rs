//! CPU time of this process (user + system, every thread, from `getrusage(RUSAGE_SELF)`), so
//! that a client's CPU cost per call can be taken over its timed loop, and of another process
//! (the engine a client attaches to) from `/proc/PID/stat`. The servers the clients talk to are
//! child processes and are not counted; the tokio workers and SQLite's connection threads of
//! the engine and the gate are threads of this process and are.

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

/// Another process's state letter (`R`, `S`, `Z`…) and CPU time (user + system, every thread),
/// from `/proc/PID/stat`, in clock ticks (`sysconf(_SC_CLK_TCK)`, 10 ms at 100 Hz).
pub fn of_process(pid: u32) -> Result<(char, Duration), BoxError> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("cannot read /proc/{pid}/stat: {e}"))?;
    parse_stat(&stat, ticks_per_second()?)
        .ok_or_else(|| format!("/proc/{pid}/stat is not understood: {stat}").into())
}

fn ticks_per_second() -> Result<u64, BoxError> {
    use nix::unistd::{SysconfVar, sysconf};
    let ticks = sysconf(SysconfVar::CLK_TCK)
        .map_err(|e| format!("sysconf(_SC_CLK_TCK) failed: {e}"))?
        .ok_or("sysconf(_SC_CLK_TCK) has no value")?;
    Ok(u64::try_from(ticks)?.max(1))
}

/// A count of CPU clock ticks (from another process's `/proc/PID/stat`) as a duration.
pub fn ticks_to_duration(ticks: u64) -> Result<Duration, BoxError> {
    Ok(ticks_duration(ticks, ticks_per_second()?).ok_or("a tick count out of range")?)
}

fn ticks_duration(ticks: u64, ticks_per_second: u64) -> Option<Duration> {
    let nanos = u128::from(ticks) * 1_000_000_000 / u128::from(ticks_per_second);
    Some(Duration::from_nanos(u64::try_from(nanos).ok()?))
}

/// The state and `utime + stime` of a `/proc/PID/stat` line. The command name (field 2) is in
/// parentheses and may hold spaces or `)`, so the fields are counted after its last `)`.
fn parse_stat(stat: &str, ticks_per_second: u64) -> Option<(char, Duration)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    // Fields 14 and 15 of the line; the first after the name is field 3.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((state, ticks_duration(utime + stime, ticks_per_second)?))
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

    #[test]
    fn reads_another_processs_state_and_cpu_from_its_stat_line() {
        let line = "4242 (odd) name) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 9 0";
        assert_eq!(
            parse_stat(line, 100),
            Some(('S', Duration::from_millis(3250))),
            "250 + 75 ticks at 100 Hz"
        );
        assert_eq!(parse_stat("4242 (cut", 100), None);
        let (state, _) = of_process(std::process::id()).expect("this process's stat");
        assert_ne!(state, 'Z', "this process is alive");
    }
}
