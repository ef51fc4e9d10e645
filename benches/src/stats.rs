//! Per-call latency samples and what is reported from them: p50, p99, mean, calls/s and the
//! client's CPU time per call.

use std::time::Duration;

use serde::Serialize;

/// What one client's timed run produced.
#[derive(Debug, Clone)]
pub struct Samples {
    /// Each call's round trip, in nanoseconds, in call order.
    pub latencies_ns: Vec<u64>,
    /// Wall time of the whole timed loop (the calls back to back).
    pub elapsed: Duration,
    /// The client process's CPU time (user + system) over the timed loop, if measured.
    pub cpu: Option<Duration>,
}

impl Samples {
    pub fn with_capacity(calls: usize) -> Self {
        Self {
            latencies_ns: Vec::with_capacity(calls),
            elapsed: Duration::ZERO,
            cpu: None,
        }
    }

    /// Records one call's latency.
    pub fn push(&mut self, latency: Duration) {
        self.latencies_ns
            .push(u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX));
    }
}

/// The figures reported for one client.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub calls: usize,
    pub p50_us: f64,
    pub p95_us: f64,
    pub p99_us: f64,
    pub mean_us: f64,
    pub max_us: f64,
    pub calls_per_sec: f64,
    /// The client's CPU time per call (user + system), in µs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_us_per_call: Option<f64>,
}

impl Summary {
    /// Summarises a run; `None` if it made no call.
    pub fn of(samples: &Samples) -> Option<Summary> {
        let mut sorted = samples.latencies_ns.clone();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_unstable();
        let us = |ns: u64| ns as f64 / 1_000.0;
        let total: u128 = sorted.iter().map(|&ns| u128::from(ns)).sum();
        let mean_ns = total as f64 / sorted.len() as f64;
        let elapsed = samples.elapsed.as_secs_f64();
        Some(Summary {
            calls: sorted.len(),
            p50_us: us(percentile(&sorted, 50.0)),
            p95_us: us(percentile(&sorted, 95.0)),
            p99_us: us(percentile(&sorted, 99.0)),
            mean_us: mean_ns / 1_000.0,
            max_us: us(sorted.last().copied().unwrap_or_default()),
            calls_per_sec: if elapsed > 0.0 {
                sorted.len() as f64 / elapsed
            } else {
                0.0
            },
            cpu_us_per_call: samples
                .cpu
                .and_then(|cpu| crate::cpu::per_call_us(cpu, sorted.len())),
        })
    }
}

/// A run measured as a whole rather than call by call (calls in flight together): how many
/// calls, over how long, and the client's CPU time.
#[derive(Debug, Clone, Serialize)]
pub struct Throughput {
    pub calls: usize,
    pub elapsed_ms: f64,
    pub calls_per_sec: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_us_per_call: Option<f64>,
}

impl Throughput {
    pub fn of(calls: usize, elapsed: Duration, cpu: Option<Duration>) -> Throughput {
        let secs = elapsed.as_secs_f64();
        Throughput {
            calls,
            elapsed_ms: secs * 1e3,
            calls_per_sec: if secs > 0.0 { calls as f64 / secs } else { 0.0 },
            cpu_us_per_call: cpu.and_then(|cpu| crate::cpu::per_call_us(cpu, calls)),
        }
    }
}

/// The nearest-rank percentile of sorted, non-empty samples.
pub fn percentile(sorted: &[u64], p: f64) -> u64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    let index = rank.clamp(1, sorted.len()) - 1;
    sorted.get(index).copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let sorted: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&sorted, 50.0), 50);
        assert_eq!(percentile(&sorted, 99.0), 99);
        assert_eq!(percentile(&[7], 99.0), 7);
    }

    #[test]
    fn summarises_latency_and_throughput() {
        let samples = Samples {
            latencies_ns: vec![3_000, 1_000, 2_000, 4_000],
            elapsed: Duration::from_millis(1),
            cpu: Some(Duration::from_micros(100)),
        };
        let summary = Summary::of(&samples).expect("four samples");
        assert_eq!(summary.calls, 4);
        assert!((summary.p50_us - 2.0).abs() < 1e-9);
        assert!((summary.p95_us - 4.0).abs() < 1e-9);
        assert!((summary.p99_us - 4.0).abs() < 1e-9);
        assert!((summary.mean_us - 2.5).abs() < 1e-9);
        assert!((summary.calls_per_sec - 4_000.0).abs() < 1e-6);
        assert_eq!(summary.cpu_us_per_call, Some(25.0));
        assert!(Summary::of(&Samples::with_capacity(0)).is_none());
    }
}
