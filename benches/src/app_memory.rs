//! The app's memory: the real `gatehouse-app` (a release build) in an Xvfb display, with `N`
//! echo servers (20 for the published figures) connected and idle on the Servers page, measured
//! as the proportional set size (PSS, `/proc/PID/smaps_rollup`) of every process of the app:
//! the engine (the app's own process, which also runs GTK), each WebKit process, and the
//! helpers WebKit starts (its sandbox), but not the servers. It runs three times: as the app
//! ships, with WebKit's accelerated compositing forced on (to show what compositing costs), and
//! with the window closed (started `--hidden`, as at login: no webview, the engine alone in the
//! tray, as after closing the window); see docs/performance.md.

use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gatehouse_host::{AuditKind, Host, HostOptions};
use serde::Serialize;

use crate::BoxError;
use crate::memory_secrets::MemorySecrets;

/// How long the app's servers may take to be connected before the run fails.
const READY_LIMIT: Duration = Duration::from_secs(120);

/// What one run of the app measured.
#[derive(Debug, Clone, Serialize)]
pub struct AppRun {
    /// `as shipped`, `compositing forced on` or `window closed`.
    pub mode: &'static str,
    /// From launch until the connection trail shows every server connected.
    pub ready_ms: f64,
    /// The engine process's PSS, in MB.
    pub engine_mb: f64,
    /// Every WebKit process's PSS, in MB, by process name.
    pub webkit_mb: BTreeMap<String, f64>,
    /// WebKit's helpers (its sandbox, D-Bus proxy), in MB.
    pub helpers_mb: f64,
    /// The whole app (engine, WebKit and helpers), in MB.
    pub total_mb: f64,
    /// The servers' processes, in MB (not part of the app's figure).
    pub servers_mb: f64,
}

/// What the app-memory section measured.
#[derive(Debug, Clone, Serialize)]
pub struct AppMemory {
    pub servers: usize,
    /// How long the app sat idle after every server connected, before measuring.
    pub idle_s: u64,
    pub runs: Vec<AppRun>,
}

impl AppMemory {
    /// The run of the app as it ships.
    pub fn shipped(&self) -> Option<&AppRun> {
        self.runs.iter().find(|r| r.mode == SHIPPED)
    }

    /// The run with the window closed (the engine alone, in the tray).
    pub fn window_closed(&self) -> Option<&AppRun> {
        self.runs.iter().find(|r| r.mode == WINDOW_CLOSED)
    }
}

const SHIPPED: &str = "as shipped";
const COMPOSITING: &str = "compositing forced on";
const WINDOW_CLOSED: &str = "window closed";

/// Runs the app three times with `servers` echo servers and measures it after `idle` of quiet.
pub async fn run(
    app: PathBuf,
    echo: PathBuf,
    servers: usize,
    idle: Duration,
) -> Result<AppMemory, BoxError> {
    if !app.is_file() {
        return Err(format!(
            "the app is missing at {}: build it with `cargo build --release -p gatehouse-app` (after `npm run build` in ui/)",
            app.display()
        )
        .into());
    }
    let mut runs = Vec::new();
    for (mode, compositing, hidden) in [
        (SHIPPED, false, false),
        (COMPOSITING, true, false),
        (WINDOW_CLOSED, false, true),
    ] {
        runs.push(one_run(&app, &echo, servers, idle, mode, compositing, hidden).await?);
    }
    Ok(AppMemory {
        servers,
        idle_s: idle.as_secs(),
        runs,
    })
}

async fn one_run(
    app: &Path,
    echo: &Path,
    servers: usize,
    idle: Duration,
    mode: &'static str,
    compositing: bool,
    hidden: bool,
) -> Result<AppRun, BoxError> {
    let dir = tempfile::Builder::new()
        .prefix("gatehouse-bench-app-")
        .tempdir()?;
    let data = dir.path().join("data");
    let host = open_host(&data).await?;
    for i in 0..servers {
        host.add_server(crate::fleet::echo_server(echo, i, Vec::new()))
            .await?;
    }

    let display = Xvfb::start()?;
    let mut command = Command::new(app);
    command
        .env("DISPLAY", &display.name)
        .env("GATEHOUSE_DATA_DIR", &data)
        .env("NO_AT_BRIDGE", "1")
        .env("GTK_A11Y", "none")
        .env_remove("WEBKIT_DISABLE_COMPOSITING_MODE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (var, sub) in [
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ] {
        let path = dir.path().join(sub);
        std::fs::create_dir_all(&path)?;
        command.env(var, path);
    }
    if compositing {
        command.env("GATEHOUSE_WEBKIT_COMPOSITING", "1");
    }
    if hidden {
        command.arg("--hidden");
    }
    let launched = Instant::now();
    let app = AppProcess(command.spawn()?);
    let connected = wait_connected(&host, servers, &app).await;
    let ready_ms = launched.elapsed().as_secs_f64() * 1000.0;
    connected?;
    tokio::time::sleep(idle).await;
    let tree = descendants(app.0.id());
    let mut run = AppRun {
        mode,
        ready_ms,
        engine_mb: 0.0,
        webkit_mb: BTreeMap::new(),
        helpers_mb: 0.0,
        total_mb: 0.0,
        servers_mb: 0.0,
    };
    let echo_name = echo
        .file_name()
        .map(|n| n.to_string_lossy().chars().take(15).collect::<String>())
        .unwrap_or_default();
    for (pid, name) in tree {
        let mb = pss_kb(pid) as f64 / 1024.0;
        if pid == app.0.id() {
            run.engine_mb += mb;
        } else if name.starts_with("WebKit") {
            *run.webkit_mb.entry(name).or_default() += mb;
        } else if name == echo_name || name == "sh" {
            // A server, or the watchdog shell that kills the servers if the app dies.
            run.servers_mb += mb;
        } else {
            run.helpers_mb += mb;
        }
    }
    run.total_mb = run.engine_mb + run.webkit_mb.values().sum::<f64>() + run.helpers_mb;
    drop(app);
    drop(display);
    host.shutdown().await;
    Ok(run)
}

async fn open_host(data: &Path) -> Result<Host, BoxError> {
    Ok(Host::open(HostOptions {
        data_dir: Some(data.to_path_buf()),
        live_sessions: false,
        secrets: Some(Arc::new(MemorySecrets::default())),
        ..HostOptions::default()
    })
    .await?)
}

/// Waits until the app's connection trail (its `connection` audit rows) shows every server
/// connected.
async fn wait_connected(host: &Host, servers: usize, app: &AppProcess) -> Result<(), BoxError> {
    let started = Instant::now();
    let filter = gatehouse_host::AuditFilter {
        limit: Some(10_000),
        ..Default::default()
    };
    loop {
        // Newest first: the first row of a server is its current state.
        let mut states: HashMap<String, bool> = HashMap::new();
        for row in host.audit().list(&filter).await? {
            let event = row.event;
            if event.kind != AuditKind::Connection {
                continue;
            }
            if let Some(server) = event.server {
                let connected =
                    event.detail.get("state").and_then(|s| s.as_str()) == Some("connected");
                states.entry(server).or_insert(connected);
            }
        }
        let ready = states.values().filter(|c| **c).count();
        if ready >= servers {
            return Ok(());
        }
        if !app.running() {
            return Err("the app exited before its servers connected".into());
        }
        if started.elapsed() > READY_LIMIT {
            return Err(
                format!("{ready} of {servers} servers connected after {READY_LIMIT:?}").into(),
            );
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The app's process; stopped (SIGTERM, then SIGKILL after 15 s) when dropped.
struct AppProcess(Child);

impl AppProcess {
    fn running(&self) -> bool {
        Path::new(&format!("/proc/{}/stat", self.0.id())).exists() && !self.zombie()
    }

    fn zombie(&self) -> bool {
        stat(self.0.id()).is_some_and(|(state, _)| state == 'Z')
    }
}

impl Drop for AppProcess {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An Xvfb server on a display it picks itself; stopped when dropped.
struct Xvfb {
    child: Child,
    name: String,
}

impl Xvfb {
    fn start() -> Result<Xvfb, BoxError> {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start Xvfb (apt package xvfb): {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout from Xvfb")?;
        let mut line = String::new();
        std::io::BufReader::new(stdout).read_line(&mut line)?;
        let number = line.trim();
        if number.is_empty() {
            let _ = child.kill();
            let _ = child.wait();
            return Err("Xvfb did not report its display".into());
        }
        Ok(Xvfb {
            name: format!(":{number}"),
            child,
        })
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process's state letter and parent pid, from `/proc/PID/stat`.
fn stat(pid: u32) -> Option<(char, u32)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name is in parentheses and may hold spaces: read after the last `)`.
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

/// `root` and every process below it, with their names.
fn descendants(root: u32) -> Vec<(u32, String)> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.filter_map(Result::ok) {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            if let Some((_, parent)) = stat(pid) {
                children.entry(parent).or_default().push(pid);
            }
        }
    }
    let mut found = Vec::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        let name = std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .map(|n| n.trim().to_owned())
            .unwrap_or_default();
        found.push((pid, name));
        queue.extend(children.get(&pid).into_iter().flatten());
    }
    found
}

/// A process's proportional set size in kB (0 if it is gone).
fn pss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("Pss:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
