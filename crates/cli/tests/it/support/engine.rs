//! `gatehouse serve` (and any other child a test must not leave behind) as the engine tests run
//! it: a real process on the test's data directory, killed and reaped when the test ends, even
//! when it fails.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::wait::until;

/// A child process, killed and reaped when dropped.
pub struct Reaped(pub Child);

impl Reaped {
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `gatehouse serve` on `data` and waits (at most 20 s) for its control socket.
pub fn serve(data: &Path) -> Reaped {
    let child = super::command(data)
        .arg("serve")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gatehouse serve starts");
    let serve = Reaped(child);
    until(
        "the engine's socket appears",
        Duration::from_secs(20),
        || {
            if data.join("engine.sock").exists() {
                Ok(())
            } else {
                Err("no socket")
            }
        },
    );
    serve
}

/// The engine's own server-everything processes.
pub fn engine_children(serve: &Reaped) -> Vec<String> {
    let out = std::process::Command::new("pgrep")
        .arg("-P")
        .arg(serve.pid().to_string())
        .args(["-f", "server-everything"])
        .output()
        .expect("pgrep runs");
    super::stdout(&out).lines().map(str::to_owned).collect()
}

/// `gatehouse status --json`.
pub fn status(data: &Path) -> Value {
    super::ok_json(data, &["status", "--json"])
}

/// Waits (at most 30 s) for the engine's first server to be connected.
pub fn wait_connected(data: &Path) {
    until(
        "the server connects in the engine",
        Duration::from_secs(30),
        || {
            let status = status(data);
            match status["servers"][0]["status"]["state"].as_str() {
                Some("connected") => Ok(()),
                other => Err(format!("{other:?}")),
            }
        },
    );
}
