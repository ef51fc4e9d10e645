//! What the `gatehouse-mcp` integration tests share: where the test servers are installed
//! (server-everything and the other reference servers, the Python and TypeScript SDK v2
//! fixtures, the HTTP fault and OAuth scripts in tests/fixtures/faults), starting one in an HTTP mode on a
//! free port and waiting until it listens, connecting to a server with [`RefusingHandler`], and
//! reading the text of a tool result.

pub mod answers;
pub mod wait;

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::peer::RefusingHandler;
use gatehouse_mcp::{
    CallToolResult, Client, ClientOptions, HttpConfig, HttpMode, McpError, StdioConfig,
};
use tokio::process::{Child, Command};

/// A path under tests/fixtures at the workspace root.
fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(path)
}

/// The entry point of the `@modelcontextprotocol/{package}` server that
/// `scripts/install-test-deps.sh` installs.
pub fn package_js(package: &str) -> String {
    let path = fixture(&format!(
        "node_modules/@modelcontextprotocol/{package}/dist/index.js"
    ));
    assert!(
        path.is_file(),
        "{package} is missing at {}: run scripts/install-test-deps.sh",
        path.display()
    );
    path.display().to_string()
}

fn everything_js() -> String {
    package_js("server-everything")
}

/// server-everything over stdio.
pub fn everything() -> StdioConfig {
    let mut config = StdioConfig::new("node");
    config.args = vec![everything_js(), "stdio".to_owned()];
    config
}

/// A python3 script acting as a server over stdio, for behaviour no real server shows on demand.
pub fn script(source: &str) -> StdioConfig {
    let mut config = StdioConfig::new("python3");
    config.args = vec!["-u".to_owned(), "-c".to_owned(), source.to_owned()];
    config.stop_grace = Duration::from_millis(500);
    config.term_grace = Duration::from_millis(500);
    config
}

/// A python3 script server built on tests/fixtures/scripts/scripted.py, whose helpers
/// (`read`, `send`, `reply`, `fail`, `tool`, `handshake`, `discover`, `serve`) `body` uses.
pub fn scripted(body: &str) -> StdioConfig {
    let dir = fixture("scripts").display().to_string();
    script(&format!(
        "import sys\nsys.path.insert(0, {dir:?})\nfrom scripted import *\n{body}"
    ))
}

/// The names of the tools a server lists (scripted servers report what they saw this way).
pub async fn tool_names(client: &Client) -> Vec<String> {
    let page = client.list_tools().await.expect("tools/list");
    page.items.into_iter().map(|t| t.name).collect()
}

/// Asserts that a server lists exactly the tools `expected`, `why` saying what that shows.
pub async fn assert_tools(client: &Client, expected: &[&str], why: &str) {
    assert_eq!(tool_names(client).await, expected, "{why}");
}

/// The TypeScript SDK v2 fixture server, tests/fixtures/ts-sdk-v2/server.mjs.
pub fn ts_sdk_v2_js() -> String {
    assert!(
        fixture("node_modules/@modelcontextprotocol/server/package.json").is_file(),
        "the TypeScript SDK v2 is missing: run scripts/install-test-deps.sh"
    );
    fixture("ts-sdk-v2/server.mjs").display().to_string()
}

/// The Python SDK fixture: the venv's interpreter and the path of `server.py`.
pub fn python_fixture() -> (String, String) {
    let dir = fixture("python");
    let python = dir.join(".venv/bin/python");
    assert!(
        python.is_file(),
        "the Python fixture venv is missing: run scripts/install-test-deps.sh"
    );
    (
        python.display().to_string(),
        dir.join("server.py").display().to_string(),
    )
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The HTTP configuration for `path` on the local `port`.
pub fn http_config(port: u16, path: &str) -> HttpConfig {
    HttpConfig::new(url::Url::parse(&format!("http://127.0.0.1:{port}{path}")).expect("url"))
}

/// A test server in one of its HTTP modes on a free port, killed when dropped.
pub struct HttpServer {
    _child: Child,
    pub port: u16,
}

impl HttpServer {
    /// server-everything in `mode` (`streamableHttp` or `sse`).
    pub async fn everything(mode: &str) -> HttpServer {
        let port = free_port();
        let mut command = Command::new("node");
        command
            .arg(everything_js())
            .arg(mode)
            .env("PORT", port.to_string());
        Self::spawn(command, port, &format!("server-everything {mode}"), 10).await
    }

    /// The Python SDK fixture in `mode` (`streamable-http` or `sse`).
    pub async fn python(mode: &str) -> HttpServer {
        Self::python_with(mode, &[]).await
    }

    /// The Python SDK fixture in `mode` with extra arguments (such as `--extras`).
    pub async fn python_with(mode: &str, extra: &[&str]) -> HttpServer {
        let (python, script) = python_fixture();
        let port = free_port();
        let mut command = Command::new(python);
        command.args([script.as_str(), mode, &port.to_string()]);
        command.args(extra);
        Self::spawn(command, port, &format!("the Python server ({mode})"), 15).await
    }

    /// The TypeScript SDK v2 fixture over stateless Streamable HTTP.
    pub async fn ts_sdk_v2() -> HttpServer {
        Self::ts_sdk_v2_at(free_port()).await
    }

    /// The TypeScript SDK v2 fixture on a given port (to start it again where it was).
    pub async fn ts_sdk_v2_at(port: u16) -> HttpServer {
        let mut command = Command::new("node");
        command.args([ts_sdk_v2_js().as_str(), "http", &port.to_string()]);
        Self::spawn(command, port, "the TypeScript server", 15).await
    }

    /// tests/fixtures/faults/http_faults.py playing the fault `mode`.
    pub async fn faults(mode: &str) -> HttpServer {
        let port = free_port();
        let mut command = Command::new("python3");
        command
            .arg(fixture("faults/http_faults.py"))
            .args([port.to_string().as_str(), mode]);
        Self::spawn(command, port, "the fault server", 10).await
    }

    /// tests/fixtures/faults/oauth_server.py (an MCP server behind OAuth) in `mode`.
    pub async fn oauth(mode: &str) -> HttpServer {
        let port = free_port();
        let mut command = Command::new("python3");
        command
            .arg(fixture("faults/oauth_server.py"))
            .args([port.to_string().as_str(), mode]);
        Self::spawn(command, port, "the OAuth server", 10).await
    }

    /// Starts `command` and waits up to `seconds` for it to listen on `port`.
    async fn spawn(mut command: Command, port: u16, name: &str, seconds: u32) -> HttpServer {
        let program = command
            .as_std()
            .get_program()
            .to_string_lossy()
            .into_owned();
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("{program} starts: {e:?}"));
        let step = format!("{name} listens on port {port}");
        wait::until(&step, Duration::from_secs(seconds.into()), || async {
            tokio::net::TcpStream::connect(("127.0.0.1", port)).await
        })
        .await;
        HttpServer {
            _child: child,
            port,
        }
    }

    /// The HTTP configuration for `path` on this server.
    pub fn config(&self, path: &str) -> HttpConfig {
        http_config(self.port, path)
    }
}

/// Connects over stdio with the default options and a handler that refuses server requests.
pub async fn connect_stdio(config: &StdioConfig) -> Result<Client, McpError> {
    Client::connect_stdio(config, ClientOptions::default(), Arc::new(RefusingHandler)).await
}

/// Connects over HTTP with the default options and a handler that refuses server requests.
pub async fn connect_http(config: &HttpConfig, mode: HttpMode) -> Result<Client, McpError> {
    Client::connect_http(
        config,
        mode,
        ClientOptions::default(),
        Arc::new(RefusingHandler),
    )
    .await
}

/// The text blocks of a result, one a line.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of a result's first content block, empty when it has none.
pub fn first_text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .unwrap_or_default()
        .to_owned()
}
