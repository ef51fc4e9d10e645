//! The `gatehouse` binary, run as a user would: every command, the exit statuses (0 success,
//! 1 operational error, 2 usage error) and the JSON output. Concurrent use of one database and
//! secret values are in storage.rs.

use crate::support;

use crate::support::{HttpFixture, data_with_everything, gatehouse, ok, ok_json, stderr, stdout};
use serde_json::Value;

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
            "--stop-grace",
            "0.5",
            "--term-grace",
            "10",
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

    let list = ok_json(data, &["server", "list", "--json"]);
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
    assert_eq!(
        local["spec"]["stop"],
        serde_json::json!({"stdinMs": 500, "termMs": 10000}),
        "--stop-grace and --term-grace are kept in milliseconds"
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
    let websocket: &[&str] = &[
        "server",
        "add",
        "x",
        "--url",
        "http://a",
        "--transport",
        "websocket",
    ];
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
        websocket,
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
        &[
            "server",
            "add",
            "x",
            "--command",
            "node",
            "--stop-grace",
            "soon",
        ],
        &[
            "server",
            "add",
            "x",
            "--url",
            "http://a",
            "--term-grace",
            "1",
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
    let output = gatehouse(data, websocket);
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
    let dir = data_with_everything("everything");
    let data = dir.path();
    let table = ok(data, &["tools", "everything"]);
    assert!(
        table.contains("echo") && table.contains("get-sum"),
        "got: {table}"
    );

    let json = ok_json(data, &["tools", "everything", "--json"]);
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

#[test]
fn lists_the_tools_of_http_servers_on_both_transports() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    for (mode, path, transport) in [
        ("streamableHttp", "/mcp", "streamable-http"),
        ("sse", "/sse", "sse"),
    ] {
        let server = HttpFixture::start(mode);
        ok(data, &["server", "add", mode, "--url", &server.url(path)]);
        let listed = gatehouse(data, &["tools", mode, "--json"]);
        drop(server);
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

#[test]
fn lists_an_mcp_apps_tools_with_their_app_and_visibility() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let entry = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/fixtures/node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js",
    );
    assert!(
        entry.is_file(),
        "server-system-monitor is missing: run scripts/install-test-deps.sh"
    );
    support::add_stdio(
        data,
        "monitor",
        "node",
        &[&entry.display().to_string(), "--stdio"],
    );
    let table = ok(data, &["tools", "monitor"]);
    let line = |tool: &str| {
        table
            .lines()
            .find(|l| l.starts_with(tool))
            .unwrap_or_else(|| panic!("no {tool} in {table}"))
            .to_owned()
    };
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("TOOL") && l.contains("APP")),
        "{table}"
    );
    assert!(
        line("get-system-info").ends_with("ui://system-monitor/mcp-app.html"),
        "{table}"
    );
    assert!(line("poll-system-stats").ends_with("app only"), "{table}");

    let json = ok_json(data, &["tools", "monitor", "--json"]);
    let poll = json["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == "poll-system-stats"))
        .expect("poll-system-stats");
    assert_eq!(poll["ui"]["visibility"], serde_json::json!(["app"]));
}
