//! `gatehouse serve` (and any other child a test must not leave behind) as the engine tests run
//! it: a real process on the test's data directory, killed and reaped when the test ends, even
//! when it fails.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

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

/// `gatehouse status --json` on `data`.
pub fn status(data: &Path) -> serde_json::Value {
    super::ok_json(data, &["status", "--json"])
}

/// Waits (at most 30 s) for every server of the engine on `data` to be connected.
pub fn wait_connected(data: &Path) {
    until(
        "the engine's servers connect",
        Duration::from_secs(30),
        || {
            let status = status(data);
            let servers = status["servers"].as_array().cloned().unwrap_or_default();
            if !servers.is_empty() && servers.iter().all(|s| s["status"]["state"] == "connected") {
                Ok(())
            } else {
                Err(status)
            }
        },
    );
}

/// The resident memory of process `pid`, in KiB (`VmRSS` in /proc/PID/status).
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process runs");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/PID/status")
}

/// Whether process `pid` still exists.
pub fn alive(pid: i32) -> bool {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok()
}

/// What a child writes on one of its pipes, gathered by a thread of its own, so that a test
/// waits for a line with a bound instead of blocking on the pipe.
pub struct Gathered {
    text: std::sync::Arc<std::sync::Mutex<String>>,
    /// Set once the pipe reached its end (every writer closed it).
    ended: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Gathered {
    pub fn from(pipe: impl std::io::Read + Send + 'static) -> Gathered {
        let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let ended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (into, end) = (text.clone(), ended.clone());
        std::thread::spawn(move || {
            let mut pipe = pipe;
            let mut chunk = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut text = into
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                text.push_str(&String::from_utf8_lossy(&chunk[..n]));
            }
            end.store(true, std::sync::atomic::Ordering::Release);
        });
        Gathered { text, ended }
    }

    /// Whether the pipe reached its end: no process holds its writing side any more.
    pub fn ended(&self) -> bool {
        self.ended.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Everything written so far.
    pub fn text(&self) -> String {
        self.text
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Waits (at most `within`) until what was written contains `wanted`.
    pub fn wait_for(&self, step: &str, wanted: &str, within: Duration) {
        until(step, within, || {
            let text = self.text();
            if text.contains(wanted) {
                Ok(())
            } else {
                Err(text)
            }
        });
    }
}
