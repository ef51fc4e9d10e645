//! The benchmark end to end with a handful of calls: the echo server speaks enough MCP for every
//! client, the JSON report carries every row and target, and a missing TS SDK is reported with
//! the command that installs it. Timings are not checked: they depend on the machine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const BENCH: &str = env!("CARGO_BIN_EXE_gatehouse-bench");
const ECHO: &str = env!("CARGO_BIN_EXE_gatehouse-bench-echo");

fn bench(extra: &[&str]) -> (bool, Value) {
    let output = Command::new(BENCH)
        .args(["--calls", "20", "--warmup", "2", "--json", "--echo", ECHO])
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
fn reports_every_client_and_both_targets_as_json() {
    let (ok, report) = bench(&["--skip-ts"]);
    assert!(ok, "a run without failures exits 0: {report}");
    for kind in ["raw-pipe", "raw-tokio", "gatehouse-mcp"] {
        let row = row(&report, kind);
        assert_eq!(row["status"], "measured", "{row}");
        assert_eq!(row["calls"], 20);
        assert!(row["p50_us"].as_f64().is_some_and(|p| p > 0.0), "{row}");
        assert!(row["calls_per_sec"].as_f64().is_some_and(|c| c > 0.0));
    }
    assert!(row(&report, "gatehouse-mcp")["overhead_p50_us"].is_number());
    assert_eq!(row(&report, "ts-sdk")["status"], "skipped");
    let targets = report["targets"].as_array().expect("targets");
    assert_eq!(targets.len(), 2);
    assert!(targets[0]["met"].is_boolean(), "the overhead is judged");
    assert!(targets[1]["met"].is_null(), "no TS figures, no verdict");
}

#[test]
fn a_missing_ts_sdk_names_the_command_that_installs_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/ts-client/bench.mjs");
    std::fs::copy(source, dir.path().join("bench.mjs")).expect("copy bench.mjs");
    let ts_dir = dir.path().display().to_string();
    let (ok, report) = bench(&["--only", "ts-sdk", "--ts-dir", &ts_dir]);
    assert!(!ok, "a client that could not run fails the run");
    let ts = row(&report, "ts-sdk");
    assert_eq!(ts["status"], "failed");
    let error = ts["error"].as_str().expect("an error message");
    assert!(error.contains("npm ci --prefix"), "{error}");
}
