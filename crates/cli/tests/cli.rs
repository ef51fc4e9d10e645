//! The `gatehouse` binary, run as a user would: every command, the exit statuses (0 success,
//! 1 operational error, 2 usage error), the JSON output, and concurrent use of one database.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gatehouse_host::{Host, HostOptions, ServerInput, ServerSpec};
use serde_json::Value;

fn gatehouse(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("GATEHOUSE_DATA_DIR")
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn ok(data: &Path, args: &[&str]) -> String {
    let output = gatehouse(data, args);
    assert!(
        output.status.success(),
        "`gatehouse {}` must succeed: {}",
        args.join(" "),
        stderr(&output)
    );
    stdout(&output)
}

fn everything_js() -> String {
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

#[test]
fn manages_servers_and_prints_stable_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    assert!(
        ok(data, &["server", "list"]).contains("no servers yet"),
        "an empty list tells what to do"
    );
    ok(
        data,
        &[
            "server",
            "add",
            "local",
            "--command",
            "node",
            "--arg",
            "a.js",
            "--arg",
            "--flag",
            "--env",
            "K=V=W",
            "--cwd",
            ".",
            "--root",
            ".",
        ],
    );
    ok(
        data,
        &[
            "server",
            "add",
            "remote",
            "--url",
            "http://127.0.0.1:3000/mcp",
            "--transport",
            "sse",
            "--header",
            "X-Team: blue",
        ],
    );
    ok(data, &["server", "disable", "remote"]);

    let list: Value =
        serde_json::from_str(&ok(data, &["server", "list", "--json"])).expect("valid JSON");
    let servers = list.as_array().expect("a JSON array");
    assert_eq!(servers.len(), 2);
    let local = &servers[0];
    assert_eq!(local["name"], "local");
    assert_eq!(local["enabled"], true);
    assert_eq!(local["spec"]["kind"], "stdio");
    assert_eq!(
        local["spec"]["args"],
        serde_json::json!(["a.js", "--flag"]),
        "hyphenated args pass through"
    );
    assert_eq!(
        local["spec"]["env"][0],
        serde_json::json!({"key": "K", "value": "V=W", "secret": false})
    );
    let cwd = std::env::current_dir().expect("cwd").display().to_string();
    assert_eq!(
        local["roots"],
        serde_json::json!([format!("file://{cwd}")]),
        "--root is stored as a file:// URI of the absolute directory"
    );
    assert_eq!(
        local["spec"]["cwd"],
        cwd.as_str(),
        "--cwd is stored absolute"
    );
    for key in ["id", "createdAt", "updatedAt"] {
        assert!(
            local[key].is_string(),
            "{key} is part of the documented JSON"
        );
    }
    let remote = &servers[1];
    assert_eq!(remote["enabled"], false);
    assert_eq!(remote["spec"]["transport"], "sse");
    assert_eq!(
        remote["spec"]["headers"][0],
        serde_json::json!({"name": "X-Team", "value": "blue", "secret": false})
    );

    ok(data, &["server", "enable", "remote"]);
    ok(data, &["server", "remove", "local"]);
    let table = ok(data, &["server", "list"]);
    assert!(
        table.contains("remote") && !table.contains("local"),
        "got: {table}"
    );
}

#[test]
fn operational_errors_exit_1_with_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    ok(data, &["server", "add", "dup", "--command", "node"]);
    let cases: &[(&[&str], &str)] = &[
        (
            &["server", "add", "dup", "--command", "node"],
            "a server named `dup` already exists",
        ),
        (
            &["server", "add", "blank", "--command", " "],
            "the command must not be empty",
        ),
        (
            &["server", "add", "bad", "--url", "ftp://example.test"],
            "scheme must be http or https",
        ),
        (
            &["server", "add", "bad name", "--command", "node"],
            "invalid server name",
        ),
        (
            &["server", "remove", "ghost"],
            "no server named or with id `ghost`",
        ),
        (
            &["server", "enable", "ghost"],
            "no server named or with id `ghost`",
        ),
        (&["tools", "ghost"], "no server named or with id `ghost`"),
    ];
    for (args, expected) in cases {
        let output = gatehouse(data, args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "`{}` is an operational error",
            args.join(" ")
        );
        let err = stderr(&output);
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "`{}`: got {err:?}",
            args.join(" ")
        );
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "the message is one line: {err:?}"
        );
    }
    ok(data, &["server", "disable", "dup"]);
    let output = gatehouse(data, &["tools", "dup"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("is disabled"),
        "a disabled server is not started"
    );
    ok(data, &["server", "enable", "dup"]);
    ok(
        data,
        &[
            "server",
            "add",
            "nothing",
            "--command",
            "/nonexistent/server",
        ],
    );
    let output = gatehouse(data, &["tools", "nothing"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("could not start"),
        "got {}",
        stderr(&output)
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let cases: &[&[&str]] = &[
        &["server", "add", "x"],
        &[
            "server",
            "add",
            "x",
            "--command",
            "node",
            "--url",
            "http://a",
        ],
        &[
            "server",
            "add",
            "x",
            "--url",
            "http://a",
            "--transport",
            "websocket",
        ],
        &[
            "server",
            "add",
            "x",
            "--command",
            "node",
            "--env",
            "NOVALUE",
        ],
        &[
            "server", "add", "x", "--url", "http://a", "--header", "no-colon",
        ],
        &["server", "frobnicate"],
        &["tools"],
        &["--bogus"],
    ];
    for args in cases {
        let output = gatehouse(data, args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "`{}` is a usage error: {}",
            args.join(" "),
            stderr(&output)
        );
    }
    let output = gatehouse(
        data,
        &[
            "server",
            "add",
            "x",
            "--url",
            "http://a",
            "--transport",
            "websocket",
        ],
    );
    assert!(
        stderr(&output).contains("unknown transport `websocket`"),
        "got {}",
        stderr(&output)
    );
    assert_eq!(
        ok(data, &["server", "list", "--json"]).trim(),
        "[]",
        "usage errors store nothing"
    );
}

#[test]
fn lists_the_tools_of_server_everything() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let js = everything_js();
    ok(
        data,
        &[
            "server",
            "add",
            "everything",
            "--command",
            "node",
            "--arg",
            &js,
            "--arg",
            "stdio",
        ],
    );
    let table = ok(data, &["tools", "everything"]);
    assert!(
        table.contains("echo") && table.contains("get-sum"),
        "got: {table}"
    );

    let json: Value =
        serde_json::from_str(&ok(data, &["tools", "everything", "--json"])).expect("valid JSON");
    assert_eq!(json["server"], "everything");
    assert_eq!(json["transport"], "stdio");
    assert_eq!(json["protocolVersion"], "2025-11-25");
    assert!(
        json["serverInfo"]["name"]
            .as_str()
            .is_some_and(|n| n.contains("everything"))
    );
    let tools = json["tools"].as_array().expect("tools array");
    let echo = tools
        .iter()
        .find(|t| t["name"] == "echo")
        .expect("echo is listed");
    assert_eq!(echo["inputSchema"]["type"], "object");
    assert!(json["malformed"].as_array().is_some_and(Vec::is_empty));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_and_the_cli_write_the_same_database_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().to_path_buf();
    // The "app": this process holds the database open and writes in a loop.
    let app = Host::open(HostOptions {
        data_dir: Some(data.clone()),
        live_sessions: false,
        ..Default::default()
    })
    .await
    .expect("open");
    // The "CLI": separate processes writing at the same moment.
    let clis: Vec<_> = (0..8)
        .map(|i| {
            let data = data.clone();
            tokio::task::spawn_blocking(move || {
                let name = format!("cli-{i}");
                gatehouse(&data, &["server", "add", &name, "--command", "node"])
            })
        })
        .collect();
    for i in 0..40 {
        let input = ServerInput {
            name: format!("app-{i}"),
            enabled: i % 2 == 0,
            roots: Vec::new(),
            spec: ServerSpec::Stdio {
                command: "node".into(),
                args: vec![],
                env: vec![],
                cwd: None,
            },
        };
        app.registry()
            .add(input)
            .await
            .expect("the app's writes must not fail while the CLI writes");
        app.registry()
            .set_enabled(&format!("app-{i}"), true)
            .await
            .expect("toggle");
    }
    for cli in clis {
        let output = cli.await.expect("join");
        let err = stderr(&output);
        assert!(
            output.status.success(),
            "a CLI write must not fail while the app writes: {err}"
        );
        assert!(!err.contains("locked"), "no `database is locked`: {err}");
    }
    let servers = app.registry().list().await.expect("list");
    assert_eq!(
        servers.len(),
        48,
        "every write from both sides must be kept"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn secret_values_go_to_the_keyring_and_never_to_the_database() {
    use gatehouse_host::secrets::{SecretKey, SecretKind, SecretServiceStore, SecretStore};
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().to_path_buf();
    let token = format!("cli-secret-{}", std::process::id());
    let output = Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("--data-dir")
        .arg(&data)
        .args([
            "server",
            "add",
            "s",
            "--command",
            "node",
            "--secret-env",
            "API_TOKEN",
        ])
        .env("API_TOKEN", &token)
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "a secret from the environment: {}",
        stderr(&output)
    );

    let list: Value =
        serde_json::from_str(&ok(&data, &["server", "list", "--json"])).expect("JSON");
    let env = &list[0]["spec"]["env"][0];
    assert_eq!(env["key"], "API_TOKEN");
    assert_eq!(env["secret"], true);
    assert_eq!(
        env["value"], "",
        "the JSON output never carries a secret value"
    );

    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(&data).expect("data dir").flatten() {
        bytes.extend(std::fs::read(entry.path()).unwrap_or_default());
    }
    assert!(
        !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
        "the secret must not be in the database or its WAL"
    );
    let key = SecretKey {
        server_id: list[0]["id"].as_str().expect("id").to_owned(),
        kind: SecretKind::Env,
        name: "API_TOKEN".into(),
    };
    let store = SecretServiceStore;
    assert_eq!(store.get(&key).await.expect("keyring"), Some(token.clone()));

    ok(&data, &["server", "remove", "s"]);
    assert_eq!(
        store.get(&key).await.expect("keyring"),
        None,
        "remove deletes the secret"
    );

    let unset = Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("--data-dir")
        .arg(&data)
        .args([
            "server",
            "add",
            "t",
            "--command",
            "node",
            "--secret-env",
            "GATEHOUSE_UNSET_VAR",
        ])
        .env_remove("GATEHOUSE_UNSET_VAR")
        .output()
        .expect("runs");
    assert_eq!(
        unset.status.code(),
        Some(2),
        "a secret name without a value is a usage error"
    );
    assert!(
        stderr(&unset).contains("is not set in the environment"),
        "got {}",
        stderr(&unset)
    );
}

/// Starts server-everything in an HTTP mode on a free port; the caller kills and reaps it.
#[allow(clippy::zombie_processes)] // reaped by the caller after the CLI ran against it
fn everything_http(mode: &str) -> (std::process::Child, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let child = Command::new("node")
        .args([everything_js().as_str(), mode])
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("node starts");
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return (child, port);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("server-everything {mode} did not listen within 10 s");
}

#[test]
fn lists_the_tools_of_http_servers_on_both_transports() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    for (mode, path, transport) in [
        ("streamableHttp", "/mcp", "streamable-http"),
        ("sse", "/sse", "sse"),
    ] {
        let (mut child, port) = everything_http(mode);
        let url = format!("http://127.0.0.1:{port}{path}");
        ok(data, &["server", "add", mode, "--url", &url]);
        let listed = gatehouse(data, &["tools", mode, "--json"]);
        let _ = child.kill();
        let _ = child.wait();
        assert!(listed.status.success(), "{mode}: {}", stderr(&listed));
        let json: Value = serde_json::from_str(&stdout(&listed)).expect("valid JSON");
        assert_eq!(
            json["transport"], transport,
            "auto picks the transport the server speaks"
        );
        assert!(
            json["tools"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t["name"] == "echo"))
        );
    }
}
