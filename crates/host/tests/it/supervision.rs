//! The supervision fault suite (issue 10, "Fault suite"): scenarios 1, 2, 3, 4, 5, 8 and 12,
//! each with a fixture server from tests/fixtures/faults/lifecycle.py. Each asserts from the
//! process table that nothing of the server's process group survives (every process the
//! fixture starts carries a marker on its command line), that nothing hangs (a timeout around
//! every wait), and that the state and error shown are right. Also: a program found only on
//! the login shell's PATH, and one not found at all.
//!
//! Scenario 12 runs the host in a child process (this test binary again, running the ignored
//! [`host_with_twenty_servers`]) and SIGKILLs it.

use crate::support;

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gatehouse_host::{
    AuditFilter, AuditKind, Host, HostError, HostOptions, ServerInput, ServerSpec, ServerStatus,
    Source, StopGrace, ToolCall,
};
use gatehouse_mcp::{CallOptions, Client, ClientOptions, McpError, StdioConfig};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use tokio::sync::broadcast::error::TryRecvError;

/// The data directory of the child host of scenario 12, set by the parent.
const CHILD_DIR: &str = "GATEHOUSE_SUPERVISION_DIR";
/// The marker the child host's servers carry.
const CHILD_MARKER: &str = "GATEHOUSE_SUPERVISION_MARKER";
/// How many servers the child host runs.
const SERVERS: usize = 20;

fn lifecycle_py() -> String {
    support::fixtures()
        .join("faults/lifecycle.py")
        .display()
        .to_string()
}

/// A marker no other run uses.
fn marker(scenario: &str) -> String {
    format!("gh-sup-{scenario}-{}", uuid::Uuid::new_v4().simple())
}

/// A lifecycle.py server in `mode`, marked with `marker`, with the given stop waits.
fn server(name: &str, mode: &str, marker: &str, stop: StopGrace) -> ServerInput {
    ServerInput {
        name: name.to_owned(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: "python3".to_owned(),
            args: vec![lifecycle_py(), mode.to_owned(), marker.to_owned()],
            env: vec![],
            cwd: None,
            stop,
        },
    }
}

fn grace(stdin_ms: u32, term_ms: u32) -> StopGrace {
    StopGrace { stdin_ms, term_ms }
}

/// The live processes (not zombies) whose command line holds `marker`.
fn marked(marker: &str) -> Vec<u32> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            let live = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                !stat
                    .rsplit_once(')')
                    .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
            });
            live && std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmd| cmd.split(|b| *b == 0).any(|arg| arg == marker.as_bytes()))
        })
        .collect()
}

/// Waits until no process holds `marker` (at most `within`); returns the survivors.
async fn gone_within(marker: &str, within: Duration) -> Vec<u32> {
    support::wait::within_time(within, || async {
        let left = marked(marker);
        if left.is_empty() { Ok(left) } else { Err(left) }
    })
    .await
    .unwrap_or_else(|left| left)
}

/// Waits until `count` processes hold `marker` (at most 20 s).
async fn started(marker: &str, count: usize) -> Vec<u32> {
    let step = format!("{count} processes marked {marker} start");
    support::wait::until(&step, Duration::from_secs(20), || async {
        let pids = marked(marker);
        if pids.len() >= count {
            Ok(pids)
        } else {
            Err(pids)
        }
    })
    .await
}

/// SIGKILLs whatever holds `marker`, so a failing test leaves nothing behind.
fn kill_marked(marker: &str) {
    for pid in marked(marker) {
        if let Ok(pid) = i32::try_from(pid) {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

async fn connected(host: &Host, name: &str) {
    let status = support::status_until(host, name, Duration::from_secs(30), |s| {
        !matches!(s, ServerStatus::Connecting)
    })
    .await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "{name} connects: {status:?}"
    );
}

/// Starts `mode` on a live host, waits for `processes` marked processes, stops it by hand and
/// returns how long the stop took and what survived it.
async fn stop_by_hand(mode: &str, processes: usize, stop: StopGrace) -> (Duration, Vec<u32>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let marker = marker(mode);
    host.add_server(server("s", mode, &marker, stop))
        .await
        .expect("add");
    connected(&host, "s").await;
    started(&marker, processes).await;
    let began = Instant::now();
    let view = tokio::time::timeout(Duration::from_secs(30), host.stop_server("s"))
        .await
        .expect("the stop ends")
        .expect("stop");
    let took = began.elapsed();
    assert_eq!(view.status, ServerStatus::Stopped);
    let survivors = marked(&marker);
    kill_marked(&marker);
    host.shutdown().await;
    (took, survivors)
}

#[tokio::test]
async fn scenario_1_a_server_that_exits_on_eof_stops_within_the_first_wait() {
    let (took, survivors) = stop_by_hand("eof-exit", 1, grace(2000, 3000)).await;
    eprintln!("scenario 1: stopped in {took:?}");
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
}

#[tokio::test]
async fn scenario_2_a_server_that_ignores_eof_is_stopped_by_sigterm() {
    let (took, survivors) = stop_by_hand("eof-ignore", 1, grace(1000, 3000)).await;
    eprintln!("scenario 2: stopped in {took:?}");
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(3),
        "SIGTERM after the first wait ends it: took {took:?}"
    );
}

#[tokio::test]
async fn scenario_3_a_group_that_ignores_sigterm_is_gone_within_both_waits_and_a_second() {
    // The server, its child and its grandchild all ignore EOF and SIGTERM.
    let (took, survivors) = stop_by_hand("term-ignore", 3, grace(1000, 1000)).await;
    eprintln!("scenario 3: stopped in {took:?}");
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
}

#[tokio::test]
async fn scenario_3_a_child_left_behind_by_a_server_that_exited_is_stopped_too() {
    // As `npx` may: the server exits on EOF, its child ignores SIGTERM and stays.
    let (took, survivors) = stop_by_hand("leaves-child", 2, grace(1000, 1000)).await;
    eprintln!("scenario 3 (child left behind): stopped in {took:?}");
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
}

#[tokio::test]
async fn stopping_the_host_stops_every_server_in_parallel() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let marker = marker("parallel");
    // Five servers that stay after EOF: each needs its whole first wait and a SIGTERM.
    for n in 0..5 {
        host.add_server(server(
            &format!("s{n}"),
            "eof-ignore",
            &marker,
            grace(1000, 3000),
        ))
        .await
        .expect("add");
    }
    for n in 0..5 {
        connected(&host, &format!("s{n}")).await;
    }
    started(&marker, 5).await;
    let began = Instant::now();
    tokio::time::timeout(Duration::from_secs(20), host.shutdown())
        .await
        .expect("the shutdown ends");
    let took = began.elapsed();
    eprintln!("five servers stopped together in {took:?}");
    let survivors = marked(&marker);
    kill_marked(&marker);
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
    assert!(
        took < Duration::from_secs(3),
        "one first wait, not five: took {took:?}"
    );
}

#[tokio::test]
async fn scenario_4_a_crash_mid_call_fails_the_call_at_once_and_the_server_restarts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let marker = marker("crash-mid-call");
    host.add_server(server("crashy", "crash-mid-call", &marker, grace(500, 500)))
        .await
        .expect("add");
    connected(&host, "crashy").await;
    let first = started(&marker, 1).await;
    let call = ToolCall {
        tool: "work".into(),
        arguments: Some(serde_json::json!({})),
        source: Source::User,
        caller: None,
    };
    let began = Instant::now();
    let outcome = tokio::time::timeout(
        Duration::from_secs(10),
        host.call_tool(
            "crashy",
            call,
            CallOptions::default(),
            std::future::pending(),
        ),
    )
    .await
    .expect("the call ends without waiting for its timeout");
    let took = began.elapsed();
    eprintln!("scenario 4: the call failed after {took:?}");
    let Err(HostError::NotConnected(message)) = outcome else {
        panic!("the call fails as not connected: {outcome:?}");
    };
    assert!(
        message.contains("`crashy`") && message.contains("exited with status 3"),
        "names the server and its exit status: {message}"
    );
    assert!(took < Duration::from_secs(2), "took {took:?}");

    // The failure is on record, with the exit status.
    let rows = host
        .audit()
        .list(&AuditFilter::default())
        .await
        .expect("audit rows");
    let finished = rows
        .iter()
        .find(|r| r.event.kind == AuditKind::CallFinished)
        .expect("the call's outcome row");
    assert_eq!(
        finished.event.error_type.as_deref(),
        Some("connection_closed")
    );
    assert!(
        finished
            .event
            .detail
            .to_string()
            .contains("exited with status 3"),
        "{}",
        finished.event.detail
    );

    // It restarts after a pause of a second, with its last words shown meanwhile.
    let restarting = support::status_until(&host, "crashy", Duration::from_secs(5), |s| {
        matches!(s, ServerStatus::Restarting { .. })
    })
    .await;
    let ServerStatus::Restarting {
        attempt,
        in_ms,
        message,
        last_stderr,
    } = restarting
    else {
        unreachable!()
    };
    assert_eq!((attempt, in_ms), (1, 1000));
    assert!(message.contains("exited with status 3"), "{message}");
    assert!(
        last_stderr.iter().any(|l| l.contains("giving up half-way")),
        "{last_stderr:?}"
    );
    let restarted_at = Instant::now();
    support::status_until(&host, "crashy", Duration::from_secs(10), |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
    assert!(
        restarted_at.elapsed() >= Duration::from_millis(800),
        "it waited for its pause"
    );
    let now = started(&marker, 1).await;
    assert!(
        first.iter().all(|pid| !now.contains(pid)),
        "a new process: {first:?} then {now:?}"
    );
    host.shutdown().await;
    assert_eq!(
        gone_within(&marker, Duration::from_secs(2)).await,
        Vec::<u32>::new()
    );
}

#[tokio::test]
async fn scenario_5_a_crash_loop_ends_in_the_crashed_state_without_a_busy_loop() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let mut events = host.subscribe();
    let marker = marker("crash-loop");
    let began = Instant::now();
    host.add_server(server("loopy", "crash-loop", &marker, grace(500, 500)))
        .await
        .expect("add");
    // Five exits, with pauses of 1, 2, 4 and 8 s between them.
    let crashed = support::status_until(&host, "loopy", Duration::from_secs(60), |s| {
        matches!(s, ServerStatus::Crashed { .. })
    })
    .await;
    let took = began.elapsed();
    eprintln!("scenario 5: crashed after {took:?}");
    let ServerStatus::Crashed {
        message,
        exits,
        last_stderr,
    } = crashed
    else {
        unreachable!()
    };
    assert_eq!(exits, 5);
    assert!(message.contains("exited with status 2"), "{message}");
    assert!(
        last_stderr
            .iter()
            .any(|l| l.contains("crash-loop: cannot go on")),
        "{last_stderr:?}"
    );
    assert!(
        took >= Duration::from_secs(15),
        "the pauses add up to 15 s: {took:?}"
    );
    let mut pauses = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let gatehouse_host::EngineEvent::ServerStatus {
            status: ServerStatus::Restarting { in_ms, .. },
            ..
        } = event
        {
            pauses.push(in_ms);
        }
    }
    assert_eq!(pauses, [1000, 2000, 4000, 8000]);
    // Nothing runs, and nothing starts again.
    assert_eq!(
        gone_within(&marker, Duration::from_secs(2)).await,
        Vec::<u32>::new()
    );
    assert!(matches!(
        host.server("loopy").await.expect("server").status,
        ServerStatus::Crashed { .. }
    ));
    // Started by hand, it runs again. That start is the event that bounds the check for a
    // sixth automatic one: a restart is always announced (`Restarting`) before its pause, so
    // the first change of status after `Crashed` is the hand's own `Connecting`.
    let loopy = host.start_server("loopy").await.expect("start").config.id;
    let next = support::wait::until("loopy's next status", Duration::from_secs(10), || {
        let next = loop {
            match events.try_recv() {
                Ok(gatehouse_host::EngineEvent::ServerStatus { id, status }) if id == loopy => {
                    break Some(status);
                }
                Ok(_) | Err(TryRecvError::Lagged(_)) => continue,
                Err(_) => break None,
            }
        };
        async move { next.ok_or("none yet") }
    })
    .await;
    assert!(
        matches!(next, ServerStatus::Connecting),
        "no restart after the crash loop, only the hand's start: {next:?}"
    );
    // It runs again (processes are counted by their command line, which a launcher's own
    // short-lived subshells may share, so the proof of "no sixth start" is the status above).
    started(&marker, 1).await;
    host.shutdown().await;
    kill_marked(&marker);
}

#[tokio::test]
async fn scenario_8_a_server_that_never_answers_fails_within_a_bounded_wait() {
    let marker = marker("mute");
    let mut config = StdioConfig::new("python3");
    config.args = vec![lifecycle_py(), "mute".into(), marker.clone()];
    config.stop_grace = Duration::from_millis(500);
    config.term_grace = Duration::from_millis(500);
    let options = ClientOptions {
        discover_timeout: Duration::from_secs(1),
        initialize_timeout: Duration::from_secs(2),
        ..ClientOptions::default()
    };
    let handler = Arc::new(gatehouse_host::server_requests::HostHandler::new(
        "mute",
        Arc::default(),
        None,
    ));
    let began = Instant::now();
    let result = tokio::time::timeout(
        Duration::from_secs(15),
        Client::connect_stdio(&config, options, handler),
    )
    .await
    .expect("the handshake gives up");
    let took = began.elapsed();
    eprintln!("scenario 8: gave up after {took:?}");
    let Err(error) = result else {
        panic!("a mute server cannot be connected");
    };
    assert!(
        matches!(&error, McpError::Timeout { method, .. } if method == "initialize"),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .starts_with("`initialize` timed out after 2"),
        "{error}"
    );
    // The probe (1 s), `initialize` (2 s) and the stop (EOF ignored: SIGTERM after 0.5 s).
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert_eq!(
        gone_within(&marker, Duration::from_secs(1)).await,
        Vec::<u32>::new()
    );
}

#[tokio::test]
async fn a_program_found_only_on_the_login_shells_path_starts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shell = support::fixtures().join("faults/login_shell.sh");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().to_path_buf()),
        live_sessions: true,
        login_shell: Some(shell),
        ..Default::default()
    })
    .await
    .expect("open");
    let marker = marker("login-path");
    let mut input = server("login", "eof-exit", &marker, StopGrace::default());
    input.spec = ServerSpec::Stdio {
        command: "only-on-login-path".into(),
        args: vec![marker.clone()],
        env: vec![],
        cwd: None,
        stop: StopGrace::default(),
    };
    host.add_server(input).await.expect("add");
    connected(&host, "login").await;
    let path = host.registry().launcher().login_env().await.path();
    assert!(
        path.is_some_and(|p| p
            .split(':')
            .next()
            .is_some_and(|first| first.ends_with("login-bin"))),
        "the login shell's PATH comes first: {path:?}"
    );
    host.shutdown().await;
    assert_eq!(
        gone_within(&marker, Duration::from_secs(2)).await,
        Vec::<u32>::new()
    );
}

#[tokio::test]
async fn a_program_not_found_says_where_gatehouse_looked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let mut input = server("missing", "eof-exit", "unused", StopGrace::default());
    input.spec = ServerSpec::Stdio {
        command: "only-on-login-path".into(),
        args: vec![],
        env: vec![gatehouse_host::EnvVar {
            key: "PATH".into(),
            value: "/nonexistent/one:/nonexistent/two".into(),
            secret: false,
        }],
        cwd: None,
        stop: StopGrace::default(),
    };
    host.add_server(input).await.expect("add");
    let status = support::status_until(&host, "missing", Duration::from_secs(10), |s| {
        !matches!(s, ServerStatus::Connecting)
    })
    .await;
    let ServerStatus::Failed { message } = status else {
        panic!("not found is a failure, not a restart: {status:?}");
    };
    assert!(
        message.contains(
            "`only-on-login-path` was not found; looked in /nonexistent/one, /nonexistent/two"
        ),
        "{message}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_login_shell_that_does_not_answer_is_given_three_seconds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shell = dir.path().join("slow_shell.sh");
    std::fs::write(&shell, "#!/bin/sh\nsleep 30\n").expect("write");
    std::fs::set_permissions(&shell, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let began = Instant::now();
    let env = tokio::time::timeout(
        Duration::from_secs(10),
        gatehouse_host::login_env::resolve(&shell),
    )
    .await
    .expect("bounded");
    assert!(
        env.vars.is_empty(),
        "falls back to this process's environment"
    );
    assert!(began.elapsed() < Duration::from_secs(4));
}

// Scenario 12: the host killed with SIGKILL while 20 stdio servers run.

/// The child host: 20 `idle` servers (each with a child of its own), then it reports its
/// watchdog's pid and waits to be killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the child process of scenario_12_*"]
async fn host_with_twenty_servers() {
    let (Some(dir), Ok(marker)) = (std::env::var_os(CHILD_DIR), std::env::var(CHILD_MARKER)) else {
        return;
    };
    let host = support::open_host(Path::new(&dir), true).await;
    for n in 0..SERVERS {
        host.add_server(server(
            &format!("idle-{n}"),
            "idle",
            &marker,
            StopGrace::default(),
        ))
        .await
        .expect("add");
    }
    for n in 0..SERVERS {
        connected(&host, &format!("idle-{n}")).await;
    }
    let watchdog = gatehouse_mcp::transport::watchdog::pid().unwrap_or(0);
    println!("ready {watchdog}");
    std::future::pending::<()>().await;
}

/// Runs the child host until its servers are up; returns it and its watchdog's pid.
fn child_host(dir: &Path, marker: &str) -> (std::process::Child, u32) {
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "supervision::host_with_twenty_servers",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD_DIR, dir)
        .env(CHILD_MARKER, marker)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the child host");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(pid) = line.strip_prefix("ready ") {
                let _ = tx.send(pid.trim().parse::<u32>().unwrap_or(0));
            }
        }
    });
    match rx.recv_timeout(Duration::from_secs(90)) {
        Ok(watchdog) => (child, watchdog),
        Err(_) => {
            let _ = child.kill();
            kill_marked(marker);
            panic!("the child host did not start its servers within 90 s");
        }
    }
}

fn sigkill(pid: u32) {
    let pid = i32::try_from(pid).expect("a pid");
    kill(Pid::from_raw(pid), Signal::SIGKILL).expect("SIGKILL");
}

#[tokio::test]
async fn scenario_12_no_server_survives_a_host_killed_with_sigkill() {
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = marker("killed-host");
    let (mut child, _watchdog) = child_host(dir.path(), &marker);
    let before = marked(&marker).len();
    assert_eq!(before, SERVERS * 2, "20 servers with a child each");
    sigkill(child.id());
    let _ = child.wait();
    let began = Instant::now();
    let survivors = gone_within(&marker, Duration::from_secs(5)).await;
    eprintln!(
        "scenario 12: {before} processes; {} survived, the rest gone after {:?}",
        survivors.len(),
        began.elapsed()
    );
    kill_marked(&marker);
    assert!(survivors.is_empty(), "survivors: {survivors:?}");

    // The next start finds nothing left to reap.
    let host = support::open_host(dir.path(), false).await;
    assert!(host.swept().stopped.is_empty(), "{:?}", host.swept());
    host.shutdown().await;
}

#[tokio::test]
async fn scenario_12_the_next_start_reaps_what_a_killed_host_and_watchdog_left() {
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = marker("killed-watchdog");
    let (mut child, watchdog) = child_host(dir.path(), &marker);
    assert!(watchdog > 0, "the child host runs a watchdog");
    // The watchdog first, so that only the parent-death signal and the sweep are left.
    sigkill(watchdog);
    sigkill(child.id());
    let _ = child.wait();
    // The servers die with their parent; their own children are orphans in their groups.
    let orphans = started(&marker, SERVERS).await;
    // The servers are gone once no more than their children are left.
    let orphans_left = support::wait::within_time(Duration::from_secs(5), || async {
        let left = marked(&marker).len();
        if left <= SERVERS { Ok(left) } else { Err(left) }
    })
    .await
    .unwrap_or_else(|left| left);
    eprintln!(
        "scenario 12 (watchdog killed too): {orphans_left} orphans before the next start ({orphans:?})"
    );
    assert_eq!(orphans_left, SERVERS, "each server's child is left");

    let began = Instant::now();
    let host = support::open_host(dir.path(), false).await;
    let swept = host.swept().clone();
    eprintln!(
        "scenario 12: the next start stopped {} groups in {:?}",
        swept.stopped.len(),
        began.elapsed()
    );
    let survivors = gone_within(&marker, Duration::from_secs(2)).await;
    kill_marked(&marker);
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
    assert_eq!(swept.stopped.len(), SERVERS, "{swept:?}");
    assert!(swept.stopped.iter().all(|g| g.processes == 1));
    // And the start after that finds nothing.
    host.shutdown().await;
    let again = support::open_host(dir.path(), false).await;
    assert_eq!(
        again.swept(),
        &gatehouse_host::process_groups::SweepReport::default()
    );
    again.shutdown().await;
}
