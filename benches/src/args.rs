//! The benchmark's command line: which sections run, and with how many calls.

use std::path::PathBuf;

use clap::Parser;

use crate::BoxError;
use crate::report::Kind;

/// Measures tools/call over stdio (raw pipe, crates/mcp, the gate, TypeScript SDK) and the audit
/// log at scale.
#[derive(Debug, Parser)]
#[command(name = "gatehouse-bench", version)]
pub struct Args {
    /// Sections to run (repeatable) [default: all].
    #[arg(long, value_enum)]
    pub section: Vec<Section>,
    /// Timed sequential calls per client (and timed runs of each gate step).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..))]
    pub calls: u32,
    /// Untimed calls per client before timing starts (JIT, caches, allocator).
    #[arg(long, default_value_t = 500)]
    pub warmup: u32,
    /// Print the results as one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Do not run the TypeScript SDK client.
    #[arg(long)]
    pub skip_ts: bool,
    /// Run only these clients (repeatable), e.g. to profile one with `perf record`.
    #[arg(long, value_enum)]
    pub only: Vec<Kind>,
    /// The echo server binary [default: gatehouse-bench-echo beside this binary].
    #[arg(long)]
    pub echo: Option<PathBuf>,
    /// The Node.js executable for the TS client.
    #[arg(long, default_value = "node")]
    pub node: String,
    /// The TS client's directory (bench.mjs and its node_modules)
    /// [default: benches/ts-client of the source tree].
    #[arg(long)]
    pub ts_dir: Option<PathBuf>,
    /// Where the async clients' call loop runs: as a task on a worker of the multi-thread
    /// runtime (as the app's commands and the host's sessions do), in `block_on` on the main
    /// thread of a multi-thread runtime (as the `gatehouse` CLI does), or on a current-thread
    /// runtime.
    #[arg(long, value_enum, default_value_t = RuntimeMode::Worker)]
    pub runtime: RuntimeMode,
    /// Pipelined: timed calls per client (rounded up to whole windows).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub pipelined_calls: u32,
    /// Pipelined: calls in flight at once on the connection.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub window: u32,
    /// Concurrent: callers calling through the gate at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub callers: u32,
    /// Concurrent: timed calls per caller.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrent_calls: u32,
    /// Audit: rows in the log searched, listed and verified.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub audit_rows: u64,
    /// Audit: queries of each kind.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub audit_queries: u32,
    /// Audit: a data directory to fill and keep, or to reuse (topped up to --audit-rows)
    /// [default: a temporary one].
    #[arg(long)]
    pub audit_dir: Option<PathBuf>,
    /// Fleet: stdio servers started and stopped together.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub fleet: u32,
    /// App memory: the app binary [default: gatehouse-app beside this binary].
    #[arg(long)]
    pub app: Option<PathBuf>,
    /// App memory: stdio servers connected while the app is measured.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub app_servers: u32,
    /// App memory: seconds the app sits idle once its servers are connected, before measuring.
    #[arg(long, default_value_t = 10)]
    pub app_idle: u64,
    /// Engine and gateway: the `gatehouse` CLI binary [default: gatehouse beside this binary].
    #[arg(long)]
    pub gatehouse: Option<PathBuf>,
}

/// The parts of the benchmark; see the crate docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Section {
    Latency,
    Pipelined,
    Concurrent,
    GateSteps,
    Audit,
    Fleet,
    AppMemory,
    Engine,
    Gateway,
}

/// Where the async clients run; see `--runtime`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RuntimeMode {
    Worker,
    BlockOn,
    CurrentThread,
}

impl RuntimeMode {
    pub fn describe(self) -> &'static str {
        match self {
            RuntimeMode::Worker => "multi-thread, calls from a worker task",
            RuntimeMode::BlockOn => "multi-thread, calls from block_on on the main thread",
            RuntimeMode::CurrentThread => "current-thread",
        }
    }

    /// Runs one client's loop where this mode says.
    pub fn run<F, T>(self, runtime: &tokio::runtime::Runtime, client: F) -> Result<T, BoxError>
    where
        F: Future<Output = Result<T, BoxError>> + Send + 'static,
        T: Send + 'static,
    {
        match self {
            RuntimeMode::Worker => runtime
                .block_on(runtime.spawn(client))
                .map_err(|e| format!("the client task failed: {e}"))?,
            RuntimeMode::BlockOn | RuntimeMode::CurrentThread => runtime.block_on(client),
        }
    }
}
