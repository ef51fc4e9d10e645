//! `gatehouse watch`: change notifications printed as they come, from a modern server through
//! `subscriptions/listen` (the TypeScript SDK v2 fixture over HTTP, changed by another
//! `gatehouse` process), and pushed unasked by a legacy server (server-everything over stdio).
//! A server that sends faster than the terminal reads costs a bounded queue: the excess is
//! dropped and counted.

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::support::{HttpFixture, add_everything, command, ok, stderr};
use serde_json::Value;

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

/// Sends the watcher SIGINT, as Ctrl-C does, and waits for it to exit.
fn interrupt(watch: &mut Child) -> std::process::ExitStatus {
    let kill = std::process::Command::new("kill")
        .args(["-INT", &watch.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let exited = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        support::wait::until("watch exits on Ctrl-C", Duration::from_secs(30), || {
            watch.try_wait().expect("try_wait").ok_or("running")
        })
    }));
    exited.unwrap_or_else(|panic| {
        let _ = watch.kill();
        std::panic::resume_unwind(panic)
    })
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
    let exited = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        support::wait::until("watch finishes after --count", limit, || {
            child.try_wait().expect("try_wait").ok_or("running")
        })
    }));
    let status = exited.unwrap_or_else(|panic| {
        let _ = child.kill();
        std::panic::resume_unwind(panic)
    });
    assert!(status.success(), "watch exits 0 after --count: {status}");
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
    let status = interrupt(&mut watch);
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

/// A legacy server that, once connected, sends 20,000 `resources/updated` notifications of
/// 10 kB each (200 MB), writes `flooded` into the file named by $FLOOD_MARK, and then answers
/// pings until its input closes.
const NOTICE_FLOOD: &str = r#"
import os
handshake({"resources": {"subscribe": True}}, name="notice-flood")
pad = "x" * 10000
for i in range(20000):
    send({"jsonrpc": "2.0", "method": "notifications/resources/updated",
          "params": {"uri": "memo://%s/%d" % (pad, i)}})
with open(os.environ["FLOOD_MARK"], "w") as mark:
    mark.write("flooded")
# A ping after the flood: the client answers it once it has read everything before it.
send({"jsonrpc": "2.0", "id": "after-flood", "method": "ping"})
for line in sys.stdin:
    message = json.loads(line)
    if message.get("id") == "after-flood" and "method" not in message:
        with open(os.environ["FLOOD_MARK"] + ".read", "w") as mark:
            mark.write("read")
    elif "id" in message and "method" in message:
        reply(message, {})
"#;

/// The peak resident memory of a process, in kB (`VmHWM`).
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

#[test]
fn notifications_faster_than_the_terminal_reads_are_dropped_and_counted_not_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let mark = dir.path().join("flood-mark");
    support::add_scripted(data, "flood", NOTICE_FLOOD);
    // Nobody reads the watcher's stdout while the server floods: the pipe fills, the watcher
    // waits on it, and the notifications pile up in its queue.
    let mut watch = command(data)
        .args(["watch", "flood", "--json"])
        .env("FLOOD_MARK", &mark)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gatehouse watch starts");
    // 200 MB through a debug build while the rest of the suite runs beside it: usually 15 s,
    // over 60 s on a loaded machine; the bound only ends a run that would never finish.
    support::wait::until(
        "the server floods within three minutes",
        Duration::from_secs(180),
        || {
            if mark.exists() {
                Ok(())
            } else {
                Err("no mark yet")
            }
        },
    );
    // The watcher has taken in everything the server sent once it answers the ping sent last.
    let read = mark.with_extension("read");
    support::wait::until(
        "the watcher answers the ping sent after the flood",
        Duration::from_secs(30),
        || {
            if read.exists() {
                Ok(())
            } else {
                Err("no answer yet")
            }
        },
    );
    let peak = peak_kb(watch.id());
    eprintln!("watcher's peak memory while 200 MB of notifications came: {peak} kB");
    assert!(
        peak < 120 * 1024,
        "the queue is bounded: peak {peak} kB for 200 MB of notifications"
    );

    let out = watch.stdout.take().expect("stdout");
    let read_so_far = Arc::new(AtomicUsize::new(0));
    let reader = {
        let read_so_far = read_so_far.clone();
        std::thread::spawn(move || {
            for _ in BufReader::new(out).lines().map_while(Result::ok) {
                read_so_far.fetch_add(1, Ordering::Relaxed);
            }
            read_so_far.load(Ordering::Relaxed)
        })
    };
    // Interrupted once the queue's lower bound has been shown (the range below says how many).
    support::wait::until(
        "the watcher shows what its queue holds",
        Duration::from_secs(30),
        || match read_so_far.load(Ordering::Relaxed) {
            shown if shown >= 1024 => Ok(()),
            shown => Err(shown),
        },
    );
    let status = interrupt(&mut watch);
    let shown = reader.join().expect("reader");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut watch.stderr.take().expect("stderr"), &mut err)
        .expect("stderr");
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(
        (1024..20_000).contains(&shown),
        "the queue's notifications are shown, not all 20,000: {shown}"
    );
    assert!(
        err.contains("were dropped"),
        "the person is told some were dropped: {err}"
    );
}
