//! HTTP reconnect (issue 10, "HTTP servers", fault scenarios 9 and 10): a live session whose
//! HTTP server fails for a while (every request cut mid-stream, or answered 503) is found out
//! by its health checks, shown `reconnecting` with pauses that double from 1 s, and connected
//! again once the server recovers; it never ends `failed`. The fixture,
//! tests/fixtures/faults/http_flaky.py, fails while its flag file says so. Health checks run
//! every 200 ms here. A server that answers 401 is shown `authRequired` and left alone until
//! started again, whether it asks when connecting or after its token stopped working.

use crate::support;

use std::path::Path;
use std::time::{Duration, Instant};

use gatehouse_host::{HealthChecks, ServerInput, ServerStatus, ServerTransport};
use tokio::io::AsyncBufReadExt;

const CHECKS: HealthChecks = HealthChecks {
    every: Duration::from_millis(200),
    answer_within: Duration::from_millis(500),
    misses_before_restart: 3,
};

/// The fixture, failing as `flag` says; killed when the child is dropped. Returns the child
/// and the endpoint URL.
async fn flaky_server(flag: &Path) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new("python3")
        .arg(support::fixtures().join("faults/http_flaky.py"))
        .arg(flag)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let port = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .expect("the fixture says its port")
        .expect("read")
        .expect("a line");
    (child, format!("http://127.0.0.1:{}/mcp", port.trim()))
}

fn http(url: &str) -> ServerInput {
    support::http_over("s", url, ServerTransport::StreamableHttp)
}

/// The fixture (failing as `flag` says), and a host in `dir` connected to it.
async fn connected_to_fixture(
    dir: &Path,
    flag: &Path,
) -> (
    tokio::process::Child,
    gatehouse_host::Host,
    tokio::sync::broadcast::Receiver<gatehouse_host::EngineEvent>,
) {
    let (server, url) = flaky_server(flag).await;
    let host = support::open_checked_host(dir, CHECKS).await;
    let mut events = host.subscribe();
    host.add_server(http(&url)).await.expect("add");
    support::statuses_until(&mut events, Duration::from_secs(20), |seen| {
        seen.last()
            .is_some_and(|s| matches!(s, ServerStatus::Connected { .. }))
    })
    .await;
    (server, host, events)
}

/// Connects to the fixture, makes it fail as `fault` says until the session has tried to
/// reconnect twice, then lets it recover; checks what the session showed meanwhile.
async fn fails_then_recovers(fault: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let flag = dir.path().join("flag");
    let (_server, host, mut events) = connected_to_fixture(dir.path(), &flag).await;

    std::fs::write(&flag, fault).expect("flag");
    let failing = Instant::now();
    let seen = support::statuses_until(&mut events, Duration::from_secs(20), |seen| {
        seen.last()
            .is_some_and(|s| matches!(s, ServerStatus::Reconnecting { attempt: 2, .. }))
    })
    .await;
    let lost_after = failing.elapsed();
    assert!(
        seen.iter()
            .any(|s| matches!(s, ServerStatus::Degraded { .. })),
        "the missed checks show it degraded first: {seen:?}"
    );
    let pauses: Vec<u64> = seen
        .iter()
        .filter_map(|s| match s {
            ServerStatus::Reconnecting { in_ms, .. } => Some(*in_ms),
            _ => None,
        })
        .collect();
    assert_eq!(pauses, [1000, 2000], "the pause doubles: {seen:?}");
    assert!(
        !seen
            .iter()
            .any(|s| matches!(s, ServerStatus::Failed { .. })),
        "a lost HTTP server is not failed: {seen:?}"
    );

    std::fs::remove_file(&flag).expect("recover");
    let recovering = Instant::now();
    let seen = support::statuses_until(&mut events, Duration::from_secs(20), |seen| {
        seen.last()
            .is_some_and(|s| matches!(s, ServerStatus::Connected { .. }))
    })
    .await;
    eprintln!(
        "{fault}: reconnecting (attempt 2) {lost_after:?} after the fault began; \
         connected {:?} after it ended",
        recovering.elapsed()
    );
    assert!(
        !seen
            .iter()
            .any(|s| matches!(s, ServerStatus::Failed { .. })),
        "{seen:?}"
    );
    assert_eq!(host.tools("s").await.expect("tools").len(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn scenario_9_connections_cut_mid_stream_then_back_reconnects() {
    fails_then_recovers("cut").await;
}

#[tokio::test]
async fn scenario_10_a_server_answering_503_for_a_while_is_reconnected_with_backoff() {
    fails_then_recovers("5xx").await;
}

/// Waits until the session settles on `authRequired`, and checks it is not tried again.
async fn settles_on_auth_required(
    events: &mut tokio::sync::broadcast::Receiver<gatehouse_host::EngineEvent>,
) -> Vec<ServerStatus> {
    let seen = support::statuses_until(events, Duration::from_secs(20), |seen| {
        seen.last()
            .is_some_and(|s| matches!(s, ServerStatus::AuthRequired { .. }))
    })
    .await;
    let Some(ServerStatus::AuthRequired { message }) = seen.last() else {
        unreachable!("statuses_until returned on authRequired");
    };
    assert!(
        message.contains("401"),
        "the message names the status: {message}"
    );
    assert!(
        !seen
            .iter()
            .any(|s| matches!(s, ServerStatus::Failed { .. })),
        "{seen:?}"
    );
    // Left alone: no reconnecting after it (the 1 s backoff would show within 2.5 s).
    let later = tokio::time::timeout(Duration::from_millis(2500), async {
        loop {
            match events.recv().await {
                Ok(gatehouse_host::EngineEvent::ServerStatus { status, .. }) => return status,
                Ok(_) => {}
                Err(e) => panic!("events: {e}"),
            }
        }
    })
    .await;
    assert!(
        later.is_err(),
        "nothing is tried after authRequired: {later:?}"
    );
    seen
}

#[tokio::test]
async fn a_server_answering_401_is_shown_auth_required_and_not_retried() {
    let dir = tempfile::tempdir().expect("temp dir");
    let flag = dir.path().join("flag");
    std::fs::write(&flag, "401").expect("flag");
    let (_server, url) = flaky_server(&flag).await;
    let host = support::open_checked_host(dir.path(), CHECKS).await;
    let mut events = host.subscribe();
    host.add_server(http(&url)).await.expect("add");
    settles_on_auth_required(&mut events).await;
    let err = host
        .tools("s")
        .await
        .expect_err("no tools without authorization");
    assert!(err.to_string().contains("requires authorization"), "{err}");

    // Once the server lets it in, starting it again connects.
    std::fs::remove_file(&flag).expect("authorized");
    host.restart_server("s").await.expect("restart");
    support::statuses_until(&mut events, Duration::from_secs(20), |seen| {
        seen.last()
            .is_some_and(|s| matches!(s, ServerStatus::Connected { .. }))
    })
    .await;
    host.shutdown().await;
}

#[tokio::test]
async fn a_connected_server_that_starts_answering_401_ends_auth_required() {
    let dir = tempfile::tempdir().expect("temp dir");
    let flag = dir.path().join("flag");
    let (_server, host, mut events) = connected_to_fixture(dir.path(), &flag).await;
    // The token stopped working: the health checks meet 401s, the reconnect is refused.
    std::fs::write(&flag, "401").expect("flag");
    settles_on_auth_required(&mut events).await;
    host.shutdown().await;
}
