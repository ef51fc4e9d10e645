//! The official TypeScript SDK client: runs `node benches/ts-client/bench.mjs <echo> <calls>
//! <warmup> [<pipelined> <window>]`, which times its own calls with `process.hrtime.bigint()`,
//! takes its CPU time with `process.cpuUsage()`, and prints one JSON line with every sample (and
//! the pipelined run, if asked for). A missing `node` or SDK is reported as such, with the
//! command that fixes it. The gateway benchmark points the same client elsewhere ([`Connect`]):
//! a stdio command (`gatehouse mcp`) or a Streamable HTTP endpoint with a bearer token.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::Deserialize;

use crate::BoxError;
use crate::stats::{Samples, Throughput};

/// The SDK version `benches/ts-client/package.json` pins.
pub const PINNED_SDK: &str = "1.32.2";

/// The client script's directory, from the source tree this binary was built from.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ts-client")
}

/// What `bench.mjs` prints.
#[derive(Deserialize)]
struct Report {
    sdk: String,
    samples_ns: Vec<u64>,
    elapsed_ns: u64,
    cpu_us: u64,
    pipelined: Option<Pipelined>,
    #[serde(default)]
    peer_ticks: Option<u64>,
    #[serde(default)]
    watched_ticks: Option<u64>,
}

#[derive(Deserialize)]
struct Pipelined {
    calls: usize,
    elapsed_ns: u64,
    cpu_us: u64,
    started_ms: f64,
    ended_ms: f64,
    #[serde(default)]
    done_ms: Vec<f64>,
}

/// The measured samples, the pipelined run if one was asked for, and the SDK version.
pub struct Run {
    pub samples: Samples,
    pub pipelined: Option<Throughput>,
    /// When the pipelined run started and ended, in ms since the epoch (its clock's).
    pub pipelined_span_ms: Option<(f64, f64)>,
    /// When each call of the pipelined run ended, on the same clock.
    pub pipelined_done_ms: Vec<f64>,
    /// The stdio server process's CPU over the timed sequential calls (Linux).
    pub peer_cpu: Option<Duration>,
    /// The watched processes' CPU over the timed sequential calls (Linux).
    pub watched_cpu: Option<Duration>,
    pub sdk: String,
}

/// Where the client connects instead of starting the echo binary.
#[derive(Debug, Clone)]
pub enum Connect {
    /// The echo binary given to [`run`].
    Echo,
    /// A stdio server started as this command.
    Command { program: PathBuf, args: Vec<String> },
    /// A Streamable HTTP endpoint, with a bearer token (passed in the environment).
    Url { url: String, token: Option<String> },
}

/// How the client is pointed and what else it measures.
#[derive(Debug, Clone)]
pub struct Setup<'a> {
    pub connect: &'a Connect,
    /// The echo tool's name there.
    pub tool: &'a str,
    /// Other processes whose CPU over the timed calls to report (`Run::watched_cpu`).
    pub watch: &'a [u32],
}

/// Calls in flight together: at least `calls`, in windows of `window`.
#[derive(Debug, Clone, Copy)]
pub struct Windows {
    pub calls: usize,
    pub window: usize,
    /// Keep `window` calls in flight, one starting as one ends, instead of windows started
    /// and awaited together.
    pub keep_in_flight: bool,
}

/// Runs the Node client against the echo server.
pub fn run(
    node: &str,
    dir: &Path,
    echo: &Path,
    calls: usize,
    warmup: usize,
    windows: Option<Windows>,
) -> Result<Run, BoxError> {
    let setup = Setup {
        connect: &Connect::Echo,
        tool: "echo",
        watch: &[],
    };
    run_connected(node, dir, echo, &setup, calls, warmup, windows)
}

/// Runs the Node client as `setup` says.
pub fn run_connected(
    node: &str,
    dir: &Path,
    echo: &Path,
    setup: &Setup<'_>,
    calls: usize,
    warmup: usize,
    windows: Option<Windows>,
) -> Result<Run, BoxError> {
    let script = dir.join("bench.mjs");
    if !script.is_file() {
        return Err(format!("the TS client script is missing at {}", script.display()).into());
    }
    let sdk = dir.join("node_modules/@modelcontextprotocol/sdk/package.json");
    if !sdk.is_file() {
        return Err(format!(
            "@modelcontextprotocol/sdk is not installed in {}: run `npm ci --prefix {}` (or pass --skip-ts)",
            dir.display(),
            dir.display()
        )
        .into());
    }
    let mut command = Command::new(node);
    command
        .arg(&script)
        .arg(echo)
        .arg(calls.to_string())
        .arg(warmup.to_string());
    if let Some(windows) = windows {
        command
            .arg(windows.calls.to_string())
            .arg(windows.window.to_string());
        if windows.keep_in_flight {
            command.env("BENCH_KEEP_IN_FLIGHT", "1");
        }
    }
    command.env("BENCH_TOOL", setup.tool);
    if !setup.watch.is_empty() {
        let pids: Vec<String> = setup.watch.iter().map(u32::to_string).collect();
        command.env("BENCH_WATCH_PIDS", pids.join(","));
    }
    match setup.connect {
        Connect::Echo => {}
        Connect::Command { program, args } => {
            let spawn = serde_json::json!({ "command": program, "args": args });
            command.env("BENCH_COMMAND", spawn.to_string());
        }
        Connect::Url { url, token } => {
            command.env("BENCH_URL", url);
            if let Some(token) = token {
                command.env("BENCH_TOKEN", token);
            }
        }
    }
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => format!(
                "`{node}` was not found: install Node.js ≥ 18 (or pass --node PATH, or --skip-ts)"
            ),
            _ => format!("could not run `{node}`: {e}"),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "the TS client failed ({}): {}",
            output.status,
            stderr.trim()
        )
        .into());
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .ok_or("the TS client printed no JSON report")?;
    let mut report: Report = serde_json::from_str(line)
        .map_err(|e| format!("the TS client's report is not what was expected: {e}"))?;
    if report.samples_ns.len() != calls {
        return Err(format!(
            "the TS client reported {} samples for {calls} calls",
            report.samples_ns.len()
        )
        .into());
    }
    if windows.is_some() != report.pipelined.is_some() {
        return Err("the TS client's report does not match the runs asked for".into());
    }
    Ok(Run {
        samples: Samples {
            latencies_ns: report.samples_ns,
            elapsed: Duration::from_nanos(report.elapsed_ns),
            cpu: Some(Duration::from_micros(report.cpu_us)),
        },
        pipelined_span_ms: report
            .pipelined
            .as_ref()
            .map(|p| (p.started_ms, p.ended_ms)),
        pipelined_done_ms: report
            .pipelined
            .as_mut()
            .map(|p| std::mem::take(&mut p.done_ms))
            .unwrap_or_default(),
        peer_cpu: report
            .peer_ticks
            .map(crate::cpu::ticks_to_duration)
            .transpose()?,
        watched_cpu: report
            .watched_ticks
            .map(crate::cpu::ticks_to_duration)
            .transpose()?,
        pipelined: report.pipelined.map(|p| {
            Throughput::of(
                p.calls,
                Duration::from_nanos(p.elapsed_ns),
                Some(Duration::from_micros(p.cpu_us)),
            )
        }),
        sdk: report.sdk,
    })
}
