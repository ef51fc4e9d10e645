//! Shared scaffolding of the host's integration tests: where the fixture servers are, a stdio
//! server config, waiting for a live server's status (polled or announced), and the processes
//! a fixture records; calling tools through the gate in [`gate`], going around the audit log in
//! [`audit`].

pub mod agent_home;
pub mod audit;
pub mod gate;
pub mod icon_site;
pub mod oauth;
pub mod wait;

use std::path::{Path, PathBuf};
use std::time::Duration;

use gatehouse_host::{
    AuditRow, EngineEvent, HealthChecks, Host, HostOptions, ServerInput, ServerSpec, ServerStatus,
};

/// An enabled HTTP server `name` at `url` over `transport`, without headers or OAuth settings.
pub fn http_over(name: &str, url: &str, transport: gatehouse_host::ServerTransport) -> ServerInput {
    ServerInput {
        name: name.into(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Http {
            url: url.into(),
            transport,
            headers: Vec::new(),
            oauth: Default::default(),
        },
    }
}

/// A disabled HTTP server `name` at an address nothing answers, with a secret
/// `Authorization: Bearer <secret>` header when `secret` is given.
pub fn unreachable_http(name: &str, secret: Option<&str>) -> ServerInput {
    let mut input = http_over(
        name,
        "https://127.0.0.1:9/mcp",
        gatehouse_host::ServerTransport::Auto,
    );
    input.enabled = false;
    if let (ServerSpec::Http { headers, .. }, Some(secret)) = (&mut input.spec, secret) {
        headers.push(gatehouse_host::HttpHeader {
            name: "Authorization".into(),
            value: format!("Bearer {secret}"),
            secret: true,
        });
    }
    input
}

/// Every file under `dir` that contains `needle`.
pub fn files_containing(dir: &Path, needle: impl AsRef<[u8]>) -> Vec<String> {
    let needle = needle.as_ref();
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&next) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(bytes) = std::fs::read(&path)
                && bytes.windows(needle.len()).any(|w| w == needle)
            {
                found.push(path.display().to_string());
            }
        }
    }
    found
}

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// The python3 source of a server built on tests/fixtures/scripts/scripted.py; `body` uses its
/// helpers (`handshake`, `read`, `reply`, …).
pub fn scripted_source(body: &str) -> String {
    let dir = fixtures().join("scripts").display().to_string();
    format!("import sys\nsys.path.insert(0, {dir:?})\nfrom scripted import *\n{body}")
}

/// server-everything's entry point, installed by `scripts/install-test-deps.sh`.
pub fn everything_js() -> String {
    let path =
        fixtures().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        path.is_file(),
        "server-everything is missing at {}: run scripts/install-test-deps.sh",
        path.display()
    );
    path.display().to_string()
}

/// The `seq` of each audit row, in order.
pub fn seqs(rows: &[AuditRow]) -> Vec<i64> {
    rows.iter().map(|r| r.seq).collect()
}

/// The engine on the data directory `dir`, running live sessions if `live`.
pub async fn open_host(dir: &Path, live: bool) -> Host {
    Host::open(HostOptions {
        data_dir: Some(dir.to_path_buf()),
        live_sessions: live,
        ..Default::default()
    })
    .await
    .expect("open")
}

/// An enabled stdio server without roots or environment.
pub fn stdio(name: &str, command: &str, args: Vec<String>) -> ServerInput {
    ServerInput {
        name: name.to_owned(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: command.to_owned(),
            args,
            env: vec![],
            cwd: None,
            stop: Default::default(),
        },
    }
}

/// A tests/fixtures/python server (`script` run by the fixtures' venv with `args`) over stdio,
/// under `name`.
pub fn python_server(name: &str, script: &str, args: Vec<String>) -> ServerInput {
    let dir = fixtures().join("python");
    let python = dir.join(".venv/bin/python");
    assert!(
        python.is_file(),
        "the Python fixture venv is missing: run scripts/install-test-deps.sh"
    );
    let args = std::iter::once(dir.join(script).display().to_string())
        .chain(args)
        .collect();
    stdio(name, &python.display().to_string(), args)
}

/// server-everything over stdio, under `name`.
pub fn everything(name: &str) -> ServerInput {
    stdio(name, "node", vec![everything_js(), "stdio".into()])
}

/// The TypeScript SDK v2 server that offers only `feature` (`prompts` or `resources`) and no
/// tools, tests/fixtures/ts-sdk-v2/partial.mjs over stdio, under `name`.
pub fn offering_only(name: &str, feature: &str) -> ServerInput {
    assert!(
        fixtures()
            .join("node_modules/@modelcontextprotocol/server/package.json")
            .is_file(),
        "the TypeScript SDK v2 is missing: run scripts/install-test-deps.sh"
    );
    let script = fixtures().join("ts-sdk-v2/partial.mjs");
    stdio(
        name,
        "node",
        vec![script.display().to_string(), feature.to_owned()],
    )
}

/// The server's status once it is no longer connecting (at most 60 s).
pub async fn settled(host: &Host, name: &str) -> ServerStatus {
    let step = format!("{name} leaves `connecting`");
    wait::until(&step, Duration::from_secs(60), || async {
        let status = host.server(name).await.expect("the server exists").status;
        match status {
            ServerStatus::Connecting => Err(status),
            _ => Ok(status),
        }
    })
    .await
}

/// A live host on `dir` whose health checks run as `checks` says.
pub async fn open_checked_host(dir: &Path, checks: HealthChecks) -> Host {
    Host::open(HostOptions {
        data_dir: Some(dir.to_path_buf()),
        live_sessions: true,
        health_checks: Some(checks),
        ..Default::default()
    })
    .await
    .expect("open")
}

/// The server's status once `done` says so (at most `within`).
pub async fn status_until(
    host: &Host,
    name: &str,
    within: Duration,
    done: impl Fn(&ServerStatus) -> bool,
) -> ServerStatus {
    let step = format!("{name} reaches the status awaited");
    wait::until(&step, within, || async {
        let status = host.server(name).await.expect("the server exists").status;
        if done(&status) {
            Ok(status)
        } else {
            Err(status)
        }
    })
    .await
}

/// The statuses announced on `events` until `done` says so of them (at most `within`).
pub async fn statuses_until(
    events: &mut tokio::sync::broadcast::Receiver<EngineEvent>,
    within: Duration,
    done: impl Fn(&[ServerStatus]) -> bool,
) -> Vec<ServerStatus> {
    let deadline = std::time::Instant::now() + within;
    let mut seen = Vec::new();
    while !done(&seen) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match tokio::time::timeout(left, events.recv()).await {
            Ok(Ok(EngineEvent::ServerStatus { status, .. })) => seen.push(status),
            Ok(Ok(_)) => {}
            Ok(Err(e)) => panic!("events: {e}"),
            Err(_) => panic!("not done within {within:?}: {seen:?}"),
        }
    }
    seen
}

/// The pids a fixture appended to `file`, one per start, in order.
pub fn pids_in(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Whether the process runs (and is not a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

/// The TypeScript SDK v2 fixture (a modern, stateless server) over Streamable HTTP on a free
/// port; killed when the returned child is dropped. Returns the child and the endpoint URL.
pub async fn ts_sdk_v2_http() -> (tokio::process::Child, String) {
    ts_sdk_v2_http_with(&[]).await
}

/// The same, with environment variables for the fixture (such as `TOOLS_TTL_MS`).
pub async fn ts_sdk_v2_http_with(env: &[(&str, &str)]) -> (tokio::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let script = fixtures().join("ts-sdk-v2/server.mjs");
    let child = tokio::process::Command::new("node")
        .arg(&script)
        .args(["http", &port.to_string()])
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("node starts");
    let step = format!("the TypeScript server listens on port {port}");
    wait::until(&step, Duration::from_secs(15), || async {
        tokio::net::TcpStream::connect(("127.0.0.1", port)).await
    })
    .await;
    (child, format!("http://127.0.0.1:{port}/mcp"))
}

/// An enabled HTTP server at `url`, transport chosen automatically.
pub fn http(name: &str, url: &str) -> ServerInput {
    http_over(name, url, gatehouse_host::ServerTransport::Auto)
}

/// Answers every request the host puts to a person with `answer`, as a window would, and
/// sends each question it saw to the returned receiver. The task ends with the host's events.
pub fn answer_with(
    host: &Host,
    answer: impl Fn(&gatehouse_host::approvals::PendingApproval) -> gatehouse_host::approvals::Answer
    + Send
    + 'static,
) -> tokio::sync::mpsc::UnboundedReceiver<gatehouse_host::approvals::PendingApproval> {
    host.set_attended(true);
    let approvals = host.gate().approvals().clone();
    let mut events = host.subscribe();
    let (seen, questions) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(gatehouse_host::EngineEvent::ApprovalAsked(pending)) => {
                    let answered = approvals.answer(&pending.id, answer(&pending));
                    assert!(answered.is_ok(), "the answer fits: {answered:?}");
                    let _ = seen.send(*pending);
                }
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            }
        }
    });
    questions
}

/// A database at `db` with the schema as it was before migration `before` (a file-name prefix
/// such as `20261129100000`): every older migration run, none from it on.
pub async fn database_before(db: &Path, before: &str) -> sqlx::SqlitePool {
    let older = tempfile::tempdir().expect("temp dir");
    let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
    for entry in std::fs::read_dir(&migrations).expect("the migrations folder") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name < before {
            std::fs::copy(&path, older.path().join(name)).expect("copy a migration");
        }
    }
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db)
        .create_if_missing(true)
        .foreign_keys(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.expect("open");
    sqlx::migrate::Migrator::new(older.path())
        .await
        .expect("the older migrations")
        .run(&pool)
        .await
        .expect("migrate to the older schema");
    pool
}
