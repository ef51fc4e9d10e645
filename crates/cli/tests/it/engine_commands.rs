//! Every command a running engine serves (`info`, `ping`, `resources`, `templates`, `read`,
//! `prompts`, `prompt`, `complete`, `tasks`, `watch`) asked through `gatehouse serve` as a real
//! process: each prints what it prints in-process (`--standalone`, the same server), no second
//! copy of the server is started, the requests that pass the gate are audited as the CLI's,
//! a server added while the engine runs is usable by the very next command, a watch follows
//! the engine's live session, and `logs` reads what the engine's server wrote.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use crate::support::engine::{Reaped, engine_children, serve, wait_connected};
use crate::support::{HttpFixture, ok, ok_json};
use serde_json::Value;

/// The commands compared, with `--json` where they have it.
const ASKED: &[&[&str]] = &[
    &["info", "e", "--json"],
    &["resources", "e", "--json"],
    &["templates", "e", "--json"],
    &["prompts", "e", "--json"],
    // Static: a dynamic resource says when it was made.
    &[
        "read",
        "e",
        "demo://resource/static/document/features.md",
        "--json",
    ],
    &["read", "e", "demo://resource/static/document/features.md"],
    &[
        "prompt",
        "e",
        "args-prompt",
        "--args",
        r#"{"city": "Oslo", "state": "Viken"}"#,
        "--json",
    ],
    &[
        "prompt",
        "e",
        "args-prompt",
        "--args",
        r#"{"city": "Oslo"}"#,
    ],
    &[
        "complete",
        "e",
        "--prompt",
        "completable-prompt",
        "department",
        "S",
        "--json",
    ],
    &[
        "complete",
        "e",
        "--template",
        "demo://resource/dynamic/blob/{resourceId}",
        "resourceId",
        "12",
    ],
    &["tasks", "e", "--json"],
];

fn without_era_reason(json: &str) -> String {
    let mut value: Value = serde_json::from_str(json).expect("info --json");
    let reason = value
        .as_object_mut()
        .and_then(|o| o.remove("eraReason"))
        .expect("an eraReason");
    assert!(reason.is_string(), "{reason}");
    value.to_string()
}

#[test]
fn each_command_the_engine_serves_prints_what_it_prints_in_process_and_is_audited_as_the_cli_s() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let serve = serve(data);
    wait_connected(data);
    let servers = engine_children(&serve);
    assert_eq!(servers.len(), 1, "{servers:?}");

    for args in ASKED {
        let mut alone = args.to_vec();
        alone.push("--standalone");
        let (attached, standalone) = (ok(data, args), ok(data, &alone));
        // Why the era was chosen differs, and rightly: the engine probed the server first, and
        // the standalone connection remembered what it found.
        let (attached, standalone) = if args[0] == "info" {
            (
                without_era_reason(&attached),
                without_era_reason(&standalone),
            )
        } else {
            (attached, standalone)
        };
        assert_eq!(
            attached,
            standalone,
            "`gatehouse {}` prints the same through the engine as in-process",
            args.join(" ")
        );
        assert!(!attached.trim().is_empty(), "{args:?} printed nothing");
    }
    // The engine's server writes its stderr to the log files the command reads.
    crate::support::wait::until(
        "the engine's server's stderr is in its log",
        Duration::from_secs(10),
        || {
            let logs = ok(data, &["logs", "e"]);
            if logs.contains("Starting default (STDIO) server") {
                Ok(())
            } else {
                Err(logs)
            }
        },
    );
    let pong = ok(data, &["ping", "e"]);
    assert!(
        pong.starts_with("e: pong in ") && pong.contains(" ms over stdio"),
        "{pong}"
    );
    assert_eq!(
        engine_children(&serve),
        servers,
        "every attached command used the engine's session, no second copy of the server"
    );

    // The gated requests made through the engine are the CLI's; the standalone ones name no face.
    let audit = ok_json(data, &["audit", "list", "--json", "--limit", "500"]);
    let received: Vec<(String, Value)> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|row| row["kind"] == "request_received")
        .map(|row| {
            (
                row["method"].as_str().unwrap_or_default().to_owned(),
                row["detail"]["caller"].clone(),
            )
        })
        .collect();
    for method in ["resources/read", "prompts/get", "completion/complete"] {
        for caller in [Value::from("cli"), Value::Null] {
            let count = received
                .iter()
                .filter(|(m, c)| m == method && *c == caller)
                .count();
            assert_eq!(
                count, 2,
                "two `{method}` requests with caller {caller}: {received:?}"
            );
        }
    }
}

#[test]
fn a_server_added_while_the_engine_runs_is_served_by_the_next_command() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let serve = serve(data);
    wait_connected(data);
    crate::support::add_everything(data, "added");
    // No wait: the engine starts the new server when the command asks for it.
    let info = ok_json(data, &["info", "added", "--json"]);
    assert_eq!(info["server"], "added");
    assert_eq!(
        engine_children(&serve).len(),
        2,
        "the engine runs the added server; the command started none of its own"
    );
    ok(data, &["server", "disable", "added"]);
    let refused = crate::support::exits(data, &["info", "added"], 1);
    assert!(
        crate::support::stderr(&refused).contains("disabled"),
        "{}",
        crate::support::stderr(&refused)
    );
}

#[test]
fn a_watch_through_the_engine_shows_the_changes_made_through_it() {
    let server = HttpFixture::ts_sdk_v2();
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    ok(data, &["server", "add", "ts", "--url", &server.url("/mcp")]);
    let _serve = serve(data);
    wait_connected(data);
    let watch = crate::support::command(data)
        .args([
            "watch",
            "ts",
            "--resource",
            "memo://note",
            "--count",
            "2",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gatehouse watch starts");
    let mut watch = Reaped(watch);
    let err = watch.0.stderr.take().expect("stderr");
    let first = BufReader::new(err)
        .lines()
        .next()
        .expect("a status line")
        .expect("readable stderr");
    assert!(
        first.starts_with("watching ts") && first.contains("memo://note"),
        "{first}"
    );
    // The changes are made through the engine too: its session is the one watched.
    ok(
        data,
        &["call", "ts", "add_tool", "--args", r#"{"name":"watched"}"#],
    );
    ok(data, &["call", "ts", "touch_note"]);
    let status = crate::support::wait::until(
        "the watch ends after two notifications",
        Duration::from_secs(20),
        || watch.0.try_wait().expect("wait").ok_or("running"),
    );
    assert!(status.success(), "{status}");
    let out = watch.0.stdout.take().expect("stdout");
    let notices: Vec<Value> = BufReader::new(out)
        .lines()
        .map_while(Result::ok)
        .map(|l| serde_json::from_str(&l).expect("one JSON object per line"))
        .collect();
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert_eq!(notices[0]["method"], "notifications/tools/list_changed");
    assert_eq!(notices[1]["method"], "notifications/resources/updated");
    assert_eq!(notices[1]["params"]["uri"], "memo://note");
}
