//! The gateway against faults, with `gatehouse serve` and `gatehouse mcp` as real processes and
//! an agent speaking raw MCP lines: an agent killed mid-call has the call cancelled on the server
//! and audited as cancelled (here `gatehouse mcp` is killed while the agent's pipes stay open:
//! the engine, which was handed them, lets them go); an agent whose stdio are files, which are
//! not handed over, is relayed; the engine stopping answers an agent's running call with an error
//! saying so and ends `gatehouse mcp` (exit 1, no process left); a server dying mid-call gives
//! the agent an error naming it.

use std::io::Write;
use std::path::Path;
use std::process::{ChildStdin, Stdio};
use std::time::Duration;

use crate::support::engine::{Gathered, Reaped, alive, serve, wait_connected};
use crate::support::wait::until;
use crate::support::{ok, ok_json};
use serde_json::{Value, json};

/// `gatehouse mcp --client NAME` with the test as its agent.
struct RawAgent {
    process: Reaped,
    stdin: ChildStdin,
    out: Gathered,
    err: Gathered,
}

impl RawAgent {
    fn start(data: &Path, client: &str) -> RawAgent {
        let mut child = crate::support::command(data)
            .args(["mcp", "--client", client])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gatehouse mcp starts");
        let stdin = child.stdin.take().expect("stdin");
        let out = Gathered::from(child.stdout.take().expect("stdout"));
        let err = Gathered::from(child.stderr.take().expect("stderr"));
        let mut agent = RawAgent {
            process: Reaped(child),
            stdin,
            out,
            err,
        };
        agent.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}),
        );
        agent.out.wait_for(
            "the gateway answers initialize",
            r#""id":0"#,
            Duration::from_secs(30),
        );
        agent.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        agent
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").expect("the agent writes");
        self.stdin.flush().expect("flushed");
    }

    /// Calls `py__count` with a progress token, and waits until the server reports progress.
    fn start_long_count(&mut self) {
        self.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "py__count", "arguments": {"steps": 100000, "interval_ms": 20},
            "_meta": {"progressToken": "t"}}}),
        );
        self.out.wait_for(
            "the call is running on the server",
            "notifications/progress",
            Duration::from_secs(20),
        );
    }

    /// The reply to request `id`, once it came.
    fn reply(&self, id: u64, within: Duration) -> Value {
        until("the agent's reply", within, || {
            self.out
                .text()
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .find(|m| m["id"] == id && m.get("method").is_none())
                .ok_or_else(|| self.out.text())
        })
    }
}

/// A data directory with the Python SDK fixture as `py`, its calls from agents allowed.
fn data_with_py() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    crate::support::add_python_sdk(dir.path(), "py");
    ok(
        dir.path(),
        &["policy", "set", "py", "--source", "gateway", "allow"],
    );
    dir
}

#[test]
fn an_agent_killed_mid_call_has_the_call_cancelled_on_the_server_and_audited() {
    let dir = data_with_py();
    let data = dir.path();
    let _serve = serve(data);
    wait_connected(data);
    let mut agent = RawAgent::start(data, "doomed");
    agent.start_long_count();
    agent.process.0.kill().expect("SIGKILL");
    agent.process.0.wait().expect("reaped");
    until(
        "nothing but the agent holds its stdout any more",
        Duration::from_secs(10),
        || {
            if agent.out.ended() {
                Ok(())
            } else {
                Err(agent.out.text())
            }
        },
    );

    let finished = until(
        "the call's end is on record",
        Duration::from_secs(20),
        || {
            let audit = ok_json(data, &["audit", "list", "--tool", "count", "--json"]);
            let rows = audit["rows"].as_array().cloned().unwrap_or_default();
            rows.into_iter()
                .find(|row| row["kind"] == "call_finished")
                .ok_or(audit)
        },
    );
    assert_eq!(finished["errorType"], "cancelled", "{finished}");
    assert_eq!(finished["source"], "gateway", "{finished}");
    let stats = until(
        "the server counts the cancellation",
        Duration::from_secs(20),
        || {
            let stats = ok_json(data, &["call", "py", "stats", "--json"]);
            if stats["structuredContent"]["cancelled"] == 1 {
                Ok(stats)
            } else {
                Err(stats)
            }
        },
    );
    assert_eq!(stats["structuredContent"]["completed"], 0, "{stats}");
}

#[test]
fn the_engine_stopping_answers_an_agent_s_running_call_and_ends_its_relay() {
    let dir = data_with_py();
    let data = dir.path();
    let mut serve = serve(data);
    wait_connected(data);
    let mut agent = RawAgent::start(data, "attached");
    agent.start_long_count();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(serve.pid()).expect("pid")),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
    let reply = agent.reply(1, Duration::from_secs(10));
    assert!(
        reply["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Gatehouse is stopping")),
        "the running call is answered with an error saying why: {reply}"
    );
    let status = until("gatehouse mcp ends", Duration::from_secs(10), || {
        agent.process.0.try_wait().expect("wait").ok_or("running")
    });
    assert_eq!(status.code(), Some(1), "{}", agent.err.text());
    assert!(agent.err.text().contains("engine"), "{}", agent.err.text());
    let engine = until("serve exits", Duration::from_secs(20), || {
        serve.0.try_wait().expect("wait").ok_or("running")
    });
    assert_eq!(engine.code(), Some(0));
}

#[test]
fn a_server_dying_mid_call_gives_the_agent_an_error_naming_it() {
    let dir = data_with_py();
    let data = dir.path();
    let serve = serve(data);
    wait_connected(data);
    let mut agent = RawAgent::start(data, "witness");
    agent.start_long_count();
    let out = std::process::Command::new("pgrep")
        .arg("-P")
        .arg(serve.pid().to_string())
        .args(["-f", "server.py"])
        .output()
        .expect("pgrep runs");
    let server: i32 = crate::support::stdout(&out)
        .lines()
        .next()
        .and_then(|pid| pid.trim().parse().ok())
        .expect("the engine's py server");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server),
        nix::sys::signal::Signal::SIGKILL,
    )
    .expect("SIGKILL the server");
    let reply = agent.reply(1, Duration::from_secs(20));
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("`py`"),
        "the error names the server: {reply}"
    );
    until(
        "the server process is gone",
        Duration::from_secs(10),
        || {
            if alive(server) {
                Err("still there")
            } else {
                Ok(())
            }
        },
    );
}

#[test]
fn an_agent_s_stdio_from_files_is_relayed_to_its_last_unterminated_line() {
    let dir = data_with_py();
    let data = dir.path();
    let _serve = serve(data);
    wait_connected(data);
    let requests = data.join("requests.jsonl");
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "files", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
    ];
    let text = lines.map(|line| line.to_string()).join("\n");
    std::fs::write(&requests, text).expect("written, the last line without its newline");
    let replies = data.join("replies.jsonl");
    let mut child = crate::support::command(data)
        .args(["mcp", "--client", "files"])
        .stdin(std::fs::File::open(&requests).expect("requests"))
        .stdout(std::fs::File::create(&replies).expect("replies"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("gatehouse mcp starts");
    let status = until("gatehouse mcp ends", Duration::from_secs(20), || {
        child.try_wait().expect("wait").ok_or("running")
    });
    let replies = std::fs::read_to_string(&replies).expect("replies");
    assert!(status.success(), "{status:?}: {replies}");
    let replies: Vec<Value> = replies
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON message per line"))
        .collect();
    let answered = |id: u64| replies.iter().find(|m| m["id"] == id).cloned();
    assert_eq!(
        answered(1).map(|m| m["result"]["protocolVersion"].clone()),
        Some(json!("2025-11-25")),
        "{replies:?}"
    );
    assert_eq!(
        answered(2).map(|m| m["result"].clone()),
        Some(json!({})),
        "{replies:?}"
    );
}
