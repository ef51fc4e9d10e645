//! The targets the figures are judged against (docs/performance.md). Each is met, missed, or,
//! when what it compares was not measured, left unjudged: never reported as met without figures.

use crate::gateway_bench::GatewayBench;
use crate::report::{Kind, Outcome, Report, summary};
use crate::stats::Throughput;
pub use crate::verdict::{Target, unjudged};

/// The p50 overhead over the raw pipe the engine may add, in µs.
pub const MAX_OVERHEAD_US: f64 = 50.0;
/// How many times the TS client's calls/s the engine must reach (sequential and pipelined).
pub const MIN_SPEEDUP: f64 = 5.0;
/// The p50 the gate may add over the engine, in µs.
pub const MAX_GATE_P50_US: f64 = 50.0;
/// The engine's CPU per call may be at most this fraction of the TS client's.
pub const MAX_CPU_FRACTION: f64 = 0.2;
/// The CPU per call the gate may add, in µs.
pub const MAX_GATE_CPU_US: f64 = 30.0;
/// The p95 of audit searches and filtered listings over the log, in ms.
pub const MAX_AUDIT_P95_MS: f64 = 50.0;

/// How long the fleet's servers may take to be connected, in ms.
pub const MAX_FLEET_READY_MS: f64 = 3000.0;
/// How long stopping the fleet may take beyond the stop grace (close stdin, then SIGTERM), in ms.
pub const MAX_FLEET_STOP_OVER_GRACE_MS: f64 = 1000.0;
/// The stop grace of a stdio server: the wait after closing stdin plus the wait after SIGTERM.
pub const STOP_GRACE_MS: f64 = 5000.0;

/// The p50 the control socket's hop may add over the same call in-process, in µs.
pub const MAX_HOP_P50_US: f64 = 50.0;

/// The whole app's PSS with 20 servers connected and idle, in MB.
pub const MAX_APP_PSS_MB: f64 = 200.0;
/// The whole app with its window closed (the engine alone, in the tray), 20 servers connected.
pub const MAX_CLOSED_APP_PSS_MB: f64 = 60.0;

/// Every target, in a fixed order.
pub fn judge(report: &Report) -> Vec<Target> {
    let rows = &report.rows;
    let raw = summary(rows, Kind::RawPipe);
    let engine = summary(rows, Kind::GatehouseMcp);
    let gated = summary(rows, Kind::Gated);
    let ts = summary(rows, Kind::TsSdk);
    let mut targets = Vec::new();

    let name = "p50 overhead of crates/mcp over the raw pipe";
    targets.push(match (engine, raw) {
        (Some(engine), Some(raw)) => {
            let overhead = engine.p50_us - raw.p50_us;
            Target {
                name,
                met: Some(overhead <= MAX_OVERHEAD_US),
                detail: format!("{overhead:+.1} µs (target ≤ {MAX_OVERHEAD_US} µs)"),
            }
        }
        _ => unjudged(name, "latency of crates/mcp and the raw pipe"),
    });

    let name = "sequential calls/s of crates/mcp over the TS SDK client";
    targets.push(match (engine, ts) {
        (Some(engine), Some(ts)) if ts.calls_per_sec > 0.0 => {
            speedup(name, engine.calls_per_sec, ts.calls_per_sec)
        }
        _ => unjudged(name, "the TS client was skipped or failed"),
    });

    let name = "p50 the gate adds over crates/mcp";
    targets.push(match (gated, engine) {
        (Some(gated), Some(engine)) => {
            let added = gated.p50_us - engine.p50_us;
            Target {
                name,
                met: Some(added <= MAX_GATE_P50_US),
                detail: format!(
                    "{added:+.1} µs ({:.1} vs {:.1} µs; target ≤ {MAX_GATE_P50_US} µs)",
                    gated.p50_us, engine.p50_us
                ),
            }
        }
        _ => unjudged(name, "latency of the gated and ungated engine"),
    });

    let name = "CPU per call of crates/mcp against the TS SDK client";
    targets.push(
        match (
            engine.and_then(|s| s.cpu_us_per_call),
            ts.and_then(|s| s.cpu_us_per_call),
        ) {
            (Some(engine), Some(ts)) if ts > 0.0 => {
                let fraction = engine / ts;
                Target {
                    name,
                    met: Some(fraction <= MAX_CPU_FRACTION),
                    detail: format!(
                        "1/{:.1} ({engine:.1} vs {ts:.1} µs; target ≤ 1/{:.0})",
                        1.0 / fraction.max(f64::MIN_POSITIVE),
                        1.0 / MAX_CPU_FRACTION
                    ),
                }
            }
            _ => unjudged(name, "the TS client was skipped or failed"),
        },
    );

    let name = "CPU per call the gate adds";
    targets.push(
        match (
            gated.and_then(|s| s.cpu_us_per_call),
            engine.and_then(|s| s.cpu_us_per_call),
        ) {
            (Some(gated), Some(engine)) => {
                let added = gated - engine;
                Target {
                    name,
                    met: Some(added <= MAX_GATE_CPU_US),
                    detail: format!(
                        "{added:+.1} µs ({gated:.1} vs {engine:.1} µs; target ≤ {MAX_GATE_CPU_US} µs)"
                    ),
                }
            }
            _ => unjudged(name, "CPU of the gated and ungated engine"),
        },
    );

    let name = "pipelined calls/s of crates/mcp over the TS SDK client";
    let pipelined = |kind| -> Option<&Throughput> {
        report
            .pipelined
            .as_ref()?
            .rows
            .iter()
            .find(|r| r.kind == kind)?
            .outcome
            .measured()
    };
    targets.push(
        match (pipelined(Kind::GatehouseMcp), pipelined(Kind::TsSdk)) {
            (Some(engine), Some(ts)) if ts.calls_per_sec > 0.0 => {
                speedup(name, engine.calls_per_sec, ts.calls_per_sec)
            }
            _ => unjudged(name, "the pipelined section or the TS client did not run"),
        },
    );

    let audit = report.audit.as_ref().and_then(Outcome::measured);
    for (name, family) in [
        ("p95 of audit searches", audit.map(|a| (&a.search, a.rows))),
        (
            "p95 of filtered audit listings",
            audit.map(|a| (&a.list, a.rows)),
        ),
    ] {
        targets.push(match family {
            Some((family, rows)) => Target {
                name,
                met: Some(family.p95_ms <= MAX_AUDIT_P95_MS),
                detail: format!(
                    "{:.2} ms over {} queries on {rows} rows, worst kind {:.2} ms (target ≤ {MAX_AUDIT_P95_MS} ms)",
                    family.p95_ms, family.queries, family.worst_p95_ms
                ),
            },
            None => unjudged(name, "the audit section did not run"),
        });
    }
    let fleet = report.fleet.as_ref().and_then(Outcome::measured);
    let name = "time for the fleet of stdio servers to connect";
    targets.push(match fleet {
        Some(f) => Target {
            name,
            met: Some(f.ready_ms <= MAX_FLEET_READY_MS),
            detail: format!(
                "{:.0} ms for {} servers (target ≤ {MAX_FLEET_READY_MS} ms)",
                f.ready_ms, f.servers
            ),
        },
        None => unjudged(name, "the fleet section did not run"),
    });
    let name = "time for the fleet to stop, with nothing left";
    targets.push(match fleet {
        Some(f) => {
            let limit = STOP_GRACE_MS + MAX_FLEET_STOP_OVER_GRACE_MS;
            Target {
                name,
                met: Some(f.stopped_ms <= limit && f.survivors == 0),
                detail: format!(
                    "{:.0} ms, {} processes left (target ≤ {limit} ms, the stop grace + 1 s, and none left)",
                    f.stopped_ms, f.survivors
                ),
            }
        }
        None => unjudged(name, "the fleet section did not run"),
    });
    let name = "the app's memory with its servers connected";
    let app = report.app_memory.as_ref().and_then(Outcome::measured);
    targets.push(match app.and_then(|a| a.shipped().map(|run| (a.servers, run))) {
        Some((servers, run)) => Target {
            name,
            met: Some(run.total_mb <= MAX_APP_PSS_MB),
            detail: format!(
                "{:.1} MB PSS with {servers} servers, as shipped (target ≤ {MAX_APP_PSS_MB} MB)",
                run.total_mb
            ),
        },
        None => unjudged(name, "the app-memory section did not run"),
    });
    let name = "the app's memory with its window closed";
    targets.push(
        match app.and_then(|a| a.window_closed().map(|run| (a.servers, run))) {
            Some((servers, run)) => Target {
                name,
                met: Some(run.total_mb <= MAX_CLOSED_APP_PSS_MB),
                detail: format!(
                    "{:.1} MB PSS with {servers} servers, window closed (target ≤ {MAX_CLOSED_APP_PSS_MB} MB)",
                    run.total_mb
                ),
            },
            None => unjudged(name, "the app-memory section did not run"),
        },
    );
    let name = "p50 the control socket's hop adds over the call in-process";
    targets.push(match report.engine.as_ref().and_then(Outcome::measured) {
        Some(hop) => Target {
            name,
            met: Some(hop.added_p50_us <= MAX_HOP_P50_US),
            detail: format!(
                "{:+.1} µs ({:.1} vs {:.1} µs; target ≤ {MAX_HOP_P50_US} µs); a round trip \
                 between two processes alone: {:.1} µs",
                hop.added_p50_us, hop.attached.p50_us, hop.in_process.p50_us, hop.floor.p50_us
            ),
        },
        None => unjudged(name, "the engine section did not run"),
    });
    let gateway = report.gateway.as_ref().and_then(Outcome::measured);
    targets.extend(GatewayBench::targets(gateway));
    targets
}

fn speedup(name: &'static str, engine: f64, ts: f64) -> Target {
    let ratio = engine / ts;
    Target {
        name,
        met: Some(ratio >= MIN_SPEEDUP),
        detail: format!("{ratio:.2}× ({engine:.0} vs {ts:.0} calls/s; target ≥ {MIN_SPEEDUP}×)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Pipelined, Row, Sections, ThroughputRow};
    use crate::stats::Summary;

    fn measured(kind: Kind, p50_us: f64, calls_per_sec: f64, cpu: f64) -> Row {
        let mut summary = summary_of(p50_us);
        summary.calls_per_sec = calls_per_sec;
        summary.cpu_us_per_call = Some(cpu);
        Row {
            kind,
            label: format!("{kind:?}"),
            outcome: Outcome::Measured(summary),
            overhead_p50_us: None,
        }
    }

    fn summary_of(p50_us: f64) -> Summary {
        Summary {
            calls: 10,
            p50_us,
            p95_us: p50_us * 1.5,
            p99_us: p50_us * 2.0,
            mean_us: p50_us,
            max_us: p50_us * 3.0,
            calls_per_sec: 1e6 / p50_us,
            cpu_us_per_call: None,
        }
    }

    fn met(report: &Report, name: &str) -> Option<bool> {
        report
            .targets
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("no target {name}"))
            .met
    }

    #[test]
    fn judges_each_target_from_the_measured_rows() {
        let rows = vec![
            measured(Kind::RawPipe, 10.0, 90_000.0, 5.0),
            measured(Kind::GatehouseMcp, 40.0, 25_000.0, 20.0),
            measured(Kind::Gated, 200.0, 5_000.0, 45.0),
            measured(Kind::TsSdk, 100.0, 10_000.0, 150.0),
        ];
        let throughput = |calls_per_sec| {
            Outcome::Measured(Throughput {
                calls: 64,
                elapsed_ms: 1.0,
                calls_per_sec,
                cpu_us_per_call: None,
            })
        };
        let pipelined = Pipelined {
            window: 64,
            rows: vec![
                ThroughputRow {
                    kind: Kind::GatehouseMcp,
                    label: "engine".into(),
                    outcome: throughput(120_000.0),
                },
                ThroughputRow {
                    kind: Kind::TsSdk,
                    label: "ts".into(),
                    outcome: throughput(20_000.0),
                },
            ],
        };
        let sections = Sections {
            rows,
            pipelined: Some(pipelined),
            fleet: Some(Outcome::Measured(crate::fleet::Fleet {
                servers: 100,
                ready_ms: 2500.0,
                stopped_ms: 400.0,
                survivors: 1,
            })),
            app_memory: Some(Outcome::Measured(crate::app_memory::AppMemory {
                servers: 20,
                idle_s: 10,
                runs: vec![crate::app_memory::AppRun {
                    mode: "compositing forced on",
                    ready_ms: 900.0,
                    engine_mb: 60.0,
                    webkit_mb: [("WebKitWebProcess".to_owned(), 180.0)].into(),
                    helpers_mb: 1.0,
                    total_mb: 241.0,
                    servers_mb: 20.0,
                }],
            })),
            engine: Some(Outcome::Measured(crate::socket_hop::SocketHop {
                in_process: summary_of(200.0),
                attached: summary_of(260.0),
                floor: summary_of(30.0),
                engine_cpu_us_per_call: 40.0,
                client_cpu_us_per_call: 20.0,
                added_p50_us: 60.0,
                added_cpu_us_per_call: 15.0,
            })),
            ..Sections::default()
        };
        let report = Report::new(10, 0, "multi-thread", sections);
        assert_eq!(
            met(
                &report,
                "p50 the control socket's hop adds over the call in-process"
            ),
            Some(false),
            "60 µs > 50 µs"
        );
        assert_eq!(report.rows[0].overhead_p50_us, None, "the baseline");
        assert_eq!(report.rows[1].overhead_p50_us, Some(30.0));
        assert_eq!(report.targets.len(), 16);
        assert_eq!(
            met(
                &report,
                "calls/s through gatehouse mcp, 4 clients × 16 in flight, audited"
            ),
            None,
            "the gateway section did not run"
        );
        assert_eq!(
            met(&report, "the app's memory with its servers connected"),
            None,
            "only the shipped configuration is judged, and it did not run"
        );
        assert_eq!(
            met(&report, "the app's memory with its window closed"),
            None,
            "the app-memory section did not run"
        );
        assert_eq!(
            met(&report, "time for the fleet of stdio servers to connect"),
            Some(true),
            "2.5 s ≤ 3 s"
        );
        assert_eq!(
            met(&report, "time for the fleet to stop, with nothing left"),
            Some(false),
            "fast, but a process was left behind"
        );
        assert_eq!(
            met(&report, "p50 overhead of crates/mcp over the raw pipe"),
            Some(true),
            "30 µs ≤ 50 µs"
        );
        assert_eq!(
            met(
                &report,
                "sequential calls/s of crates/mcp over the TS SDK client"
            ),
            Some(false),
            "2.5× < 5×"
        );
        assert_eq!(
            met(&report, "p50 the gate adds over crates/mcp"),
            Some(false),
            "160 µs > 50 µs"
        );
        assert_eq!(
            met(
                &report,
                "CPU per call of crates/mcp against the TS SDK client"
            ),
            Some(true),
            "20 / 150 ≤ 1/5"
        );
        assert_eq!(
            met(&report, "CPU per call the gate adds"),
            Some(true),
            "25 µs ≤ 30 µs"
        );
        assert_eq!(
            met(
                &report,
                "pipelined calls/s of crates/mcp over the TS SDK client"
            ),
            Some(true),
            "6× ≥ 5×"
        );
        assert_eq!(met(&report, "p95 of audit searches"), None, "not run");
        let table = report.table();
        assert!(table.contains("✗") && table.contains("✓") && table.contains("?"));
    }

    #[test]
    fn a_skipped_client_leaves_its_targets_unjudged() {
        let mut rows = vec![
            measured(Kind::RawPipe, 10.0, 90_000.0, 5.0),
            measured(Kind::GatehouseMcp, 20.0, 50_000.0, 10.0),
        ];
        rows.push(Row {
            kind: Kind::TsSdk,
            label: "ts".to_owned(),
            outcome: Outcome::Skipped {
                reason: "--skip-ts".to_owned(),
            },
            overhead_p50_us: None,
        });
        let sections = Sections {
            rows,
            ..Sections::default()
        };
        let report = Report::new(10, 0, "multi-thread", sections);
        assert_eq!(
            met(
                &report,
                "sequential calls/s of crates/mcp over the TS SDK client"
            ),
            None
        );
        assert_eq!(
            met(
                &report,
                "CPU per call of crates/mcp against the TS SDK client"
            ),
            None
        );
        assert!(!report.failed(), "a skipped client is not a failure");
        assert!(report.table().contains("skipped: --skip-ts"));
    }
}
