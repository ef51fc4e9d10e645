//! The benchmark end to end with a handful of calls and a small audit log: the echo server
//! speaks enough MCP for every client, the JSON report carries every section, row and target,
//! the gated runs leave an intact audit chain (the bench checks it and fails otherwise), a kept
//! audit directory is reused, a missing TS SDK is reported with the command that installs it,
//! the engine section times calls through a real `gatehouse serve`, and the gateway section
//! runs the real TS SDK client through a plain relay, `gatehouse mcp`, Gatehouse's HTTP endpoint
//! and supergateway, every call through Gatehouse found in its audit log. Timings are not checked:
//! they depend on the machine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const BENCH: &str = env!("CARGO_BIN_EXE_gatehouse-bench");
const ECHO: &str = env!("CARGO_BIN_EXE_gatehouse-bench-echo");

/// Small counts, so the whole run takes a few seconds in a debug build.
const TINY: [&str; 17] = [
    "--fleet",
    "5",
    "--calls",
    "20",
    "--warmup",
    "2",
    "--pipelined-calls",
    "128",
    "--concurrent-calls",
    "5",
    "--audit-rows",
    "600",
    "--audit-queries",
    "3",
    "--json",
    "--echo",
    ECHO,
];

fn bench(extra: &[&str]) -> (bool, Value) {
    let output = Command::new(BENCH)
        .args(TINY)
        .args(extra)
        .output()
        .expect("gatehouse-bench runs");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "the report must be JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.success(), report)
}

fn row<'a>(report: &'a Value, kind: &str) -> &'a Value {
    report["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["kind"] == kind))
        .unwrap_or_else(|| panic!("no {kind} row in {report}"))
}

#[test]
fn the_echo_server_answers_the_lifecycle_and_the_echo_tool() {
    let mut child = Command::new(ECHO)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the echo server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = move |message: Value| writeln!(stdin, "{message}").expect("write");
    let mut answers = Vec::new();
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}));
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}));
    send(
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hé\n"}}}),
    );
    send(json!({"jsonrpc": "2.0", "id": 5, "method": "resources/list"}));
    for _ in 0..5 {
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read");
        answers.push(serde_json::from_str::<Value>(&line).expect("a JSON line"));
    }
    drop(send);
    assert!(
        child.wait().expect("exit").success(),
        "stdin closed: exit 0"
    );

    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(ids, [1, 2, 3, 4, 5], "the notification is not answered");
    assert_eq!(answers[0]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(answers[0]["result"]["capabilities"], json!({"tools": {}}));
    assert_eq!(answers[1]["result"], json!({}));
    assert_eq!(answers[2]["result"]["tools"][0]["name"], "echo");
    assert_eq!(
        answers[3]["result"],
        json!({"content": [{"type": "text", "text": "hé\n"}]})
    );
    assert_eq!(answers[4]["error"]["code"], -32601);
}

#[test]
fn reports_every_section_client_and_target_as_json() {
    // Every section but the app's memory, which needs a built app and a display: CI runs it
    // on its own once the app is built (`make app-memory-check`).
    let mut args = vec!["--skip-ts"];
    for section in [
        "latency",
        "pipelined",
        "concurrent",
        "gate-steps",
        "audit",
        "fleet",
    ] {
        args.extend(["--section", section]);
    }
    let (ok, report) = bench(&args);
    assert!(ok, "a run without failures exits 0: {report}");
    assert!(
        report.get("app_memory").is_none(),
        "not asked for: {report}"
    );
    for kind in ["raw-pipe", "raw-tokio", "gatehouse-mcp", "gated"] {
        let row = row(&report, kind);
        assert_eq!(row["status"], "measured", "{row}");
        assert_eq!(row["calls"], 20);
        assert!(row["p50_us"].as_f64().is_some_and(|p| p > 0.0), "{row}");
        assert!(row["calls_per_sec"].as_f64().is_some_and(|c| c > 0.0));
        assert!(
            row["cpu_us_per_call"].as_f64().is_some_and(|c| c >= 0.0),
            "CPU per call is measured: {row}"
        );
    }
    assert!(row(&report, "gatehouse-mcp")["overhead_p50_us"].is_number());
    assert_eq!(row(&report, "ts-sdk")["status"], "skipped");

    let pipelined = &report["pipelined"];
    assert_eq!(pipelined["window"], 64);
    let engine = &pipelined["rows"][0];
    assert_eq!(engine["kind"], "gatehouse-mcp");
    assert_eq!(engine["calls"], 128, "two whole windows: {pipelined}");
    assert_eq!(pipelined["rows"][1]["status"], "skipped");

    let concurrent = &report["concurrent"];
    assert_eq!(concurrent["callers"], 8);
    assert_eq!(concurrent["status"], "measured", "{concurrent}");
    assert_eq!(concurrent["calls"], 40, "8 callers × 5 calls");

    let steps = report["gate_steps"]["steps"]
        .as_array()
        .expect("gate steps");
    assert_eq!(steps.len(), 9, "{steps:?}");
    assert!(
        report["gate_steps"]["gate_p50_sum_us"]
            .as_f64()
            .is_some_and(|s| s > 0.0)
    );

    let audit = &report["audit"];
    assert_eq!(audit["status"], "measured", "{audit}");
    assert!(
        audit["rows"]
            .as_u64()
            .is_some_and(|r| (600..603).contains(&r)),
        "{audit}"
    );
    assert_eq!(
        audit["verify"]["rows"], audit["rows"],
        "verify covers every row"
    );
    assert_eq!(audit["search"]["queries"], 15, "5 kinds × 3");
    assert_eq!(audit["list"]["queries"], 12, "4 kinds × 3");

    let fleet = &report["fleet"];
    assert_eq!(fleet["status"], "measured", "{fleet}");
    assert_eq!(fleet["servers"], 5);
    assert_eq!(
        fleet["survivors"], 0,
        "no server process outlives the host's shutdown: {fleet}"
    );
    assert!(fleet["ready_ms"].as_f64().is_some_and(|t| t > 0.0));

    let targets = report["targets"].as_array().expect("targets");
    assert_eq!(targets.len(), 16);
    let met = |name: &str| {
        targets
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["met"].clone())
            .unwrap_or_else(|| panic!("no target {name}: {targets:?}"))
    };
    assert!(met("p50 overhead of crates/mcp over the raw pipe").is_boolean());
    assert!(met("p50 the gate adds over crates/mcp").is_boolean());
    assert!(met("CPU per call the gate adds").is_boolean());
    assert!(met("p95 of audit searches").is_boolean());
    assert!(met("time for the fleet to stop, with nothing left").is_boolean());
    assert!(
        met("pipelined calls/s of crates/mcp over the TS SDK client").is_null(),
        "no TS figures, no verdict"
    );
    assert!(
        met("the app's memory with its servers connected").is_null(),
        "not run, no verdict"
    );
}

#[test]
fn sections_run_alone_and_a_kept_audit_directory_is_reused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let audit_dir = dir.path().display().to_string();
    let only_audit = ["--section", "audit", "--audit-dir", &audit_dir, "--skip-ts"];
    let (ok, first) = bench(&only_audit);
    assert!(ok, "{first}");
    assert_eq!(first["rows"], serde_json::json!([]), "no latency rows");
    assert!(first.get("pipelined").is_none());
    assert!(first["audit"]["written"].as_u64().is_some_and(|w| w >= 600));

    let (ok, second) = bench(&only_audit);
    assert!(ok, "{second}");
    assert_eq!(second["audit"]["written"], 0, "the filled log is reused");
    assert_eq!(second["audit"]["rows"], first["audit"]["rows"]);
}

#[test]
fn a_missing_ts_sdk_names_the_command_that_installs_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/ts-client/bench.mjs");
    std::fs::copy(source, dir.path().join("bench.mjs")).expect("copy bench.mjs");
    let ts_dir = dir.path().display().to_string();
    let (ok, report) = bench(&[
        "--section",
        "latency",
        "--only",
        "ts-sdk",
        "--ts-dir",
        &ts_dir,
    ]);
    assert!(!ok, "a client that could not run fails the run");
    let ts = row(&report, "ts-sdk");
    assert_eq!(ts["status"], "failed");
    let error = ts["error"].as_str().expect("an error message");
    assert!(error.contains("npm ci --prefix"), "{error}");
}

/// The CLI: another package's binary, which `cargo test --workspace` builds beside this one.
fn gatehouse_cli() -> String {
    let gatehouse = std::path::Path::new(BENCH)
        .with_file_name(format!("gatehouse{}", std::env::consts::EXE_SUFFIX));
    assert!(
        gatehouse.is_file(),
        "{} is missing: build it with `cargo build -p gatehouse-cli`",
        gatehouse.display()
    );
    gatehouse.display().to_string()
}

#[test]
fn the_engine_section_times_the_same_calls_through_gatehouse_serve_and_in_process() {
    let gatehouse = gatehouse_cli();
    let (ok, report) = bench(&["--section", "engine", "--gatehouse", &gatehouse]);
    assert!(ok, "a run without failures exits 0: {report}");
    assert_eq!(report["rows"], json!([]), "no latency rows: {report}");
    let engine = &report["engine"];
    assert_eq!(engine["status"], "measured", "{engine}");
    // The floor (a round trip to another process) is timed in the same turns.
    for side in ["in_process", "attached", "floor"] {
        assert_eq!(engine[side]["calls"], 20, "{engine}");
        assert!(
            engine[side]["p95_us"].as_f64().is_some_and(|p| p > 0.0),
            "{engine}"
        );
        assert!(
            engine[side]["cpu_us_per_call"].as_f64().is_some(),
            "{engine}"
        );
    }
    let added = engine["added_p50_us"].as_f64().expect("the added p50");
    let p50 = |side: &str| engine[side]["p50_us"].as_f64().expect("a p50");
    assert!((added - (p50("attached") - p50("in_process"))).abs() < 1e-6);
    assert!(
        engine["engine_cpu_us_per_call"]
            .as_f64()
            .is_some_and(|c| c >= 0.0)
    );
    let target = report["targets"]
        .as_array()
        .and_then(|t| {
            t.iter()
                .find(|t| t["name"] == "p50 the control socket's hop adds over the call in-process")
        })
        .expect("the hop's target");
    assert!(target["met"].is_boolean(), "judged from figures: {target}");
    assert!(
        target["detail"]
            .as_str()
            .is_some_and(|d| d.contains("a round trip between two processes alone")),
        "the verdict names the floor: {target}"
    );
}

#[test]
fn the_gateway_section_times_the_ts_client_five_ways_and_finds_each_call_in_the_audit_log() {
    let gatehouse = gatehouse_cli();
    let (ok, report) = bench(&["--section", "gateway", "--gatehouse", &gatehouse]);
    assert!(ok, "a run without failures exits 0: {report}");
    let gateway = &report["gateway"];
    assert_eq!(gateway["status"], "measured", "{gateway}");
    for leg in ["direct", "relay", "stdio", "http", "supergateway"] {
        let summary = &gateway[leg]["summary"];
        assert_eq!(summary["calls"], 20, "{leg}: {gateway}");
        assert!(
            summary["p99_us"].as_f64().is_some_and(|p| p > 0.0),
            "{leg}: {gateway}"
        );
        assert!(
            summary["cpu_us_per_call"].as_f64().is_some(),
            "{leg}: {gateway}"
        );
    }
    for proxied in ["relay", "stdio", "http", "supergateway"] {
        assert!(
            gateway[proxied]["proxy_cpu_us_per_call"].as_f64().is_some(),
            "the proxy's CPU is measured for {proxied}: {gateway}"
        );
    }
    // 4 clients: 2 calls one at a time, then 16 (a window) as warm-up, then 32 (two windows).
    assert_eq!(gateway["concurrent"]["calls"], 4 * 32, "{gateway}");
    // The calls that ended while all four ran, if they ever did (20 calls each may not overlap).
    let together = &gateway["all_running"];
    assert!(
        together.is_null() || together["calls"].as_u64().is_some_and(|n| n <= 4 * 32),
        "{gateway}"
    );
    // Through the engine: (2 + 20) each over stdio and HTTP, and (2 + 16 + 32) × 4 at once.
    assert_eq!(gateway["audited_calls"], 2 * 22 + 4 * 50, "{gateway}");
    let judged = report["targets"].as_array().map(|t| {
        t.iter()
            .filter(|t| {
                t["name"]
                    .as_str()
                    .is_some_and(|n| n.contains("gatehouse mcp") || n.contains("supergateway"))
            })
            .count()
    });
    assert_eq!(judged, Some(3), "the gateway's three targets: {report}");
}
