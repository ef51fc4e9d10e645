//! `gatehouse logs`: a server's stderr, kept across runs in its log files, redacted of its
//! secret values, printed as text or JSON lines, and followed as other processes write it.
//! Run under scripts/with-keyring.sh: the secret goes through the real keyring.

use crate::support;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use crate::support::{command, ok};
use serde_json::Value;

/// `Ok` once process `pid` holds a `.log` file under `data` open at its end: it has taken the
/// position it follows from. `Err` says what it holds instead.
fn read_to_end(pid: u32, data: &std::path::Path) -> Result<(), String> {
    let data = data.canonicalize().map_err(|e| e.to_string())?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).map_err(|e| e.to_string())?;
    let mut held = Vec::new();
    for fd in fds.flatten() {
        let Ok(target) = std::fs::read_link(fd.path()) else {
            continue;
        };
        if !target.starts_with(&data) || target.extension().is_none_or(|e| e != "log") {
            continue;
        }
        let info = std::fs::read_to_string(format!(
            "/proc/{pid}/fdinfo/{}",
            fd.file_name().to_string_lossy()
        ))
        .unwrap_or_default();
        let pos = info
            .lines()
            .find_map(|l| l.strip_prefix("pos:"))
            .and_then(|p| p.trim().parse::<u64>().ok());
        let len = std::fs::metadata(&target).map(|m| m.len()).ok();
        if pos.is_some() && pos == len {
            return Ok(());
        }
        held.push(format!("{} at {pos:?} of {len:?}", target.display()));
    }
    Err(format!("log files held: {held:?}"))
}

fn add_talker(data: &std::path::Path, secret: &str) {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/faults/secret_on_stderr.py")
        .display()
        .to_string();
    let assignment = format!("LEAKY_TOKEN={secret}");
    ok(
        data,
        &[
            "server",
            "add",
            "talker",
            "--command",
            "python3",
            "--arg",
            &fixture,
            "--arg",
            "LEAKY_TOKEN",
            "--arg",
            "serve",
            "--secret-env",
            &assignment,
        ],
    );
}

#[test]
fn logs_prints_the_kept_lines_redacted_and_follows_new_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let secret = format!("sek-logs-{}-41c2aa", std::process::id());
    add_talker(data, &secret);
    let nothing = command(data)
        .args(["logs", "talker"])
        .output()
        .expect("runs");
    assert!(nothing.status.success());
    assert!(support::stderr(&nothing).contains("no stderr lines yet"));

    ok(data, &["call", "talker", "hello"]);
    ok(data, &["call", "talker", "hello"]);
    let text = ok(data, &["logs", "talker"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "two runs, two lines each: {text}");
    assert!(
        lines[0].ends_with("  starting with LEAKY_TOKEN=[redacted]"),
        "{text}"
    );
    assert!(
        lines[1].ends_with("  called hello with LEAKY_TOKEN=[redacted]"),
        "{text}"
    );
    assert!(
        lines[0].starts_with("20"),
        "each line starts with its time: {text}"
    );
    assert!(!text.contains(&secret));

    let last = ok(data, &["logs", "talker", "--lines", "1", "--json"]);
    let rows: Vec<Value> = last
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(rows.len(), 1, "--lines 1: {last}");
    assert_eq!(rows[0]["server"], "talker");
    assert_eq!(rows[0]["line"], "called hello with LEAKY_TOKEN=[redacted]");
    assert!(rows[0]["time"].as_str().is_some_and(|t| t.ends_with('Z')));

    // Follow from another process while a third one runs the server.
    let mut follower = command(data)
        .args(["logs", "talker", "--follow", "--json", "--lines", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("follow");
    let stdout = follower.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    support::wait::until(
        "the follower has read the log to its end",
        Duration::from_secs(10),
        || read_to_end(follower.id(), data),
    );
    ok(data, &["call", "talker", "hello"]);
    let first = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the follower prints the new run's first line");
    let second = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("and its second");
    assert!(
        first.contains("starting with LEAKY_TOKEN=[redacted]"),
        "{first}"
    );
    assert!(second.contains("called hello"), "{second}");
    assert!(
        rx.recv_timeout(Duration::from_millis(500)).is_err(),
        "--lines 0: nothing older is printed"
    );
    let _ = follower.kill();
    let _ = follower.wait();
}
