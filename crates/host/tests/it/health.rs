//! Health checks of live sessions (issue 10, "Health"): a server that stops answering pings
//! while keeping its stdin open is shown degraded, then restarted after three missed checks in
//! a row; a server that answers is left alone. The checks run every 200 ms here (30 s in the
//! app). The fixture, tests/fixtures/faults/health.py, appends its pid to a file each time it
//! starts.

use crate::support;

use std::path::Path;
use std::time::{Duration, Instant};

use gatehouse_host::{
    EngineEvent, HealthChecks, ServerInput, ServerSpec, ServerStatus, Source, ToolCall,
};

const CHECKS: HealthChecks = HealthChecks {
    every: Duration::from_millis(200),
    answer_within: Duration::from_millis(300),
    misses_before_restart: 3,
};

/// A health.py server in `mode` that records its starts in `starts`.
fn server(mode: &str, starts: &Path, pings: u32) -> ServerInput {
    let script = support::fixtures().join("faults/health.py");
    ServerInput {
        name: "s".to_owned(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: "python3".to_owned(),
            args: vec![
                script.display().to_string(),
                mode.to_owned(),
                starts.display().to_string(),
                pings.to_string(),
            ],
            env: vec![],
            cwd: None,
            stop: Default::default(),
        },
    }
}

#[tokio::test]
async fn a_server_that_stops_answering_is_degraded_then_restarted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("starts");
    let host = support::open_checked_host(dir.path(), CHECKS).await;
    let mut events = host.subscribe();
    // It answers two pings, then nothing, with its stdin open.
    host.add_server(server("falls-silent", &file, 2))
        .await
        .expect("add");
    let began = Instant::now();
    let seen = support::statuses_until(&mut events, Duration::from_secs(20), |seen| {
        seen.iter()
            .any(|s| matches!(s, ServerStatus::Restarting { .. }))
    })
    .await;
    let restarting_after = began.elapsed();
    eprintln!("restarting {restarting_after:?} after the server was added");
    let degraded: Vec<u32> = seen
        .iter()
        .filter_map(|s| match s {
            ServerStatus::Degraded { misses, reason } => {
                assert!(
                    reason.contains("ping"),
                    "the reason names the check: {reason}"
                );
                Some(*misses)
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        degraded,
        [1, 2],
        "shown degraded after each of the first two missed checks: {seen:?}"
    );
    let connected_at = seen
        .iter()
        .position(|s| matches!(s, ServerStatus::Connected { .. }))
        .expect("it connected first");
    let degraded_at = seen
        .iter()
        .position(|s| matches!(s, ServerStatus::Degraded { .. }))
        .expect("degraded");
    assert!(connected_at < degraded_at, "{seen:?}");
    let Some(ServerStatus::Restarting {
        message, attempt, ..
    }) = seen.last()
    else {
        panic!("{seen:?}");
    };
    assert_eq!(*attempt, 1);
    assert!(
        message.contains("missed 3 health checks in a row"),
        "the restart says why: {message}"
    );
    let first = support::pids_in(&file)[0];
    assert!(!support::alive(first), "the silent run was stopped");
    // Two answered checks, three missed ones (at most 0.5 s each), then the stop.
    assert!(
        restarting_after < Duration::from_secs(8),
        "restarted after {restarting_after:?}"
    );

    // Started again after its pause, through the restart path.
    support::statuses_until(&mut events, Duration::from_secs(10), |seen| {
        seen.iter()
            .any(|s| matches!(s, ServerStatus::Connected { .. }))
    })
    .await;
    assert_eq!(support::pids_in(&file).len(), 2, "started again once");
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_that_answers_its_checks_stays_connected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("starts");
    let host = support::open_checked_host(dir.path(), CHECKS).await;
    let mut events = host.subscribe();
    host.add_server(server("steady", &file, 0))
        .await
        .expect("add");
    support::statuses_until(&mut events, Duration::from_secs(20), |seen| {
        seen.iter()
            .any(|s| matches!(s, ServerStatus::Connected { .. }))
    })
    .await;
    // Ten checks answered, and an eleventh asked: the ten were taken in.
    let pings = file.with_extension("pings");
    support::wait::until("eleven checks", Duration::from_secs(20), || async {
        let answered = support::pids_in(&pings).len();
        if answered >= 11 {
            Ok(())
        } else {
            Err(answered)
        }
    })
    .await;
    let mut later = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let EngineEvent::ServerStatus { status, .. } = event {
            later.push(status);
        }
    }
    assert!(later.is_empty(), "nothing changes: {later:?}");
    assert!(matches!(
        host.server("s").await.expect("server").status,
        ServerStatus::Connected { .. }
    ));
    assert_eq!(support::pids_in(&file).len(), 1);
    assert_eq!(host.tools("s").await.expect("tools").len(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn checks_missed_during_a_long_call_on_a_one_at_a_time_server_do_not_restart_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("starts");
    let host = support::open_checked_host(dir.path(), CHECKS).await;
    let mut events = host.subscribe();
    // Its calls take 2 s, and it reads nothing meanwhile: ten checks go unanswered.
    host.add_server(server("slow-call", &file, 2))
        .await
        .expect("add");
    support::statuses_until(&mut events, Duration::from_secs(20), |seen| {
        seen.iter()
            .any(|s| matches!(s, ServerStatus::Connected { .. }))
    })
    .await;
    let outcome = host
        .call_tool(
            "s",
            ToolCall {
                tool: "work".to_owned(),
                arguments: Some(serde_json::json!({})),
                source: Source::User,
                caller: None,
            },
            Default::default(),
            std::future::pending(),
        )
        .await;
    assert!(
        matches!(outcome, Ok(gatehouse_host::CallOutcome::Done(_))),
        "the call completes: {outcome:?}"
    );
    let mut later = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let EngineEvent::ServerStatus { status, .. } = event {
            later.push(status);
        }
    }
    assert!(
        !later.iter().any(|s| matches!(
            s,
            ServerStatus::Degraded { .. } | ServerStatus::Restarting { .. }
        )),
        "a busy server is neither degraded nor restarted: {later:?}"
    );
    assert_eq!(support::pids_in(&file).len(), 1, "started once");
    host.shutdown().await;
}
