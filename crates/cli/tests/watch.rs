//! `gatehouse watch`: change notifications printed as they come, from a modern server through
//! `subscriptions/listen` (the TypeScript SDK v2 fixture over HTTP, changed by another
//! `gatehouse` process), and pushed unasked by a legacy server (server-everything over stdio).

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{HttpFixture, add_everything, command, ok, stderr};

/// Starts `gatehouse watch …` with piped output.
fn spawn_watch(data: &std::path::Path, args: &[&str]) -> Child {
    command(data)
        .arg("watch")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gatehouse watch starts")
}

/// Waits for the watcher to say it is watching (its first stderr line), and returns it.
fn wait_until_watching(child: &mut Child) -> String {
    let err = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(err).lines();
    let line = lines
        .next()
        .expect("a status line")
        .expect("readable stderr");
    assert!(line.starts_with("watching "), "{line}");
    line
}

/// The child's stdout lines once it has exited on its own (at most `limit`).
fn lines_at_exit(mut child: Child, limit: Duration) -> Vec<String> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            assert!(status.success(), "watch exits 0 after --count: {status}");
            break;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("watch did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.stdout.take().expect("stdout");
    BufReader::new(out).lines().map_while(Result::ok).collect()
}

#[test]
fn a_modern_server_s_changes_arrive_through_a_subscription() {
    let server = HttpFixture::ts_sdk_v2();
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    ok(data, &["server", "add", "ts", "--url", &server.url("/mcp")]);
    let mut watch = spawn_watch(
        data,
        &["ts", "--resource", "memo://note", "--count", "2", "--json"],
    );
    let status = wait_until_watching(&mut watch);
    assert!(
        status.contains("tool list") && status.contains("memo://note"),
        "what the server agreed to: {status}"
    );

    ok(
        data,
        &["call", "ts", "add_tool", "--args", r#"{"name":"watched"}"#],
    );
    ok(data, &["call", "ts", "touch_note"]);
    let lines = lines_at_exit(watch, Duration::from_secs(20));
    let notices: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(notices.len(), 2, "{lines:?}");
    assert_eq!(notices[0]["method"], "notifications/tools/list_changed");
    assert_eq!(notices[1]["method"], "notifications/resources/updated");
    assert_eq!(notices[1]["params"]["uri"], "memo://note");
}

#[test]
fn a_legacy_server_s_pushed_notifications_are_shown_and_ctrl_c_stops_watching() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    add_everything(data, "ev");
    // server-everything announces tool-list changes of its own when it starts; a legacy server
    // pushes them unasked.
    let mut watch = spawn_watch(data, &["ev"]);
    wait_until_watching(&mut watch);
    let mut out = BufReader::new(watch.stdout.take().expect("stdout")).lines();
    let first = out.next().expect("a notification").expect("readable");
    assert_eq!(first, "tools/list_changed");
    let kill = std::process::Command::new("kill")
        .args(["-INT", &watch.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let status = watch.wait().expect("watch exits");
    assert_eq!(status.code(), Some(0), "Ctrl-C ends a watch normally");
}

#[test]
fn watching_a_resource_of_a_server_without_subscriptions_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    support::add_tools_only(data, "plain");
    let output = command(data)
        .args(["watch", "plain", "--resource", "file:///tmp/x"])
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("does not support"),
        "{}",
        stderr(&output)
    );
}
