//! The results table, the two targets from the issue, and the same as JSON for machines.
//!
//! Targets: our engine's p50 is at most 50 µs above the raw pipe's, and it makes at least 5× the
//! TS SDK client's calls/s. A target whose inputs were not measured is reported as such, never
//! as met.

use serde::Serialize;

use crate::stats::Summary;

/// The p50 overhead over the raw pipe the engine may add, in µs.
pub const MAX_OVERHEAD_US: f64 = 50.0;
/// How many times the TS client's calls/s the engine must reach.
pub const MIN_SPEEDUP: f64 = 5.0;

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
    /// The official TypeScript SDK `Client`.
    TsSdk,
}

/// One client's outcome.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Outcome {
    Measured(Summary),
    Skipped { reason: String },
    Failed { error: String },
}

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

/// Whether a target is met.
#[derive(Debug, Clone, Serialize)]
pub struct Target {
    pub name: &'static str,
    /// `None` when it could not be measured.
    pub met: Option<bool>,
    pub detail: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub calls: usize,
    pub warmup: usize,
    pub cores: usize,
    pub load_average: Option<String>,
    pub runtime: &'static str,
    pub rows: Vec<Row>,
    pub targets: Vec<Target>,
}

impl Report {
    /// Fills in overheads and targets from the measured rows.
    pub fn new(calls: usize, warmup: usize, runtime: &'static str, mut rows: Vec<Row>) -> Report {
        let raw_p50 = summary(&rows, Kind::RawPipe).map(|s| s.p50_us);
        for row in &mut rows {
            if let (Outcome::Measured(s), Some(raw)) = (&row.outcome, raw_p50) {
                row.overhead_p50_us = (row.kind != Kind::RawPipe).then_some(s.p50_us - raw);
            }
        }
        let targets = vec![overhead_target(&rows), speedup_target(&rows)];
        Report {
            calls,
            warmup,
            cores: std::thread::available_parallelism().map_or(0, usize::from),
            load_average: std::fs::read_to_string("/proc/loadavg")
                .ok()
                .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")),
            runtime,
            rows,
            targets,
        }
    }

    /// The human-readable table and target lines.
    pub fn table(&self) -> String {
        let mut out = format!(
            "tools/call round trips over stdio, sequential (one in flight): {} calls after {} warm-up\n\
             machine: {} cores, load average {}; async clients on tokio {}\n\n",
            self.calls,
            self.warmup,
            self.cores,
            self.load_average.as_deref().unwrap_or("unknown"),
            self.runtime,
        );
        out.push_str(&format!(
            "{:<28} {:>9} {:>9} {:>9} {:>10} {:>13}\n",
            "client", "p50 µs", "p99 µs", "mean µs", "calls/s", "p50 overhead"
        ));
        for row in &self.rows {
            match &row.outcome {
                Outcome::Measured(s) => out.push_str(&format!(
                    "{:<28} {:>9.1} {:>9.1} {:>9.1} {:>10.0} {:>13}\n",
                    row.label,
                    s.p50_us,
                    s.p99_us,
                    s.mean_us,
                    s.calls_per_sec,
                    row.overhead_p50_us
                        .map_or("baseline".to_owned(), |o| format!("{o:+.1} µs")),
                )),
                Outcome::Skipped { reason } => {
                    out.push_str(&format!("{:<28} skipped: {reason}\n", row.label));
                }
                Outcome::Failed { error } => {
                    out.push_str(&format!("{:<28} FAILED: {error}\n", row.label));
                }
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
}

fn summary(rows: &[Row], kind: Kind) -> Option<&Summary> {
    rows.iter().find_map(|row| match &row.outcome {
        Outcome::Measured(s) if row.kind == kind => Some(s),
        _ => None,
    })
}

fn overhead_target(rows: &[Row]) -> Target {
    let name = "p50 overhead of crates/mcp over the raw pipe";
    match (
        summary(rows, Kind::GatehouseMcp),
        summary(rows, Kind::RawPipe),
    ) {
        (Some(engine), Some(raw)) => {
            let overhead = engine.p50_us - raw.p50_us;
            Target {
                name,
                met: Some(overhead <= MAX_OVERHEAD_US),
                detail: format!("{overhead:+.1} µs (target ≤ {MAX_OVERHEAD_US} µs)"),
            }
        }
        _ => Target {
            name,
            met: None,
            detail: "not measured".to_owned(),
        },
    }
}

fn speedup_target(rows: &[Row]) -> Target {
    let name = "calls/s of crates/mcp over the TS SDK client";
    match (
        summary(rows, Kind::GatehouseMcp),
        summary(rows, Kind::TsSdk),
    ) {
        (Some(engine), Some(ts)) if ts.calls_per_sec > 0.0 => {
            let ratio = engine.calls_per_sec / ts.calls_per_sec;
            Target {
                name,
                met: Some(ratio >= MIN_SPEEDUP),
                detail: format!(
                    "{ratio:.2}× ({:.0} vs {:.0} calls/s; target ≥ {MIN_SPEEDUP}×)",
                    engine.calls_per_sec, ts.calls_per_sec
                ),
            }
        }
        _ => Target {
            name,
            met: None,
            detail: "not measured (the TS client was skipped or failed)".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(kind: Kind, p50_us: f64, calls_per_sec: f64) -> Row {
        Row {
            kind,
            label: format!("{kind:?}"),
            outcome: Outcome::Measured(Summary {
                calls: 10,
                p50_us,
                p99_us: p50_us * 2.0,
                mean_us: p50_us,
                max_us: p50_us * 3.0,
                calls_per_sec,
            }),
            overhead_p50_us: None,
        }
    }

    #[test]
    fn judges_both_targets_from_the_measured_rows() {
        let rows = vec![
            measured(Kind::RawPipe, 10.0, 90_000.0),
            measured(Kind::GatehouseMcp, 40.0, 25_000.0),
            measured(Kind::TsSdk, 100.0, 10_000.0),
        ];
        let report = Report::new(10, 0, "multi-thread", rows);
        assert_eq!(report.rows[0].overhead_p50_us, None, "the baseline");
        assert_eq!(report.rows[1].overhead_p50_us, Some(30.0));
        assert_eq!(report.targets[0].met, Some(true), "30 µs ≤ 50 µs");
        assert_eq!(report.targets[1].met, Some(false), "2.5× < 5×");
        assert!(report.table().contains("✗"));
    }

    #[test]
    fn a_skipped_client_leaves_its_target_unjudged() {
        let mut rows = vec![
            measured(Kind::RawPipe, 10.0, 90_000.0),
            measured(Kind::GatehouseMcp, 20.0, 50_000.0),
        ];
        rows.push(Row {
            kind: Kind::TsSdk,
            label: "ts".to_owned(),
            outcome: Outcome::Skipped {
                reason: "--skip-ts".to_owned(),
            },
            overhead_p50_us: None,
        });
        let report = Report::new(10, 0, "multi-thread", rows);
        assert_eq!(report.targets[1].met, None);
        assert!(report.table().contains("skipped: --skip-ts"));
    }
}
