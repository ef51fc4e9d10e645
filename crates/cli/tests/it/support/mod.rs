//! What the CLI tests share: running the `gatehouse` binary as a user would, the engine on the
//! same data directory (as the app would hold it), going around the binary with the `sqlite3`
//! tool, and the real servers it talks to (server-everything over stdio and over HTTP, a minimal
//! script server).

pub mod agent_home;
pub mod engine;
pub mod gateway;
pub mod wait;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

use gatehouse_host::{AuditEvent, Host, HostOptions};
use serde_json::Value;
use tempfile::TempDir;

/// The `gatehouse` binary on the database in `data`, for a run that needs more than arguments
/// (its environment, its pipes).
pub fn command(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gatehouse"));
    command
        .arg("--data-dir")
        .arg(data)
        .env_remove("GATEHOUSE_DATA_DIR");
    command
}

pub fn gatehouse(data: &Path, args: &[&str]) -> Output {
    command(data).args(args).output().expect("the binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The database file in the data directory `data`.
pub fn database(data: &Path) -> PathBuf {
    data.join("gatehouse.db")
}

/// Runs `sqlite3 DB SQL` on the database in `data`, as someone going around Gatehouse would,
/// and returns whether it succeeded, with its stderr.
pub fn sqlite3(data: &Path, sql: &str) -> (bool, String) {
    let output = Command::new("sqlite3")
        .args(["-cmd", ".timeout 5000"])
        .arg(database(data))
        .arg(sql)
        .output()
        .expect("the sqlite3 tool runs (scripts/install-test-deps.sh installs it)");
    (output.status.success(), stderr(&output))
}

/// Runs `sql` with the `sqlite3` tool, the append-only triggers dropped first; it must succeed.
pub fn tamper(data: &Path, sql: &str) {
    let (done, err) = sqlite3(
        data,
        &format!("DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete; {sql}"),
    );
    assert!(done, "`{sql}`: {err}");
}

/// The engine on the database in `data`, without live sessions.
pub async fn open_engine(data: &Path) -> Host {
    Host::open(HostOptions {
        data_dir: Some(data.to_path_buf()),
        ..Default::default()
    })
    .await
    .expect("open")
}

/// A fresh data directory whose audit log holds `events`, appended one by one through the
/// engine, which is then closed.
pub async fn data_with_audit(events: impl IntoIterator<Item = AuditEvent>) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_engine(dir.path()).await;
    for event in events {
        host.audit().append(event).await.expect("append");
    }
    host.shutdown().await;
    dir
}

/// `gatehouse audit verify` must fail with exactly this one line.
pub fn assert_broken(data: &Path, line: &str, why: &str) {
    let output = exits(data, &["audit", "verify"], 1);
    assert_eq!(stderr(&output), format!("error: {line}\n"), "{why}");
}

/// Runs a command that must succeed and returns its stdout.
pub fn ok(data: &Path, args: &[&str]) -> String {
    let output = gatehouse(data, args);
    assert!(
        output.status.success(),
        "`gatehouse {}` must succeed: {}",
        args.join(" "),
        stderr(&output)
    );
    stdout(&output)
}

/// Runs a command that must succeed with `--json` output and parses it.
pub fn ok_json(data: &Path, args: &[&str]) -> Value {
    let text = ok(data, args);
    serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "`gatehouse {}` must print JSON ({e}): {text}",
            args.join(" ")
        )
    })
}

/// Runs a command that must exit with `code` and returns its output.
pub fn exits(data: &Path, args: &[&str], code: i32) -> Output {
    let output = gatehouse(data, args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "`gatehouse {}` must exit with {code}: {}",
        args.join(" "),
        stderr(&output)
    );
    output
}

pub fn everything_js() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        path.is_file(),
        "server-everything is missing at {}: run scripts/install-test-deps.sh",
        path.display()
    );
    path.display().to_string()
}

/// Registers the stdio server `program args…` under `name`.
pub fn add_stdio(data: &Path, name: &str, program: &str, args: &[&str]) {
    let mut add = vec!["server", "add", name, "--command", program];
    for arg in args {
        add.extend(["--arg", arg]);
    }
    ok(data, &add);
}

/// Registers server-everything over stdio under `name`.
pub fn add_everything(data: &Path, name: &str) {
    add_stdio(data, name, "node", &[&everything_js(), "stdio"]);
}

/// Registers under `name` the Python SDK fixture (tests/fixtures/python/server.py over stdio,
/// with `--extras`: `count` reports progress and counts its cancellations, `stats` says how many).
pub fn add_python_sdk(data: &Path, name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/python");
    let python = dir.join(".venv/bin/python");
    assert!(
        python.is_file(),
        "the Python fixture venv is missing: run scripts/install-test-deps.sh"
    );
    let script = dir.join("server.py").display().to_string();
    add_stdio(
        data,
        name,
        &python.display().to_string(),
        &[&script, "stdio", "--extras"],
    );
}

/// A fresh data directory with server-everything registered under `name`.
pub fn data_with_everything(name: &str) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    add_everything(dir.path(), name);
    dir
}

/// server-everything over Streamable HTTP, registered under `name`; it runs while the fixture
/// lives.
pub fn add_everything_over_http(data: &Path, name: &str) -> HttpFixture {
    let server = HttpFixture::start("streamableHttp");
    let url = server.url("/mcp");
    ok(
        data,
        &[
            "server",
            "add",
            name,
            "--url",
            &url,
            "--transport",
            "streamable-http",
        ],
    );
    server
}

/// Registers under `name` the TypeScript SDK v2 server that offers only `feature` (`prompts` or
/// `resources`) and no tools, tests/fixtures/ts-sdk-v2/partial.mjs over stdio.
pub fn add_offering_only(data: &Path, name: &str, feature: &str) {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    assert!(
        fixtures
            .join("node_modules/@modelcontextprotocol/server/package.json")
            .is_file(),
        "the TypeScript SDK v2 is missing: run scripts/install-test-deps.sh"
    );
    let script = fixtures.join("ts-sdk-v2/partial.mjs").display().to_string();
    add_stdio(data, name, "node", &[&script, feature]);
}

/// A stdio server in Python that declares only `tools` (with none) and answers `ping`, for
/// the features a server may leave out.
pub const TOOLS_ONLY: &str = r#"
def answer(method, params):
    return {"tools/list": {"tools": []}, "ping": {}}.get(method)
serve({"tools": {}}, answer, name="bare")
"#;

/// Registers a python3 server built on tests/fixtures/scripts/scripted.py under `name`; `body`
/// uses its helpers (`serve`, `Refuse`, `tool`, …).
pub fn add_scripted(data: &Path, name: &str, body: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/scripts");
    let dir = dir.display().to_string();
    let source = format!("import sys\nsys.path.insert(0, {dir:?})\nfrom scripted import *\n{body}");
    add_stdio(data, name, "python3", &["-u", "-c", &source]);
}

/// Registers [`TOOLS_ONLY`] under `name`.
pub fn add_tools_only(data: &Path, name: &str) {
    add_scripted(data, name, TOOLS_ONLY);
}

/// A fixture server over HTTP on a free port, killed and reaped when dropped.
pub struct HttpFixture {
    child: Child,
    pub port: u16,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl HttpFixture {
    /// server-everything in `mode` (`streamableHttp` or `sse`).
    pub fn start(mode: &str) -> HttpFixture {
        let port = free_port();
        let mut command = Command::new("node");
        command
            .args([everything_js().as_str(), mode])
            .env("PORT", port.to_string());
        Self::spawn(command, port)
    }

    /// The TypeScript SDK v2 fixture (a modern, stateless server) over Streamable HTTP.
    pub fn ts_sdk_v2() -> HttpFixture {
        let port = free_port();
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/ts-sdk-v2/server.mjs");
        let mut command = Command::new("node");
        command.arg(script).args(["http", &port.to_string()]);
        Self::spawn(command, port)
    }

    fn spawn(mut command: Command, port: u16) -> HttpFixture {
        let child = command
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("node starts");
        let server = HttpFixture { child, port };
        let step = format!("the fixture server listens on port {port}");
        wait::until(&step, std::time::Duration::from_secs(10), || {
            std::net::TcpStream::connect(("127.0.0.1", port))
        });
        server
    }

    /// The conformance suite's Everything Server (tests/fixtures/conformance-server), which
    /// speaks 2026-07-28 over Streamable HTTP (and the 2025 era to 2025 clients).
    pub fn conformance() -> HttpFixture {
        let port = free_port();
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/conformance-server/server.mjs");
        let mut command = Command::new("node");
        command.arg(script).args(["--port", &port.to_string()]);
        Self::spawn(command, port)
    }

    /// tests/fixtures/faults/oauth_server.py in `mode`: an MCP server at `/mcp` behind OAuth,
    /// with its authorization server at `/as`.
    pub fn oauth(mode: &str) -> HttpFixture {
        let port = free_port();
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/faults/oauth_server.py");
        let mut command = Command::new("python3");
        command.arg(script).args([&port.to_string(), mode]);
        Self::spawn(command, port)
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for HttpFixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `gatehouse <args>` on a pseudo-terminal, typing `typed`; returns what the screen showed
/// and whether it succeeded.
pub fn on_terminal(data: &std::path::Path, args: &str, typed: &str) -> (String, bool) {
    let command = format!(
        "'{}' --data-dir '{}' {args}",
        env!("CARGO_BIN_EXE_gatehouse"),
        data.display()
    );
    let mut child = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("script runs (util-linux)");
    let mut stdin = child.stdin.take().expect("stdin");
    std::io::Write::write_all(&mut stdin, typed.as_bytes()).expect("type");
    wait::until(
        "the command must finish",
        std::time::Duration::from_secs(60),
        || child.try_wait().expect("wait").ok_or("running"),
    );
    drop(stdin);
    let output = child.wait_with_output().expect("output");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.success(),
    )
}
