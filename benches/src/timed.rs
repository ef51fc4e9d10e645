//! The two ways a client's calls are timed: one at a time (each sample one round trip, with the
//! process's CPU time over the timed loop) and in windows of calls in flight together (a
//! window's calls are started at once and awaited together, as `Promise.all` does in the TS
//! client), measured as a whole.

use std::future::Future;
use std::time::Instant;

use futures_util::future::try_join_all;

use crate::BoxError;
use crate::cpu::CpuClock;
use crate::stats::{Samples, Throughput};

/// `calls` timed calls after `warmup` untimed ones, one in flight at a time.
pub async fn sequential<F, Fut>(
    calls: usize,
    warmup: usize,
    mut call: F,
) -> Result<Samples, BoxError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), BoxError>>,
{
    for _ in 0..warmup {
        call().await?;
    }
    let mut samples = Samples::with_capacity(calls);
    let cpu = CpuClock::now()?;
    let started = Instant::now();
    for _ in 0..calls {
        let t0 = Instant::now();
        call().await?;
        samples.push(t0.elapsed());
    }
    samples.elapsed = started.elapsed();
    samples.cpu = Some(cpu.elapsed()?);
    Ok(samples)
}

/// At least `calls` calls (whole windows of `window`), after `warmup` untimed calls in windows
/// too; every call of a window is in flight at once.
pub async fn windows<F, Fut>(
    calls: usize,
    window: usize,
    warmup: usize,
    mut call: F,
) -> Result<Throughput, BoxError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), BoxError>>,
{
    let window = window.max(1);
    let rounds = |n: usize| n.div_ceil(window);
    for _ in 0..rounds(warmup) {
        try_join_all((0..window).map(|_| call())).await?;
    }
    let cpu = CpuClock::now()?;
    let started = Instant::now();
    for _ in 0..rounds(calls) {
        try_join_all((0..window).map(|_| call())).await?;
    }
    let elapsed = started.elapsed();
    Ok(Throughput::of(
        rounds(calls) * window,
        elapsed,
        Some(cpu.elapsed()?),
    ))
}
