//! The control socket's hop: the same `echo` call made in-process through the gate on a live
//! [`Host`], and through a real `gatehouse serve` process on its control socket with a
//! [`ControlClient`] (the path an attached `gatehouse call` takes), in one run. Both hosts are
//! of the same kind (live sessions, attended, the OS keyring as `gatehouse serve` uses it), each
//! on a fresh data directory holding the echo server and an allow rule for `echo`, and each call
//! is decided by that rule and audited.
//!
//! A CLI process per call would time process start-up, not the hop, so the attached calls are
//! made from this process on one connection. The two sides take turns, [`ROUNDS`] chunks each,
//! so that load from elsewhere on the machine falls on both alike. CPU per call: in-process,
//! this process's own; attached, the engine process's (`utime + stime` from `/proc/PID/stat`,
//! every thread) plus this process's, the client's.
//!
//! The hop is one more round trip between two processes (the client's request to the engine,
//! the engine's reply), so each turn also times the floor of any such hop on this machine: the
//! same echo call over blocking pipes to an echo server of its own, no library in between
//! ([`RawPipe`]). What the hop adds beyond it is the two sides' own work and the wake-ups of
//! processes and threads the scheduler places on different CPUs.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gatehouse_host::control::client::ControlClient;
use gatehouse_host::control::protocol::{CallParams, FaceKind};
use gatehouse_host::{AuditFilter, CallOutcome, Host, ServerStatus, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde::Serialize;
use serde_json::{Value, json};

use crate::BoxError;
use crate::cpu;
use crate::engine_process::{EngineProcess, READY_LIMIT, open, prepare};
use crate::raw::RawPipe;
use crate::stats::{Samples, Summary};
use crate::timed;

/// How many turns each side takes.
pub const ROUNDS: usize = 10;

/// What the engine section measured.
#[derive(Debug, Clone, Serialize)]
pub struct SocketHop {
    /// Through the gate on a live host in this process.
    pub in_process: Summary,
    /// Through `gatehouse serve`'s control socket; its CPU per call is the engine's plus the
    /// client's.
    pub attached: Summary,
    /// One round trip between this process and another over blocking pipes (the echo call,
    /// hand-framed), timed in the same turns: the floor of any hop between two processes.
    pub floor: Summary,
    pub engine_cpu_us_per_call: f64,
    pub client_cpu_us_per_call: f64,
    /// The attached p50 minus the in-process p50.
    pub added_p50_us: f64,
    /// The attached CPU per call minus the in-process CPU per call.
    pub added_cpu_us_per_call: f64,
}

impl SocketHop {
    /// The section's lines for the table.
    pub fn lines(&self, out: &mut String) {
        out.push_str(&format!(
            "{:<34} {:>8} {:>8} {:>8} {:>9} {:>11}\n",
            "path", "p50 µs", "p95 µs", "p99 µs", "calls/s", "CPU µs/call"
        ));
        for (label, s) in [
            ("in-process (gate, live session)", &self.in_process),
            ("attached (control socket)", &self.attached),
            ("floor: a round trip to a process", &self.floor),
        ] {
            out.push_str(&format!(
                "{label:<34} {:>8.1} {:>8.1} {:>8.1} {:>9.0} {:>11}\n",
                s.p50_us,
                s.p95_us,
                s.p99_us,
                s.calls_per_sec,
                s.cpu_us_per_call
                    .map_or("?".to_owned(), |c| format!("{c:.1}"))
            ));
        }
        out.push_str(&format!(
            "the hop adds {:+.1} µs p50 and {:+.1} µs CPU per call (engine {:.1} + client {:.1} µs)\n",
            self.added_p50_us,
            self.added_cpu_us_per_call,
            self.engine_cpu_us_per_call,
            self.client_cpu_us_per_call
        ));
    }
}

/// Times `calls` calls each way after `warmup` untimed ones each way.
pub async fn run(
    gatehouse: PathBuf,
    echo: PathBuf,
    calls: usize,
    warmup: usize,
) -> Result<SocketHop, BoxError> {
    if !gatehouse.is_file() {
        return Err(format!(
            "the CLI is missing at {}: build it with `cargo build --release -p gatehouse-cli` (or run `make bench`)",
            gatehouse.display()
        )
        .into());
    }
    let dir = tempfile::Builder::new()
        .prefix("gatehouse-bench-engine-")
        .tempdir()?;
    let local_dir = dir.path().join("in-process");
    let engine_dir = dir.path().join("engine");

    let local = open(&local_dir, true).await?;
    let local_rule = prepare(&local, &echo).await?;
    local.set_attended(true);
    local.start().await?;
    let setup = open(&engine_dir, false).await?;
    let engine_rule = prepare(&setup, &echo).await?;
    setup.store().close().await;
    drop(setup);

    let engine = EngineProcess::start(&gatehouse, &engine_dir)?;
    let result = match RawPipe::start(&echo) {
        Ok(mut pipe) => {
            let result = measure(&local, &engine, &mut pipe, &engine_dir, calls, warmup).await;
            pipe.close().and(result)
        }
        Err(e) => Err(e),
    };
    let stopped = engine.stop().await;
    // Each side's newest call was decided by its allow rule (the engine's read once it stopped).
    let checked = decided_by(&local, &local_rule).await;
    local.shutdown().await;
    let hop = result?;
    stopped?;
    checked?;
    let after = open(&engine_dir, false).await?;
    decided_by(&after, &engine_rule).await?;
    after.store().close().await;
    Ok(hop)
}

async fn measure(
    local: &Host,
    engine: &EngineProcess,
    pipe: &mut RawPipe,
    engine_dir: &Path,
    calls: usize,
    warmup: usize,
) -> Result<SocketHop, BoxError> {
    let started = Instant::now();
    wait_connected_here(local, started).await?;
    let client = engine.attach(engine_dir, started).await?;
    let local_call = || call_here(local);
    let attached_call = || call_attached(&client);
    timed::sequential(0, warmup, local_call).await?;
    timed::sequential(0, warmup, attached_call).await?;
    for _ in 0..warmup {
        pipe.call()?;
    }

    let mut here = Samples::with_capacity(calls);
    let mut there = Samples::with_capacity(calls);
    let mut floor = Samples::with_capacity(calls);
    let (mut engine_cpu, mut client_cpu) = (Duration::ZERO, Duration::ZERO);
    let rounds = ROUNDS.min(calls).max(1);
    for round in 0..rounds {
        let chunk = calls / rounds + usize::from(round < calls % rounds);
        merge(&mut here, timed::sequential(chunk, 0, local_call).await?);
        let before = engine.cpu()?;
        let part = timed::sequential(chunk, 0, attached_call).await?;
        engine_cpu += engine.cpu()?.saturating_sub(before);
        client_cpu += part.cpu.unwrap_or_default();
        merge(&mut there, part);
        // Blocking, on this task's thread: nothing else of the bench runs meanwhile.
        merge(&mut floor, pipe.timed(chunk)?);
    }
    there.cpu = Some(engine_cpu + client_cpu);
    let in_process = Summary::of(&here).ok_or("no in-process call was timed")?;
    let attached = Summary::of(&there).ok_or("no attached call was timed")?;
    let floor = Summary::of(&floor).ok_or("no round trip over the pipes was timed")?;
    let per_call = |cpu: Duration| cpu::per_call_us(cpu, calls).unwrap_or_default();
    Ok(SocketHop {
        added_p50_us: attached.p50_us - in_process.p50_us,
        added_cpu_us_per_call: attached.cpu_us_per_call.unwrap_or_default()
            - in_process.cpu_us_per_call.unwrap_or_default(),
        engine_cpu_us_per_call: per_call(engine_cpu),
        client_cpu_us_per_call: per_call(client_cpu),
        in_process,
        attached,
        floor,
    })
}

/// Adds one chunk's samples to a side's.
fn merge(into: &mut Samples, part: Samples) {
    into.latencies_ns.extend(part.latencies_ns);
    into.elapsed += part.elapsed;
    into.cpu = Some(into.cpu.unwrap_or_default() + part.cpu.unwrap_or_default());
}

/// Fails unless the newest allowed call on `host` was decided by `rule`.
async fn decided_by(host: &Host, rule: &str) -> Result<(), BoxError> {
    let newest = host
        .audit()
        .list(&AuditFilter {
            decision: Some("allow".into()),
            limit: Some(1),
            ..AuditFilter::default()
        })
        .await?;
    let decided = newest
        .first()
        .and_then(|r| r.event.detail.get("rule").and_then(Value::as_str));
    if decided == Some(rule) {
        Ok(())
    } else {
        Err(format!("the newest call was not decided by the allow rule {rule}: {decided:?}").into())
    }
}

async fn wait_connected_here(host: &Host, started: Instant) -> Result<(), BoxError> {
    loop {
        let views = host.list_servers().await?;
        match views.first().map(|v| &v.status) {
            Some(ServerStatus::Connected { .. }) => return Ok(()),
            Some(ServerStatus::Failed { message }) => {
                return Err(format!("the in-process echo server failed: {message}").into());
            }
            _ => {}
        }
        if started.elapsed() > READY_LIMIT {
            return Err(
                format!("the in-process echo server not connected after {READY_LIMIT:?}").into(),
            );
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn call_here(host: &Host) -> Result<(), BoxError> {
    let call = ToolCall {
        tool: "echo".into(),
        arguments: Some(json!({"message": "hello"})),
        source: Source::User,
        caller: Some(FaceKind::Cli.as_str().to_owned()),
    };
    let outcome = host
        .call_tool("echo", call, CallOptions::default(), std::future::pending())
        .await?;
    match outcome {
        CallOutcome::Done(result) => crate::engine::check(&result),
        CallOutcome::Cancelled => Err("a call that was never cancelled was cancelled".into()),
    }
}

async fn call_attached(client: &ControlClient) -> Result<(), BoxError> {
    let params = CallParams {
        server: "echo".into(),
        tool: "echo".into(),
        arguments: json!({"message": "hello"}).as_object().cloned(),
        timeout_ms: None,
    };
    // As `gatehouse call` does: a channel for the call's notices (the echo server sends none).
    let (notices, _noticed) = tokio::sync::mpsc::channel(16);
    let reply = client
        .call_tool(params, notices, std::future::pending())
        .await?;
    let text = reply.content.first().and_then(|c| c.get("text"));
    if reply.is_error || text.and_then(Value::as_str) != Some("hello") {
        return Err(format!("unexpected reply through the engine: {:?}", reply.content).into());
    }
    Ok(())
}
