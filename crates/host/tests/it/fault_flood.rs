//! Fault scenario 6 of issue #10: a server floods stdout with non-JSON noise and one 100 MB
//! line, and stderr with one 100 MB line. Gatehouse stays responsive (pings still answer) and
//! its memory stays bounded: the oversized lines are skipped (stdout) or cut at 64 KiB (stderr,
//! in the ring and the log file), never held whole. The test process's peak resident set
//! (`VmHWM`) is measured, so the test runs in a process of its own, where nothing else raises
//! it: this test binary again, running only this test (the other tests of the binary run in
//! threads of the same process).

use crate::support;

use std::time::{Duration, Instant};

use crate::support::{fixtures, open_host, stdio};
use gatehouse_host::connect::open_client;
use gatehouse_mcp::CallOptions;

/// The peak resident set of this process, in KiB.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// The most the flood may add to the peak: a 100 MB line held whole would add more than this.
const MAX_GROWTH_KIB: u64 = 48 * 1024;

/// Set in the process of its own that runs the test: the flood happens there.
const ALONE: &str = "GATEHOUSE_FLOOD_TEST_ALONE";

/// The full name of the test, for `--exact`.
const TEST: &str =
    "fault_flood::a_flooded_stdout_and_stderr_leave_the_host_responsive_and_its_memory_bounded";

/// Runs [`TEST`] in this test binary again, with [`ALONE`] set, and checks that it passed; its
/// output (the figures the test prints) is passed on.
async fn in_a_process_of_its_own() {
    let mut child = tokio::process::Command::new(std::env::current_exe().expect("test binary"));
    child
        .args(["--exact", TEST, "--nocapture"])
        .env(ALONE, "1")
        .kill_on_drop(true);
    let output = tokio::time::timeout(Duration::from_secs(240), child.output())
        .await
        .expect("the test in a process of its own ends within 240 s")
        .expect("the test binary runs");
    let report = String::from_utf8_lossy(&output.stdout);
    let errors = String::from_utf8_lossy(&output.stderr);
    eprint!("{errors}");
    assert!(
        output.status.success() && report.contains("1 passed"),
        "the test must pass in a process of its own: {report}{errors}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooded_stdout_and_stderr_leave_the_host_responsive_and_its_memory_bounded() {
    if std::env::var_os(ALONE).is_none() {
        return in_a_process_of_its_own().await;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let script = fixtures().join("faults/flood.py").display().to_string();
    let view = host
        .add_server(stdio("flood", "python3", vec![script]))
        .await
        .expect("add");
    let config = view.config;
    let client = open_client(&config, host.registry())
        .await
        .expect("connects despite invalid UTF-8 before the handshake");
    let before = peak_rss_kib();

    let started = Instant::now();
    let answer = client
        .call_tool("flood", None, CallOptions::default())
        .await
        .expect("the flood starts");
    assert!(!answer.is_error);
    // The ping's answer waits behind 100 MB on stdout: it comes once those are skipped.
    let first = tokio::time::timeout(Duration::from_secs(60), client.ping())
        .await
        .expect("a ping answers within 60 s of the flood")
        .expect("ping");
    let drained = started.elapsed();
    let mut slowest = Duration::ZERO;
    for _ in 0..5 {
        let rtt = tokio::time::timeout(Duration::from_secs(2), client.ping())
            .await
            .expect("pings after the flood answer at once")
            .expect("ping");
        slowest = slowest.max(rtt);
    }

    // The stderr line was cut at 64 KiB, and the line after it kept.
    let lines = support::wait::until(
        "the stderr flood is read",
        Duration::from_secs(60),
        || async {
            let lines = host.logs().last(&config.id, 10);
            if lines.iter().any(|l| l.line == "after the flood") {
                Ok(lines)
            } else {
                Err(lines.iter().map(|l| l.line.len()).collect::<Vec<_>>())
            }
        },
    )
    .await;
    let cut = lines
        .iter()
        .find(|l| l.line.starts_with("eeee"))
        .expect("the 100 MB stderr line, cut");
    assert!(
        cut.line
            .ends_with(&format!("[truncated: {} bytes]", 100 * 1024 * 1024))
    );
    assert!(cut.line.len() < 70 * 1024, "{} bytes kept", cut.line.len());
    let on_disk: u64 = std::fs::read_dir(host.logs().dir())
        .expect("logs dir")
        .flatten()
        .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
        .sum();
    assert!(on_disk < 1024 * 1024, "the log files hold {on_disk} bytes");

    let peak = peak_rss_kib();
    eprintln!(
        "flood: stdout (10,000 noise lines + 100 MB line) skipped in {:.2} s, first ping {:.1} ms, \
         slowest ping after {:.1} ms; peak RSS {} KiB before the flood, {} KiB after (+{} KiB)",
        drained.as_secs_f64(),
        first.as_secs_f64() * 1000.0,
        slowest.as_secs_f64() * 1000.0,
        before,
        peak,
        peak.saturating_sub(before)
    );
    assert!(
        peak.saturating_sub(before) < MAX_GROWTH_KIB,
        "the flood raised the peak RSS by {} KiB",
        peak.saturating_sub(before)
    );
    client.close().await.expect("close");
    host.shutdown().await;
}
