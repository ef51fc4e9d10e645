//! `gatehouse-bench`: the round trip of `tools/call` against a minimal echo MCP server
//! (`gatehouse-bench-echo`) over stdio, through the raw pipe, through `crates/mcp` and through the
//! official TypeScript SDK client, in one run. Calls are sequential, one in flight at a time, so
//! each sample is one round trip's latency. See docs/performance.md.

mod engine;
mod raw;
mod report;
mod stats;
mod ts;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use report::{Kind, Outcome, Report, Row};
use stats::{Samples, Summary};

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Measures tools/call round trips over stdio: raw pipe, crates/mcp, TypeScript SDK.
#[derive(Debug, Parser)]
#[command(name = "gatehouse-bench", version)]
struct Args {
    /// Timed calls per client.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..))]
    calls: u32,
    /// Untimed calls per client before timing starts (JIT, caches, allocator).
    #[arg(long, default_value_t = 500)]
    warmup: u32,
    /// Print the results as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Do not run the TypeScript SDK client.
    #[arg(long)]
    skip_ts: bool,
    /// Run only these clients (repeatable), e.g. to profile one with `perf record`.
    #[arg(long, value_enum)]
    only: Vec<Kind>,
    /// The echo server binary [default: gatehouse-bench-echo beside this binary].
    #[arg(long)]
    echo: Option<PathBuf>,
    /// The Node.js executable for the TS client.
    #[arg(long, default_value = "node")]
    node: String,
    /// The TS client's directory (bench.mjs and its node_modules)
    /// [default: benches/ts-client of the source tree].
    #[arg(long)]
    ts_dir: Option<PathBuf>,
    /// Where the async clients' call loop runs: as a task on a worker of the multi-thread
    /// runtime (as the app's commands and the host's sessions do), in `block_on` on the main
    /// thread of a multi-thread runtime (as the `gatehouse` CLI does), or on a current-thread
    /// runtime.
    #[arg(long, value_enum, default_value_t = RuntimeMode::Worker)]
    runtime: RuntimeMode,
}

/// Where the async clients run; see `--runtime`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RuntimeMode {
    Worker,
    BlockOn,
    CurrentThread,
}

impl RuntimeMode {
    fn describe(self) -> &'static str {
        match self {
            RuntimeMode::Worker => "multi-thread, calls from a worker task",
            RuntimeMode::BlockOn => "multi-thread, calls from block_on on the main thread",
            RuntimeMode::CurrentThread => "current-thread",
        }
    }

    /// Runs one client's loop where this mode says.
    fn run<F>(self, runtime: &tokio::runtime::Runtime, client: F) -> Result<Samples, BoxError>
    where
        F: Future<Output = Result<Samples, BoxError>> + Send + 'static,
    {
        match self {
            RuntimeMode::Worker => runtime
                .block_on(runtime.spawn(client))
                .map_err(|e| format!("the client task failed: {e}"))?,
            RuntimeMode::BlockOn | RuntimeMode::CurrentThread => runtime.block_on(client),
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(report) => {
            if args.json {
                match serde_json::to_string_pretty(&report) {
                    Ok(json) => println!("{json}"),
                    Err(e) => {
                        eprintln!("gatehouse-bench: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                print!("{}", report.table());
            }
            let failed = report
                .rows
                .iter()
                .any(|r| matches!(r.outcome, Outcome::Failed { .. }));
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("gatehouse-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<Report, BoxError> {
    let echo = match &args.echo {
        Some(path) => path.clone(),
        None => default_echo()?,
    };
    if !echo.is_file() {
        return Err(format!(
            "the echo server is missing at {}: build it with `cargo build --release -p gatehouse-bench`",
            echo.display()
        )
        .into());
    }
    let calls = args.calls as usize;
    let warmup = args.warmup as usize;
    let runtime = if args.runtime == RuntimeMode::CurrentThread {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?
    };
    let progress = |what: &str| {
        if !args.json {
            eprintln!("running {what}…");
        }
    };

    let wanted = |kind: Kind| args.only.is_empty() || args.only.contains(&kind);
    let mut rows = Vec::new();
    if wanted(Kind::RawPipe) {
        progress("the raw pipe");
        let result = raw::blocking(&echo, calls, warmup);
        rows.push(row(Kind::RawPipe, "raw pipe (blocking std)", result));
    }
    if wanted(Kind::RawTokio) {
        progress("the raw pipe on tokio");
        let result = (args.runtime).run(&runtime, raw::tokio_pipes(echo.clone(), calls, warmup));
        rows.push(row(Kind::RawTokio, "raw pipe (tokio)", result));
    }
    if wanted(Kind::GatehouseMcp) {
        progress("crates/mcp");
        let result = (args.runtime).run(&runtime, engine::run(echo.clone(), calls, warmup));
        rows.push(row(
            Kind::GatehouseMcp,
            "crates/mcp (gatehouse-mcp)",
            result,
        ));
    }
    if wanted(Kind::TsSdk) {
        rows.push(ts_row(args, &echo, calls, warmup, &progress));
    }
    runtime.shutdown_background();

    Ok(Report::new(calls, warmup, args.runtime.describe(), rows))
}

/// The TS SDK client's row: run, skipped on request, or failed with the reason.
fn ts_row(args: &Args, echo: &Path, calls: usize, warmup: usize, progress: &dyn Fn(&str)) -> Row {
    let label = format!("TS SDK {} (node)", ts::PINNED_SDK);
    if args.skip_ts {
        return Row {
            kind: Kind::TsSdk,
            label,
            outcome: Outcome::Skipped {
                reason: "--skip-ts".to_owned(),
            },
            overhead_p50_us: None,
        };
    }
    progress("the TypeScript SDK client");
    let dir = args.ts_dir.clone().unwrap_or_else(ts::default_dir);
    let result = ts::run(&args.node, &dir, echo, calls, warmup);
    let label = match &result {
        Ok(run) => format!("TS SDK {} (node)", run.sdk),
        Err(_) => label,
    };
    row(Kind::TsSdk, &label, result.map(|run| run.samples))
}

/// A row from a client's run: its summary, or why it failed.
fn row(kind: Kind, label: &str, result: Result<Samples, BoxError>) -> Row {
    let outcome = match result {
        Ok(samples) => match Summary::of(&samples) {
            Some(summary) => Outcome::Measured(summary),
            None => Outcome::Failed {
                error: "no call was timed".to_owned(),
            },
        },
        Err(e) => Outcome::Failed {
            error: e.to_string(),
        },
    };
    Row {
        kind,
        label: label.to_owned(),
        outcome,
        overhead_p50_us: None,
    }
}

/// `gatehouse-bench-echo` in the same directory as this executable (as cargo builds them).
fn default_echo() -> Result<PathBuf, BoxError> {
    let me = std::env::current_exe()?;
    let dir = me.parent().unwrap_or(Path::new("."));
    Ok(dir.join(format!(
        "gatehouse-bench-echo{}",
        std::env::consts::EXE_SUFFIX
    )))
}
