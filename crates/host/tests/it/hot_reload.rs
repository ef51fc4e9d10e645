//! Hot reload (issue 10, "Hot reload"): a live host follows the changes another process (the
//! CLI, here a second `Host` on the same data directory) makes to its servers without anyone
//! listing them: an edited server is restarted, and only it; a disabled one is stopped
//! gracefully. Overlapping syncs apply a change once, and listing servers starts nothing.
//! Starts are counted by the fixture tests/fixtures/faults/health.py, which appends its pid to
//! a file each time it starts.

use crate::support;

use std::path::Path;
use std::time::{Duration, Instant};

use gatehouse_host::{Host, ServerInput, ServerSpec, ServerStatus, StopGrace};

fn health_py() -> String {
    support::fixtures()
        .join("faults/health.py")
        .display()
        .to_string()
}

/// A health.py server in `mode` that records its starts in `starts`.
fn server(name: &str, mode: &str, starts: &Path, stop: StopGrace) -> ServerInput {
    ServerInput {
        name: name.to_owned(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: "python3".to_owned(),
            args: vec![health_py(), mode.to_owned(), starts.display().to_string()],
            env: vec![],
            cwd: None,
            stop,
        },
    }
}

async fn connected(host: &Host, name: &str) {
    support::status_until(host, name, Duration::from_secs(20), |s| {
        matches!(s, ServerStatus::Connected { .. })
    })
    .await;
}

/// Waits until the file counts `count` starts (at most `within`), and returns them.
async fn started(file: &Path, count: usize, within: Duration) -> Vec<u32> {
    support::wait::within_time(within, || async {
        let pids = support::pids_in(file);
        if pids.len() >= count {
            Ok(pids)
        } else {
            Err(pids)
        }
    })
    .await
    .unwrap_or_else(|pids| pids)
}

#[tokio::test]
async fn overlapping_syncs_restart_an_edited_server_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("starts");
    let app = support::open_host(dir.path(), true).await;
    // A server that takes a second to stop leaves overlapping syncs time to meet.
    let input = server("s", "slow-exit", &file, StopGrace::default());
    app.add_server(input.clone()).await.expect("add");
    connected(&app, "s").await;
    assert_eq!(support::pids_in(&file).len(), 1);

    // The CLI edits it, and three syncs of the app overlap.
    let cli = support::open_host(dir.path(), false).await;
    cli.update_server("s", input).await.expect("edit");
    let (a, b, c) = tokio::join!(
        app.follow_changes(),
        app.follow_changes(),
        app.follow_changes()
    );
    a.and(b).and(c).expect("sync");
    connected(&app, "s").await;
    // A later change, synced after the three and seen to take effect: by then a second
    // restart of `s`, were there one, would have been made (syncs take turns).
    let witness = dir.path().join("witness");
    cli.add_server(server("w", "steady", &witness, StopGrace::default()))
        .await
        .expect("add a witness");
    app.follow_changes().await.expect("sync");
    support::wait::until("the witness starts", Duration::from_secs(10), || async {
        let pids = support::pids_in(&witness);
        if pids.is_empty() { Err(pids) } else { Ok(()) }
    })
    .await;
    connected(&app, "w").await;
    let pids = support::pids_in(&file);
    assert_eq!(
        pids.len(),
        2,
        "the edit restarts the server once, however many syncs overlap: {pids:?}"
    );
    assert!(!support::alive(pids[0]), "the first run is stopped");
    assert!(support::alive(pids[1]), "the second run serves");
    app.shutdown().await;
}

#[tokio::test]
async fn a_server_edited_by_another_process_is_restarted_without_listing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let edited = dir.path().join("edited");
    let other = dir.path().join("other");
    let app = support::open_host(dir.path(), true).await;
    app.start().await.expect("start");
    app.add_server(server("edited", "steady", &edited, StopGrace::default()))
        .await
        .expect("add");
    app.add_server(server("other", "steady", &other, StopGrace::default()))
        .await
        .expect("add");
    connected(&app, "edited").await;
    connected(&app, "other").await;

    let cli = support::open_host(dir.path(), false).await;
    let edit = Instant::now();
    cli.update_server(
        "edited",
        server("edited", "steady", &edited, StopGrace::default()),
    )
    .await
    .expect("edit");
    let pids = started(&edited, 2, Duration::from_secs(5)).await;
    let took = edit.elapsed();
    assert_eq!(
        pids.len(),
        2,
        "the live host restarts the edited server on its own: {pids:?}"
    );
    assert!(
        took < Duration::from_secs(2),
        "within a couple of seconds, took {took:?}"
    );
    connected(&app, "edited").await;
    assert!(!support::alive(pids[0]), "the old run is stopped");
    assert_eq!(
        support::pids_in(&other).len(),
        1,
        "only the edited server is restarted"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn a_server_disabled_by_another_process_is_stopped_gracefully() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("starts");
    let app = support::open_host(dir.path(), true).await;
    app.start().await.expect("start");
    // A long first wait: a stop that is not the graceful one (stdin closed, the server
    // exits) would take more than 5 s.
    let stop = StopGrace {
        stdin_ms: 5000,
        term_ms: 3000,
    };
    app.add_server(server("s", "steady", &file, stop))
        .await
        .expect("add");
    connected(&app, "s").await;
    let pid = support::pids_in(&file)[0];

    let cli = support::open_host(dir.path(), false).await;
    let disabled = Instant::now();
    cli.set_enabled("s", false).await.expect("disable");
    support::status_until(&app, "s", Duration::from_secs(5), |s| {
        *s == ServerStatus::Disabled
    })
    .await;
    // Bounded; the asserts below say what a stop that took too long means.
    let _ = support::wait::within_time(Duration::from_secs(10), || async {
        if support::alive(pid) {
            Err(pid)
        } else {
            Ok(())
        }
    })
    .await;
    let took = disabled.elapsed();
    assert!(!support::alive(pid), "the disabled server is stopped");
    assert!(
        took < Duration::from_secs(3),
        "stopped by closing its stdin, within the poll and the first wait: {took:?}"
    );
    // A later change the app follows on its own, seen to take effect: by then the app's
    // watcher has passed over the disabled server again (it applies changes in turn).
    let witness = dir.path().join("witness");
    cli.add_server(server("w", "steady", &witness, StopGrace::default()))
        .await
        .expect("add a witness");
    support::wait::until("the witness starts", Duration::from_secs(10), || async {
        let pids = support::pids_in(&witness);
        if pids.is_empty() { Err(pids) } else { Ok(()) }
    })
    .await;
    connected(&app, "w").await;
    assert_eq!(
        support::pids_in(&file).len(),
        1,
        "a disabled server is not started"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn listing_servers_starts_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("starts");
    // A live host that has not been started, and a server another process adds.
    let app = support::open_host(dir.path(), true).await;
    let cli = support::open_host(dir.path(), false).await;
    cli.add_server(server("s", "steady", &file, StopGrace::default()))
        .await
        .expect("add");
    let mut events = app.subscribe();
    for _ in 0..3 {
        let views = app.list_servers().await.expect("list");
        assert_eq!(views.len(), 1);
    }
    assert!(
        events.try_recv().is_err(),
        "listing announced a change of status"
    );
    // Starting the host is what starts it. The event that proves the host moved on is its
    // own start: once that copy has connected (and so written its pid), the file holds that
    // one pid and no copy a listing would have started earlier.
    app.start().await.expect("start");
    connected(&app, "s").await;
    assert_eq!(
        support::pids_in(&file).len(),
        1,
        "exactly one start, the host's own: {:?}",
        support::pids_in(&file)
    );
    app.shutdown().await;
}
