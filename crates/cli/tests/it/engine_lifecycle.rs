//! The engine's lifecycle against its faces, with `gatehouse serve` as a real process: a face
//! that goes away mid-call has the call cancelled on the server (`notifications/cancelled`, seen
//! by the Python SDK fixture) and audited as cancelled; an engine killed with SIGKILL fails every
//! attached call at once, leaves no server behind, and the next engine takes over its stale
//! lock and socket without help.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::engine::{Gathered, Reaped, alive, serve, status, wait_connected};
use crate::support::wait::until;

/// `gatehouse call ARGS…` attached to the engine, its stderr gathered.
fn call(data: &std::path::Path, args: &[&str]) -> (Reaped, Gathered) {
    let mut child = crate::support::command(data)
        .arg("call")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gatehouse call starts");
    let stderr = Gathered::from(child.stderr.take().expect("stderr"));
    (Reaped(child), stderr)
}

#[test]
fn a_face_killed_mid_call_has_the_call_cancelled_on_the_server_and_audited() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    crate::support::add_python_sdk(data, "py");
    let _serve = serve(data);
    wait_connected(data);
    let (mut face, stderr) = call(
        data,
        &[
            "py",
            "count",
            "--args",
            r#"{"steps": 100000, "interval_ms": 20}"#,
        ],
    );
    stderr.wait_for(
        "the call is running on the server",
        "progress: ",
        Duration::from_secs(20),
    );
    face.0.kill().expect("SIGKILL");
    face.0.wait().expect("reaped");

    let finished = until(
        "the call's end is on record",
        Duration::from_secs(20),
        || {
            let audit =
                crate::support::ok_json(data, &["audit", "list", "--tool", "count", "--json"]);
            let rows = audit["rows"].as_array().cloned().unwrap_or_default();
            rows.into_iter()
                .find(|row| row["kind"] == "call_finished")
                .ok_or(audit)
        },
    );
    assert_eq!(finished["errorType"], "cancelled", "{finished}");
    assert_eq!(finished["detail"]["cancelled"], true, "{finished}");
    // The server saw `notifications/cancelled`: the SDK cancelled the tool's task, which counts
    // it. The engine keeps serving: this call is attached too.
    let stats = until(
        "the server counts the cancellation",
        Duration::from_secs(20),
        || {
            let stats = crate::support::ok_json(data, &["call", "py", "stats", "--json"]);
            if stats["structuredContent"]["cancelled"] == 1 {
                Ok(stats)
            } else {
                Err(stats)
            }
        },
    );
    assert_eq!(
        stats["structuredContent"]["completed"], 0,
        "the count never completed: {stats}"
    );
}

/// The engine's own server-everything processes.
fn engine_servers(serve: &Reaped) -> Vec<i32> {
    let out = std::process::Command::new("pgrep")
        .arg("-P")
        .arg(serve.pid().to_string())
        .args(["-f", "server-everything"])
        .output()
        .expect("pgrep runs");
    crate::support::stdout(&out)
        .lines()
        .filter_map(|pid| pid.trim().parse().ok())
        .collect()
}

#[test]
fn a_killed_engine_fails_its_calls_at_once_leaves_no_server_and_the_next_takes_over() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let mut first = serve(data);
    wait_connected(data);
    let servers = engine_servers(&first);
    assert_eq!(servers.len(), 1, "{servers:?}");
    let long = r#"{"duration": 60, "steps": 60}"#;
    let mut calls: Vec<(Reaped, Gathered)> = (0..3)
        .map(|_| {
            call(
                data,
                &["e", "trigger-long-running-operation", "--args", long],
            )
        })
        .collect();
    for (_, stderr) in &calls {
        stderr.wait_for(
            "each call is running",
            "progress: ",
            Duration::from_secs(20),
        );
    }

    first.0.kill().expect("SIGKILL");
    let killed = Instant::now();
    first.0.wait().expect("reaped");
    for (call, stderr) in &mut calls {
        let ended = until(
            "each attached call ends once the engine is killed",
            Duration::from_secs(10),
            || call.0.try_wait().expect("wait").ok_or("still running"),
        );
        let after = killed.elapsed();
        assert!(
            after < Duration::from_secs(1),
            "the call ended {after:?} after the kill"
        );
        assert_eq!(ended.code(), Some(1), "{}", stderr.text());
        stderr.wait_for(
            "the call says the engine went",
            "the engine closed the connection (it stopped or was killed)",
            Duration::from_secs(5),
        );
    }
    assert!(
        data.join("engine.sock").exists() && data.join("engine.lock").exists(),
        "a killed engine leaves its socket and lock behind"
    );

    // The next engine takes the stale lock and socket over by itself.
    let next = serve(data);
    until(
        "the next engine answers on the socket",
        Duration::from_secs(20),
        || {
            let status = status(data);
            if status["running"] == true && status["pid"] == next.pid() {
                Ok(())
            } else {
                Err(status)
            }
        },
    );
    for pid in servers {
        until(
            "the killed engine's server is gone",
            Duration::from_secs(10),
            || if alive(pid) { Err(pid) } else { Ok(()) },
        );
    }
    wait_connected(data);
    let called = crate::support::ok_json(
        data,
        &[
            "call",
            "e",
            "echo",
            "--args",
            r#"{"message":"again"}"#,
            "--json",
        ],
    );
    assert!(called["content"].to_string().contains("again"), "{called}");
}
