//! The gateway's cost to an agent (docs/performance.md, "The gateway"): the same echo server
//! and the official TypeScript SDK client making sequential `tools/call`s (a) directly over
//! stdio; (r) through `gatehouse-bench-relay`, a process that only copies lines (what any
//! process in between costs here); (b) through `gatehouse mcp` to a running `gatehouse serve`,
//! where a rule allows the echo tool, so the gate decides each call and the audit log records
//! it; (c) through that engine's Streamable HTTP endpoint with a client's bearer token; (d)
//! through supergateway 4.0.0 (stdio to stateful Streamable HTTP), a plain proxy that decides
//! and records nothing. Then [`CLIENTS`] clients with [`WINDOW`] calls in flight each, through
//! `gatehouse mcp` at once. Afterwards the engine is stopped and the decision row of every call
//! made through it is counted in its audit log: a call the log does not hold fails the section.
//!
//! CPU per call is the client's (node) and the proxy's: for (r) the relay's, for (b) the
//! engine's and the `gatehouse mcp` process's, for (c) the engine's, for (d) supergateway's node
//! process's. The echo server's is counted for none.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gatehouse_host::AuditFilter;
use serde::Serialize;

use crate::BoxError;
use crate::engine_process::{EngineProcess, READY_LIMIT, open, prepare};
use crate::stats::{Summary, Throughput};
use crate::ts::{self, Connect, Setup, Windows};

/// Clients calling through `gatehouse mcp` at once in the concurrent run.
pub const CLIENTS: usize = 4;
/// Calls each of them keeps in flight.
pub const WINDOW: usize = 16;
/// The p50 `gatehouse mcp` may add over the direct call, in µs.
pub const MAX_STDIO_ADDED_P50_US: f64 = 150.0;
/// Audited calls per second the concurrent run must reach.
pub const MIN_CONCURRENT_PER_SEC: f64 = 5000.0;
/// The supergateway version `benches/ts-client/package.json` pins.
pub const SUPERGATEWAY: &str = "4.0.0";
/// The gateway client the benchmark's agents connect as.
const CLIENT: &str = "bench";

/// What the gateway section measured.
#[derive(Debug, Clone, Serialize)]
pub struct GatewayBench {
    pub direct: Leg,
    /// Through a process that only copies lines: the part of (b)'s added latency that any
    /// process in between costs.
    pub relay: Leg,
    pub stdio: Leg,
    pub http: Leg,
    pub supergateway: Leg,
    /// [`CLIENTS`] × [`WINDOW`] calls in flight through `gatehouse mcp`, from the first
    /// client's start to the last one's end.
    pub concurrent: Throughput,
    /// The same run while every client ran: the calls that ended between the last client's
    /// start and the first one's end. `None` when the clients never ran all at once (too few
    /// calls each for their staggered starts).
    pub all_running: Option<Throughput>,
    /// Decision rows of calls through the gateway in the engine's audit log (each call's).
    pub audited_calls: usize,
}

/// One way of reaching the echo server.
#[derive(Debug, Clone, Serialize)]
pub struct Leg {
    pub label: &'static str,
    /// Latencies, and the client's CPU per call.
    pub summary: Summary,
    /// The proxy's processes' CPU per call, if there is a proxy.
    pub proxy_cpu_us_per_call: Option<f64>,
}

/// Where the section finds what it runs.
pub struct Tools {
    pub gatehouse: PathBuf,
    pub echo: PathBuf,
    /// `gatehouse-bench-relay`.
    pub relay: PathBuf,
    pub node: String,
    pub ts_dir: PathBuf,
}

/// Runs every leg with `calls` timed calls after `warmup`, then the concurrent run with
/// `concurrent_calls` calls per client.
pub async fn run(
    tools: Tools,
    calls: usize,
    warmup: usize,
    concurrent_calls: usize,
) -> Result<GatewayBench, BoxError> {
    if !tools.gatehouse.is_file() {
        return Err(format!(
            "the CLI is missing at {}: build it with `cargo build --release -p gatehouse-cli` (or run `make bench`)",
            tools.gatehouse.display()
        )
        .into());
    }
    if !tools.relay.is_file() {
        return Err(format!(
            "the relay is missing at {}: build it with `cargo build --release -p gatehouse-bench` (or run `make bench`)",
            tools.relay.display()
        )
        .into());
    }
    let supergateway = tools.ts_dir.join("node_modules/supergateway/dist/index.js");
    if !supergateway.is_file() {
        return Err(format!(
            "supergateway is not installed in {}: run `npm ci --prefix {}`",
            tools.ts_dir.display(),
            tools.ts_dir.display()
        )
        .into());
    }
    let installed =
        std::fs::read_to_string(tools.ts_dir.join("node_modules/supergateway/package.json"))?;
    let version: serde_json::Value = serde_json::from_str(&installed)?;
    if version.get("version").and_then(serde_json::Value::as_str) != Some(SUPERGATEWAY) {
        return Err(format!(
            "supergateway {SUPERGATEWAY} is pinned, but {} is installed: run `npm ci --prefix {}`",
            version.get("version").unwrap_or(&serde_json::Value::Null),
            tools.ts_dir.display()
        )
        .into());
    }
    let dir = tempfile::Builder::new()
        .prefix("gatehouse-bench-gateway-")
        .tempdir()?;
    let data = dir.path().join("engine");
    let port = free_port()?;
    let setup = open(&data, false).await?;
    prepare(&setup, &tools.echo).await?;
    setup.clients().add(CLIENT).await?;
    let token = setup.clients().create_token(CLIENT).await?.expose().clone();
    setup.set_gateway_http(true, Some(port)).await?;
    setup.store().close().await;
    drop(setup);

    let engine = EngineProcess::start(&tools.gatehouse, &data)?;
    let started = Instant::now();
    drop(engine.attach(&data, started).await?);
    wait_listening(port, started, "the engine's HTTP endpoint")?;
    let measured = tokio::task::spawn_blocking({
        let engine_pid = engine.pid();
        let data = data.clone();
        move || {
            legs(
                &tools,
                &supergateway,
                &data,
                engine_pid,
                port,
                &token,
                calls,
                warmup,
                concurrent_calls,
            )
        }
    })
    .await?;
    let stopped = engine.stop().await;
    let (mut bench, expected) = measured?;
    stopped?;
    let after = open(&data, false).await?;
    bench.audited_calls = gateway_decisions(&after).await?;
    after.store().close().await;
    if bench.audited_calls != expected {
        return Err(format!(
            "the engine's audit log holds {} decisions of calls through the gateway, not the {expected} calls made",
            bench.audited_calls
        )
        .into());
    }
    Ok(bench)
}

/// Runs the four legs and the concurrent run; also returns how many calls went through the
/// engine.
#[allow(clippy::too_many_arguments)]
fn legs(
    tools: &Tools,
    supergateway: &Path,
    data: &Path,
    engine_pid: u32,
    port: u16,
    token: &str,
    calls: usize,
    warmup: usize,
    concurrent_calls: usize,
) -> Result<(GatewayBench, usize), BoxError> {
    let shim = shim(tools, data, CLIENT);
    let http = Connect::Url {
        url: format!("http://127.0.0.1:{port}/mcp"),
        token: Some(token.to_owned()),
    };
    let run = |label, setup: Setup<'_>, with_peer: bool| -> Result<Leg, BoxError> {
        let run = ts::run_connected(
            &tools.node,
            &tools.ts_dir,
            &tools.echo,
            &setup,
            calls,
            warmup,
            None,
        )
        .map_err(|e| format!("{label}: {e}"))?;
        let summary = Summary::of(&run.samples).ok_or("no call was timed")?;
        // The process the client started counts with the watched ones (none for the relay).
        let proxy = match (with_peer, setup.watch.is_empty()) {
            (false, _) => run.watched_cpu,
            (true, true) => run.peer_cpu,
            (true, false) => run.watched_cpu.zip(run.peer_cpu).map(|(a, b)| a + b),
        };
        Ok(Leg {
            label,
            summary,
            proxy_cpu_us_per_call: proxy.and_then(|cpu| crate::cpu::per_call_us(cpu, calls)),
        })
    };
    let echo = Connect::Echo;
    let direct = run(
        "directly over stdio",
        Setup {
            connect: &echo,
            tool: "echo",
            watch: &[],
        },
        false,
    )?;
    let relay = Connect::Command {
        program: tools.relay.clone(),
        args: vec![tools.echo.display().to_string()],
    };
    let relay = run(
        "through a plain relay (stdio)",
        Setup {
            connect: &relay,
            tool: "echo",
            watch: &[],
        },
        true,
    )?;
    let stdio = run(
        "through gatehouse mcp (stdio)",
        Setup {
            connect: &shim,
            tool: "echo__echo",
            watch: &[engine_pid],
        },
        true,
    )?;
    let over_http = run(
        "through Gatehouse's HTTP endpoint",
        Setup {
            connect: &http,
            tool: "echo__echo",
            watch: &[engine_pid],
        },
        false,
    )?;
    let proxy = Supergateway::start(&tools.node, supergateway, &tools.echo)?;
    let plain = Connect::Url {
        url: format!("http://127.0.0.1:{}/mcp", proxy.port),
        token: None,
    };
    let supergateway = run(
        "through supergateway (HTTP)",
        Setup {
            connect: &plain,
            tool: "echo",
            watch: &[proxy.pid()],
        },
        false,
    )?;
    drop(proxy);
    let (concurrent, all_running, concurrent_made) =
        concurrent(tools, data, warmup, concurrent_calls)?;
    let bench = GatewayBench {
        direct,
        relay,
        stdio,
        http: over_http,
        supergateway,
        concurrent,
        all_running,
        audited_calls: 0,
    };
    Ok((bench, 2 * (warmup + calls) + concurrent_made))
}

/// `gatehouse mcp` for the gateway client `client`, as an agent starts it.
fn shim(tools: &Tools, data: &Path, client: &str) -> Connect {
    Connect::Command {
        program: tools.gatehouse.clone(),
        args: vec![
            "--data-dir".into(),
            data.display().to_string(),
            "mcp".into(),
            "--client".into(),
            client.into(),
        ],
    }
}

/// [`CLIENTS`] clients at once through `gatehouse mcp` (each its own, `bench-1`…, so each has
/// its own limits), each keeping [`WINDOW`] calls in flight: the calls of all over the time
/// from the first's start to the last's end, and those that ended while all of them ran (the
/// clients' Node processes start one after another, so the first runs alone for a while and
/// the last ends alone). Also returns every call they made, warm-up included.
fn concurrent(
    tools: &Tools,
    data: &Path,
    warmup: usize,
    calls: usize,
) -> Result<(Throughput, Option<Throughput>, usize), BoxError> {
    let windows = Windows {
        calls,
        window: WINDOW,
        keep_in_flight: true,
    };
    let runs: Vec<Result<ts::Run, BoxError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=CLIENTS)
            .map(|n| {
                scope.spawn(move || {
                    let shim = shim(tools, data, &format!("{CLIENT}-{n}"));
                    let setup = Setup {
                        connect: &shim,
                        tool: "echo__echo",
                        watch: &[],
                    };
                    ts::run_connected(
                        &tools.node,
                        &tools.ts_dir,
                        &tools.echo,
                        &setup,
                        0,
                        warmup,
                        Some(windows),
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a client thread panicked".into()))
            })
            .collect()
    });
    let (mut total, mut made, mut first, mut last) = (0, 0, f64::MAX, f64::MIN);
    // The last start and the first end: the span in which every client ran.
    let (mut together_from, mut together_to) = (f64::MIN, f64::MAX);
    let mut ends = Vec::new();
    for run in runs {
        let run = run.map_err(|e| format!("the concurrent run: {e}"))?;
        let pipelined = run
            .pipelined
            .ok_or("a concurrent client made no windowed calls")?;
        let (start, end) = run
            .pipelined_span_ms
            .ok_or("a concurrent client gave no times")?;
        total += pipelined.calls;
        // Each made `warmup` calls one at a time, then `warmup` in windows, then the timed ones.
        made += warmup + warmup.div_ceil(WINDOW) * WINDOW + pipelined.calls;
        first = first.min(start);
        last = last.max(end);
        together_from = together_from.max(start);
        together_to = together_to.min(end);
        ends.extend(run.pipelined_done_ms);
    }
    let span = Duration::from_secs_f64(((last - first) / 1e3).max(0.0));
    let all_running = (together_to > together_from).then(|| {
        let ended = ends
            .iter()
            .filter(|&&t| t > together_from && t <= together_to)
            .count();
        let span = Duration::from_secs_f64((together_to - together_from) / 1e3);
        Throughput::of(ended, span, None)
    });
    Ok((Throughput::of(total, span, None), all_running, made))
}

/// Counts the decision rows of calls through the gateway (one per call made).
async fn gateway_decisions(host: &gatehouse_host::Host) -> Result<usize, BoxError> {
    const PAGE: u32 = 10_000;
    let mut counted = 0;
    loop {
        let page = host
            .audit()
            .list(&AuditFilter {
                source: Some("gateway".into()),
                decision: Some("allow".into()),
                tool: Some("echo".into()),
                limit: Some(PAGE),
                offset: Some(u32::try_from(counted)?),
                ..AuditFilter::default()
            })
            .await?;
        counted += page.len();
        if page.len() < PAGE as usize {
            return Ok(counted);
        }
    }
}

/// A port free on the loopback interface a moment ago.
fn free_port() -> Result<u16, BoxError> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// Waits until something accepts connections on the loopback `port`, for at most
/// [`READY_LIMIT`] from `started`.
fn wait_listening(port: u16, started: Instant, what: &str) -> Result<(), BoxError> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    loop {
        if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
            return Ok(());
        }
        if started.elapsed() > READY_LIMIT {
            return Err(
                format!("{what} is not listening on port {port} after {READY_LIMIT:?}").into(),
            );
        }
        // A bounded poll of another process's port: nothing tells this one when it listens.
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// supergateway in front of the echo server, in its own process group, which is killed when
/// this is dropped (the proxy and the echo server it started).
struct Supergateway {
    child: Child,
    port: u16,
}

impl Supergateway {
    fn start(node: &str, script: &Path, echo: &Path) -> Result<Supergateway, BoxError> {
        let port = free_port()?;
        let child = Command::new(node)
            .arg(script)
            .arg("--stdio")
            .arg(echo)
            .args(["--outputTransport", "streamableHttp", "--stateful"])
            .args(["--logLevel", "none", "--port", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()?;
        let proxy = Supergateway { child, port };
        wait_listening(port, Instant::now(), "supergateway")?;
        Ok(proxy)
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Supergateway {
    fn drop(&mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        let _ = self.child.wait();
    }
}
