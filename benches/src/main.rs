//! `gatehouse-bench`: what a `tools/call` costs against a minimal echo MCP server
//! (`gatehouse-bench-echo`) over stdio, through the raw pipe, through `crates/mcp`, through the
//! host's gate (policy + audit) and through the official TypeScript SDK client, and what the
//! audit log costs at scale. Sections (`--section`, all by default):
//!
//! - `latency`: sequential calls, one in flight at a time: each sample one round trip, with the
//!   client process's CPU time per call;
//! - `pipelined`: windows of 64 calls in flight at once on one connection;
//! - `concurrent`: audited calls through the gate from 8 callers at once;
//! - `gate-steps`: each step of a gated call timed on its own;
//! - `audit`: searches, filtered listings and `verify` over a log of `--audit-rows` rows;
//! - `fleet`: `--fleet` stdio servers started together and stopped together on one host;
//! - `app-memory`: the release app under Xvfb with `--app-servers` servers connected and idle,
//!   its processes' PSS (needs `--app` or gatehouse-app beside this binary, and Xvfb);
//! - `engine`: a call through a running `gatehouse serve`'s control socket against the same call
//!   in-process (needs `--gatehouse` or the CLI beside this binary);
//! - `gateway`: the TS SDK client directly, through a plain relay, through `gatehouse mcp`,
//!   through Gatehouse's HTTP endpoint and through supergateway, and 4 clients × 16 in flight
//!   through `gatehouse mcp`.
//!
//! See docs/performance.md.

mod app_memory;
mod args;
mod audit_scale;
mod cpu;
mod engine;
mod engine_process;
mod fleet;
mod gate_steps;
mod gated;
mod gateway_bench;
mod gateway_verdict;
mod memory_secrets;
mod raw;
mod report;
mod socket_hop;
mod stats;
mod synthetic_calls;
mod targets;
mod timed;
mod ts;
mod verdict;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use args::{Args, RuntimeMode, Section};

use report::{
    Concurrent, GateSteps, Kind, Outcome, Pipelined, Report, Row, Sections, ThroughputRow,
};
use stats::{Samples, Summary};

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

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
            if report.failed() {
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
            "the echo server is missing at {}: build it with `cargo build --release -p gatehouse-bench` (or run `make bench`)",
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
    let section = |s: Section| args.section.is_empty() || args.section.contains(&s);
    let wanted = |kind: Kind| args.only.is_empty() || args.only.contains(&kind);
    let mode = args.runtime;
    let windows = ts::Windows {
        calls: args.pipelined_calls as usize,
        window: args.window as usize,
        keep_in_flight: false,
    };

    let mut sections = Sections::default();
    let mut ts_pipelined = None;
    if section(Section::Latency) {
        if wanted(Kind::RawPipe) {
            progress("the raw pipe");
            let result = raw::blocking(&echo, calls, warmup);
            sections
                .rows
                .push(row(Kind::RawPipe, "raw pipe (blocking std)", result));
        }
        if wanted(Kind::RawTokio) {
            progress("the raw pipe on tokio");
            let result = mode.run(&runtime, raw::tokio_pipes(echo.clone(), calls, warmup));
            sections
                .rows
                .push(row(Kind::RawTokio, "raw pipe (tokio)", result));
        }
        if wanted(Kind::GatehouseMcp) {
            progress("crates/mcp");
            let result = mode.run(&runtime, engine::sequential(echo.clone(), calls, warmup));
            sections.rows.push(row(
                Kind::GatehouseMcp,
                "crates/mcp (gatehouse-mcp)",
                result,
            ));
        }
        if wanted(Kind::Gated) {
            progress("crates/mcp through the gate");
            let result = mode.run(&runtime, gated::sequential(echo.clone(), calls, warmup));
            sections.rows.push(row(
                Kind::Gated,
                "crates/host gate (policy + audit)",
                result,
            ));
        }
    }
    let ts_in_pipelined = section(Section::Pipelined) && wanted(Kind::TsSdk);
    if (section(Section::Latency) || ts_in_pipelined) && wanted(Kind::TsSdk) {
        let latency_calls = if section(Section::Latency) { calls } else { 0 };
        let (ts_row, pipelined) = ts_run(
            args,
            &echo,
            latency_calls,
            warmup,
            ts_in_pipelined.then_some(windows),
            &progress,
        );
        if section(Section::Latency) {
            sections.rows.push(ts_row);
        }
        ts_pipelined = pipelined;
    }

    if section(Section::Pipelined) {
        let mut rows = Vec::new();
        if wanted(Kind::GatehouseMcp) {
            progress("crates/mcp, pipelined");
            let result = mode.run(
                &runtime,
                engine::pipelined(echo.clone(), windows.calls, windows.window, warmup),
            );
            rows.push(ThroughputRow {
                kind: Kind::GatehouseMcp,
                label: "crates/mcp (gatehouse-mcp)".into(),
                outcome: Outcome::from_result(result),
            });
        }
        if let Some(ts) = ts_pipelined {
            rows.push(ts);
        }
        sections.pipelined = Some(Pipelined {
            window: windows.window,
            rows,
        });
    }

    if section(Section::Concurrent) {
        let callers = args.callers as usize;
        progress(&format!("{callers} callers through the gate"));
        let result = mode.run(
            &runtime,
            gated::concurrent(
                echo.clone(),
                callers,
                args.concurrent_calls as usize,
                (warmup / callers).max(1),
            ),
        );
        sections.concurrent = Some(Concurrent {
            callers,
            outcome: summarised(result),
        });
    }

    if section(Section::GateSteps) {
        progress("each step of the gate");
        let result = mode.run(&runtime, gate_steps::measure(echo.clone(), calls));
        sections.gate_steps = Some(Outcome::from_result(result.map(|steps| {
            let gate_p50_sum_us = steps.iter().filter(|s| s.gate).map(|s| s.p50_us).sum();
            GateSteps {
                steps,
                gate_p50_sum_us,
            }
        })));
    }

    if section(Section::Audit) {
        progress(&format!("the audit log at {} rows", args.audit_rows));
        let options = audit_scale::Options {
            rows: args.audit_rows,
            queries: args.audit_queries as usize,
            dir: args.audit_dir.clone(),
            progress: !args.json,
        };
        let result = mode.run(&runtime, audit_scale::run(options));
        sections.audit = Some(Outcome::from_result(result));
    }
    if section(Section::Fleet) {
        progress(&format!(
            "{} servers started and stopped together",
            args.fleet
        ));
        let result = mode.run(&runtime, fleet::run(echo.clone(), args.fleet as usize));
        sections.fleet = Some(Outcome::from_result(result));
    }
    if section(Section::AppMemory) {
        progress(&format!(
            "the app's memory with {} servers connected",
            args.app_servers
        ));
        let app = match &args.app {
            Some(path) => path.clone(),
            None => beside_me("gatehouse-app")?,
        };
        let result = mode.run(
            &runtime,
            app_memory::run(
                app,
                echo.clone(),
                args.app_servers as usize,
                std::time::Duration::from_secs(args.app_idle),
            ),
        );
        sections.app_memory = Some(Outcome::from_result(result));
    }
    if section(Section::Engine) {
        progress("calls through gatehouse serve's control socket and in-process");
        let gatehouse = match &args.gatehouse {
            Some(path) => path.clone(),
            None => beside_me("gatehouse")?,
        };
        let hop = socket_hop::run(gatehouse, echo.clone(), calls, warmup);
        sections.engine = Some(Outcome::from_result(mode.run(&runtime, hop)));
    }
    if section(Section::Gateway) {
        progress(
            "the TS client directly, through a plain relay, through the gateway and through supergateway",
        );
        let tools = gateway_bench::Tools {
            gatehouse: match &args.gatehouse {
                Some(path) => path.clone(),
                None => beside_me("gatehouse")?,
            },
            echo: echo.clone(),
            relay: beside_me("gatehouse-bench-relay")?,
            node: args.node.clone(),
            ts_dir: args.ts_dir.clone().unwrap_or_else(ts::default_dir),
        };
        // The concurrent run: --calls calls per client, in windows.
        let run = gateway_bench::run(tools, calls, warmup, calls);
        sections.gateway = Some(Outcome::from_result(mode.run(&runtime, run)));
    }
    runtime.shutdown_background();

    Ok(Report::new(
        calls,
        warmup,
        args.runtime.describe(),
        sections,
    ))
}

/// The TS SDK client's sequential row and its pipelined row (if asked for): run, skipped on
/// request, or failed with the reason.
fn ts_run(
    args: &Args,
    echo: &Path,
    calls: usize,
    warmup: usize,
    windows: Option<ts::Windows>,
    progress: &dyn Fn(&str),
) -> (Row, Option<ThroughputRow>) {
    let label = format!("TS SDK {} (node)", ts::PINNED_SDK);
    let pipelined_row = |label: &str, outcome| ThroughputRow {
        kind: Kind::TsSdk,
        label: label.to_owned(),
        outcome,
    };
    if args.skip_ts {
        let reason = "--skip-ts".to_owned();
        let sequential = Row {
            kind: Kind::TsSdk,
            label: label.clone(),
            outcome: Outcome::Skipped {
                reason: reason.clone(),
            },
            overhead_p50_us: None,
        };
        let pipelined = windows.map(|_| pipelined_row(&label, Outcome::Skipped { reason }));
        return (sequential, pipelined);
    }
    progress("the TypeScript SDK client");
    let dir = args.ts_dir.clone().unwrap_or_else(ts::default_dir);
    match ts::run(&args.node, &dir, echo, calls, warmup, windows) {
        Ok(run) => {
            let label = format!("TS SDK {} (node)", run.sdk);
            let pipelined = run
                .pipelined
                .map(|t| pipelined_row(&label, Outcome::Measured(t)));
            (row(Kind::TsSdk, &label, Ok(run.samples)), pipelined)
        }
        Err(e) => {
            let error = e.to_string();
            let pipelined = windows.map(|_| {
                pipelined_row(
                    &label,
                    Outcome::Failed {
                        error: error.clone(),
                    },
                )
            });
            (row(Kind::TsSdk, &label, Err(error.into())), pipelined)
        }
    }
}

/// A summary of samples, or why there is none.
fn summarised(result: Result<Samples, BoxError>) -> Outcome {
    match result {
        Ok(samples) => match Summary::of(&samples) {
            Some(summary) => Outcome::Measured(summary),
            None => Outcome::Failed {
                error: "no call was timed".to_owned(),
            },
        },
        Err(e) => Outcome::Failed {
            error: e.to_string(),
        },
    }
}

/// A row from a client's run: its summary, or why it failed.
fn row(kind: Kind, label: &str, result: Result<Samples, BoxError>) -> Row {
    Row {
        kind,
        label: label.to_owned(),
        outcome: summarised(result),
        overhead_p50_us: None,
    }
}

/// `gatehouse-bench-echo` in the same directory as this executable (as cargo builds them).
fn default_echo() -> Result<PathBuf, BoxError> {
    beside_me("gatehouse-bench-echo")
}

/// The binary `name` in this binary's directory.
fn beside_me(name: &str) -> Result<PathBuf, BoxError> {
    let me = std::env::current_exe()?;
    let dir = me.parent().unwrap_or(Path::new("."));
    Ok(dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX)))
}
