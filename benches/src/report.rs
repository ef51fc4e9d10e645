//! What a run reports, section by section, as a human-readable table or as one JSON object:
//! sequential latency (with CPU per call), pipelined throughput, concurrent audited calls,
//! where the gate's time goes, the audit log at scale, and the targets ([`crate::targets`]).
//! A section that was not run is absent; a client that could not run says why.

use serde::Serialize;

use crate::app_memory::AppMemory;
use crate::audit_scale::AuditScale;
use crate::fleet::Fleet;
use crate::gate_steps::Step;
use crate::gateway_bench::GatewayBench;
use crate::socket_hop::SocketHop;
use crate::stats::{Summary, Throughput};
use crate::targets::{self, Target};

/// Which client a row measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Blocking pipes, no library: the baseline.
    RawPipe,
    /// Tokio pipes, no library: a diagnostic between the two.
    RawTokio,
    /// `gatehouse_mcp::Client`.
    GatehouseMcp,
    /// `gatehouse_mcp::Client` through the host's gate: policy and committed audit rows.
    Gated,
    /// The official TypeScript SDK `Client`.
    TsSdk,
}

/// One measurement's outcome.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Outcome<T = Summary> {
    Measured(T),
    Skipped { reason: String },
    Failed { error: String },
}

impl<T> Outcome<T> {
    pub fn from_result<E: std::fmt::Display>(result: Result<T, E>) -> Self {
        match result {
            Ok(value) => Outcome::Measured(value),
            Err(e) => Outcome::Failed {
                error: e.to_string(),
            },
        }
    }

    pub fn measured(&self) -> Option<&T> {
        match self {
            Outcome::Measured(value) => Some(value),
            _ => None,
        }
    }

    pub fn failed(&self) -> bool {
        matches!(self, Outcome::Failed { .. })
    }

    /// The line shown instead of figures, or `None` when measured.
    fn note(&self) -> Option<String> {
        match self {
            Outcome::Measured(_) => None,
            Outcome::Skipped { reason } => Some(format!("skipped: {reason}")),
            Outcome::Failed { error } => Some(format!("FAILED: {error}")),
        }
    }
}

/// A client's sequential run.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub kind: Kind,
    pub label: String,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// p50 above the raw pipe's, in µs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overhead_p50_us: Option<f64>,
}

/// A client's run with calls in flight together.
#[derive(Debug, Clone, Serialize)]
pub struct ThroughputRow {
    pub kind: Kind,
    pub label: String,
    #[serde(flatten)]
    pub outcome: Outcome<Throughput>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pipelined {
    /// Calls in flight at once on one connection.
    pub window: usize,
    pub rows: Vec<ThroughputRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Concurrent {
    /// Tasks calling through the gate at once, on one connection.
    pub callers: usize,
    #[serde(flatten)]
    pub outcome: Outcome,
}

#[derive(Debug, Clone, Serialize)]
pub struct GateSteps {
    pub steps: Vec<Step>,
    /// The sum of the gate's own steps' p50s.
    pub gate_p50_sum_us: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub calls: usize,
    pub warmup: usize,
    pub cores: usize,
    pub load_average: Option<String>,
    pub runtime: &'static str,
    /// Sequential latency; empty when the section was not run.
    pub rows: Vec<Row>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipelined: Option<Pipelined>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrent: Option<Concurrent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate_steps: Option<Outcome<GateSteps>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit: Option<Outcome<AuditScale>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fleet: Option<Outcome<Fleet>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_memory: Option<Outcome<AppMemory>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<Outcome<SocketHop>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gateway: Option<Outcome<GatewayBench>>,
    pub targets: Vec<Target>,
}

/// The sections' results, before overheads and targets are worked out.
#[derive(Debug, Default)]
pub struct Sections {
    pub rows: Vec<Row>,
    pub pipelined: Option<Pipelined>,
    pub concurrent: Option<Concurrent>,
    pub gate_steps: Option<Outcome<GateSteps>>,
    pub audit: Option<Outcome<AuditScale>>,
    pub fleet: Option<Outcome<Fleet>>,
    pub app_memory: Option<Outcome<AppMemory>>,
    pub engine: Option<Outcome<SocketHop>>,
    pub gateway: Option<Outcome<GatewayBench>>,
}

impl Report {
    /// Fills in overheads and targets from the measured sections.
    pub fn new(calls: usize, warmup: usize, runtime: &'static str, sections: Sections) -> Report {
        let mut rows = sections.rows;
        let raw_p50 = summary(&rows, Kind::RawPipe).map(|s| s.p50_us);
        for row in &mut rows {
            if let (Outcome::Measured(s), Some(raw)) = (&row.outcome, raw_p50) {
                row.overhead_p50_us = (row.kind != Kind::RawPipe).then_some(s.p50_us - raw);
            }
        }
        let mut report = Report {
            calls,
            warmup,
            cores: std::thread::available_parallelism().map_or(0, usize::from),
            load_average: std::fs::read_to_string("/proc/loadavg")
                .ok()
                .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")),
            runtime,
            rows,
            pipelined: sections.pipelined,
            concurrent: sections.concurrent,
            gate_steps: sections.gate_steps,
            audit: sections.audit,
            fleet: sections.fleet,
            app_memory: sections.app_memory,
            engine: sections.engine,
            gateway: sections.gateway,
            targets: Vec::new(),
        };
        report.targets = targets::judge(&report);
        report
    }

    /// Whether any measurement failed (the run then exits 1).
    pub fn failed(&self) -> bool {
        self.rows.iter().any(|r| r.outcome.failed())
            || self
                .pipelined
                .as_ref()
                .is_some_and(|p| p.rows.iter().any(|r| r.outcome.failed()))
            || self.concurrent.as_ref().is_some_and(|c| c.outcome.failed())
            || self.gate_steps.as_ref().is_some_and(Outcome::failed)
            || self.audit.as_ref().is_some_and(Outcome::failed)
            || self.fleet.as_ref().is_some_and(Outcome::failed)
            || self.app_memory.as_ref().is_some_and(Outcome::failed)
            || self.engine.as_ref().is_some_and(Outcome::failed)
            || self.gateway.as_ref().is_some_and(Outcome::failed)
    }

    /// The human-readable tables and target lines.
    pub fn table(&self) -> String {
        let mut out = format!(
            "machine: {} cores, load average {}; async clients on tokio {}\n",
            self.cores,
            self.load_average.as_deref().unwrap_or("unknown"),
            self.runtime,
        );
        if !self.rows.is_empty() {
            self.latency_table(&mut out);
        }
        if let Some(pipelined) = &self.pipelined {
            pipelined_table(pipelined, &mut out);
        }
        if let Some(concurrent) = &self.concurrent {
            concurrent_table(concurrent, &mut out);
        }
        if let Some(steps) = &self.gate_steps {
            steps_table(steps, &mut out);
        }
        if let Some(audit) = &self.audit {
            audit_table(audit, &mut out);
        }
        if let Some(fleet) = &self.fleet {
            fleet_lines(fleet, &mut out);
        }
        if let Some(app) = &self.app_memory {
            app_memory_table(app, &mut out);
        }
        if let Some(engine) = &self.engine {
            out.push_str(&format!(
                "\nthe control socket's hop: {} calls each way through gatehouse serve and in-process, taking turns\n\n",
                self.calls
            ));
            match engine {
                Outcome::Measured(hop) => hop.lines(&mut out),
                other => out.push_str(&format!("{}\n", other.note().unwrap_or_default())),
            }
        }
        if let Some(gateway) = &self.gateway {
            out.push_str(&format!(
                "\nthe gateway: the TS SDK client, {} sequential calls each way\n\n",
                self.calls
            ));
            match gateway {
                Outcome::Measured(g) => g.lines(&mut out),
                other => out.push_str(&format!("{}\n", other.note().unwrap_or_default())),
            }
        }
        out.push('\n');
        for target in &self.targets {
            let mark = match target.met {
                Some(true) => "✓",
                Some(false) => "✗",
                None => "?",
            };
            out.push_str(&format!("{mark} {}: {}\n", target.name, target.detail));
        }
        out
    }

    fn latency_table(&self, out: &mut String) {
        out.push_str(&format!(
            "\nsequential tools/call round trips over stdio (one in flight): {} calls after {} warm-up\n\n",
            self.calls, self.warmup
        ));
        out.push_str(&format!(
            "{:<34} {:>8} {:>8} {:>8} {:>9} {:>11} {:>13}\n",
            "client", "p50 µs", "p99 µs", "mean µs", "calls/s", "CPU µs/call", "p50 overhead"
        ));
        for row in &self.rows {
            match (&row.outcome, row.outcome.note()) {
                (Outcome::Measured(s), _) => out.push_str(&format!(
                    "{:<34} {:>8.1} {:>8.1} {:>8.1} {:>9.0} {:>11} {:>13}\n",
                    row.label,
                    s.p50_us,
                    s.p99_us,
                    s.mean_us,
                    s.calls_per_sec,
                    cpu(s.cpu_us_per_call),
                    row.overhead_p50_us
                        .map_or("baseline".to_owned(), |o| format!("{o:+.1} µs")),
                )),
                (_, note) => {
                    out.push_str(&format!("{:<34} {}\n", row.label, note.unwrap_or_default()))
                }
            }
        }
    }
}

fn cpu(us: Option<f64>) -> String {
    us.map_or("?".to_owned(), |us| format!("{us:.1}"))
}

fn pipelined_table(pipelined: &Pipelined, out: &mut String) {
    out.push_str(&format!(
        "\npipelined: {} calls in flight at once on one connection (windows of {})\n\n",
        pipelined.window, pipelined.window
    ));
    out.push_str(&format!(
        "{:<34} {:>8} {:>10} {:>11}\n",
        "client", "calls", "calls/s", "CPU µs/call"
    ));
    for row in &pipelined.rows {
        match (&row.outcome, row.outcome.note()) {
            (Outcome::Measured(t), _) => out.push_str(&format!(
                "{:<34} {:>8} {:>10.0} {:>11}\n",
                row.label,
                t.calls,
                t.calls_per_sec,
                cpu(t.cpu_us_per_call)
            )),
            (_, note) => out.push_str(&format!("{:<34} {}\n", row.label, note.unwrap_or_default())),
        }
    }
}

fn concurrent_table(concurrent: &Concurrent, out: &mut String) {
    out.push_str(&format!(
        "\naudited calls through the gate from {} concurrent callers on one connection\n\n",
        concurrent.callers
    ));
    match (&concurrent.outcome, concurrent.outcome.note()) {
        (Outcome::Measured(s), _) => out.push_str(&format!(
            "{} calls: {:.0} calls/s, p50 {:.1} µs, p99 {:.1} µs, CPU {} µs/call\n",
            s.calls,
            s.calls_per_sec,
            s.p50_us,
            s.p99_us,
            cpu(s.cpu_us_per_call)
        )),
        (_, note) => out.push_str(&format!("{}\n", note.unwrap_or_default())),
    }
}

fn fleet_lines(fleet: &Outcome<Fleet>, out: &mut String) {
    out.push_str("\nstdio servers started together and stopped together on one host\n\n");
    match fleet {
        Outcome::Measured(f) => out.push_str(&format!(
            "{} servers: all connected in {:.0} ms, all stopped in {:.0} ms, {} processes left\n",
            f.servers, f.ready_ms, f.stopped_ms, f.survivors
        )),
        other => out.push_str(&format!("{}\n", other.note().unwrap_or_default())),
    }
}

fn app_memory_table(app: &Outcome<AppMemory>, out: &mut String) {
    out.push_str("\nthe app's memory (PSS, MB) with its servers connected and idle\n\n");
    let Outcome::Measured(app) = app else {
        out.push_str(&format!("{}\n", app.note().unwrap_or_default()));
        return;
    };
    out.push_str(&format!(
        "{} servers, measured after {} s idle\n",
        app.servers, app.idle_s
    ));
    for run in &app.runs {
        let webkit: Vec<String> = run
            .webkit_mb
            .iter()
            .map(|(name, mb)| format!("{name} {mb:.1}"))
            .collect();
        out.push_str(&format!(
            "{:<22} total {:>6.1}: engine {:.1}, {}, helpers {:.1} (servers {:.1} apart); ready in {:.0} ms\n",
            run.mode,
            run.total_mb,
            run.engine_mb,
            webkit.join(", "),
            run.helpers_mb,
            run.servers_mb,
            run.ready_ms
        ));
    }
}

fn steps_table(steps: &Outcome<GateSteps>, out: &mut String) {
    out.push_str("\nwhere the gate's time goes: each step of one call, timed on its own\n\n");
    let Outcome::Measured(steps) = steps else {
        out.push_str(&format!("{}\n", steps.note().unwrap_or_default()));
        return;
    };
    out.push_str(&format!(
        "{:<40} {:>8} {:>8}\n",
        "step", "p50 µs", "mean µs"
    ));
    for step in &steps.steps {
        let label = if step.gate {
            step.step.to_owned()
        } else {
            format!("({})", step.step)
        };
        out.push_str(&format!(
            "{:<40} {:>8.1} {:>8.1}\n",
            label, step.p50_us, step.mean_us
        ));
    }
    out.push_str(&format!(
        "{:<40} {:>8.1}\n",
        "the gate's steps together", steps.gate_p50_sum_us
    ));
}

fn audit_table(audit: &Outcome<AuditScale>, out: &mut String) {
    let Outcome::Measured(audit) = audit else {
        out.push_str(&format!(
            "\nthe audit log at scale\n{}\n",
            audit.note().unwrap_or_default()
        ));
        return;
    };
    out.push_str(&format!(
        "\nthe audit log at scale: {} rows, {:.0} MiB with its WAL",
        audit.rows, audit.database_mib
    ));
    match audit.append_rows_per_sec {
        Some(rate) => out.push_str(&format!(
            "; {} rows appended at {rate:.0} rows/s\n\n",
            audit.written
        )),
        None => out.push_str(" (reused)\n\n"),
    }
    out.push_str(&format!(
        "{:<42} {:>8} {:>8} {:>8} {:>8} {:>9}\n",
        "query (limit 100)", "queries", "p50 ms", "p95 ms", "max ms", "rows/q"
    ));
    for (family, figures) in [("search", &audit.search), ("list", &audit.list)] {
        for q in &figures.by_query {
            out.push_str(&format!(
                "{:<42} {:>8} {:>8.2} {:>8.2} {:>8.2} {:>9.1}\n",
                format!("{family}: {}", q.query),
                q.queries,
                q.p50_ms,
                q.p95_ms,
                q.max_ms,
                q.mean_rows
            ));
        }
        out.push_str(&format!(
            "{:<42} {:>8} {:>8.2} {:>8.2}\n",
            format!("{family}: all"),
            figures.queries,
            figures.p50_ms,
            figures.p95_ms
        ));
    }
    for q in &audit.list_unmatched.by_query {
        out.push_str(&format!(
            "{:<42} {:>8} {:>8.2} {:>8.2} {:>8.2} {:>9.1}\n",
            format!("list, none match: {}", q.query),
            q.queries,
            q.p50_ms,
            q.p95_ms,
            q.max_ms,
            q.mean_rows
        ));
    }
    out.push_str(&format!(
        "verify: {} rows in {:.1} s, {:.0} rows/s\n",
        audit.verify.rows, audit.verify.seconds, audit.verify.rows_per_sec
    ));
}

/// The measured summary of a sequential client, if any.
pub fn summary(rows: &[Row], kind: Kind) -> Option<&Summary> {
    rows.iter()
        .find(|row| row.kind == kind)
        .and_then(|row| row.outcome.measured())
}
