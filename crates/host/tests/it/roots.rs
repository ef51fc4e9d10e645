//! Roots configured on a server reach it through `roots/list`, and a roots-only edit reaches a
//! running server as `notifications/roots/list_changed` without restarting it. The server is
//! tests/fixtures/scripts/roots_mirror.py, which lists the roots it was given as its tools (and
//! can log every message it receives). A 2026-07-28 server is never sent that notification,
//! which its revision removed (tests/fixtures/scripts/modern_recorder.py reports what it heard).
//!
//! Roots are checked before they are given (2025-11-25 client/roots, "Security
//! Considerations"): one with `..` is refused when it is configured, one that does not exist is
//! withheld, and while a legacy server runs its roots are watched: one that appears, disappears
//! or is replaced by a link elsewhere changes what the server is given, and it is told.

use crate::support;

use std::path::PathBuf;
use std::time::Duration;

use gatehouse_host::{EngineEvent, Host, HostError, ServerInput, ServerSpec, ServerStatus};

fn mirror(roots: Vec<String>) -> ServerInput {
    script_server("mirror", "roots_mirror.py", roots)
}

/// A python3 script from tests/fixtures/scripts as the server `name`, with `roots`.
fn script_server(name: &str, script: &str, roots: Vec<String>) -> ServerInput {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/scripts")
        .join(script);
    ServerInput {
        name: name.into(),
        enabled: true,
        roots,
        spec: ServerSpec::Stdio {
            command: "python3".into(),
            args: vec!["-u".into(), script.display().to_string()],
            env: vec![],
            cwd: None,
            stop: Default::default(),
        },
    }
}

/// The tool names of the server `name`.
async fn tool_names(host: &Host, name: &str) -> Vec<String> {
    host.tools(name)
        .await
        .map(|tools| tools.into_iter().map(|t| t.name).collect())
        .unwrap_or_default()
}

/// Waits on the host's events, at most 20 s, until the mirror's tools are exactly `expected`
/// (a tool per root it was given); names `step` if they are not.
async fn tools_become(host: &Host, expected: &[String], step: &str) {
    let mut events = host.subscribe();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let names = tool_names(host, "mirror").await;
        if names == expected {
            return;
        }
        match tokio::time::timeout_at(deadline, events.recv()).await {
            Ok(Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {}
            Ok(Err(closed)) => panic!("{step}: the host's events ended ({closed})"),
            Err(_) => panic!("{step}: the mirror's tools stayed {names:?}, not {expected:?}"),
        }
    }
}

/// The mirror's tool for the directory `path`.
fn root_tool(path: &std::path::Path) -> String {
    format!("root file://{}", path.display())
}

#[tokio::test]
async fn roots_reach_the_server_and_edits_are_announced_without_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir(&a).expect("a");
    std::fs::create_dir(&b).expect("b");
    let host = support::open_host(&dir.path().join("data"), true).await;
    let added = host
        .add_server(mirror(vec![a.display().to_string()]))
        .await
        .expect("add");
    assert_eq!(
        added.config.roots,
        vec![format!("file://{}", a.display())],
        "roots are stored as file URIs"
    );

    tools_become(
        &host,
        &[root_tool(&a)],
        "the server received its configured root",
    )
    .await;

    let mut events = host.subscribe();
    host.update_server(
        "mirror",
        mirror(vec![a.display().to_string(), b.display().to_string()]),
    )
    .await
    .expect("edit roots");
    tools_become(
        &host,
        &[root_tool(&a), root_tool(&b)],
        "the running server learned the new roots",
    )
    .await;
    while let Ok(EngineEvent::ServerStatus { status, .. }) = events.try_recv() {
        assert!(
            !matches!(status, ServerStatus::Connecting | ServerStatus::Disabled),
            "a roots edit must not restart the server, got {status:?}"
        );
    }
    host.shutdown().await;
}

/// The number in the recorder's `listing <n>` tool, and whether it heard `method`.
async fn recorder_listing(host: &Host, method: &str) -> (u32, bool) {
    let names: Vec<String> = host
        .tools("recorder")
        .await
        .expect("tools")
        .into_iter()
        .map(|t| t.name)
        .collect();
    let listing = names
        .iter()
        .find_map(|n| n.strip_prefix("listing ")?.parse().ok())
        .unwrap_or(0);
    (listing, names.contains(&format!("heard {method}")))
}

#[tokio::test]
async fn a_modern_server_is_not_told_about_new_roots() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir(&a).expect("a");
    std::fs::create_dir(&b).expect("b");
    let host = support::open_host(&dir.path().join("data"), true).await;
    let recorder = |roots: Vec<String>| script_server("recorder", "modern_recorder.py", roots);
    host.add_server(recorder(vec![a.display().to_string()]))
        .await
        .expect("add");
    let status = support::settled(&host, "recorder").await;
    assert!(
        matches!(&status, ServerStatus::Connected { era, .. } if era == "modern"),
        "{status:?}"
    );

    host.update_server(
        "recorder",
        recorder(vec![a.display().to_string(), b.display().to_string()]),
    )
    .await
    .expect("edit roots");
    // Every look at the tools fetches them again (ttlMs 1), behind the roots change in the
    // session's queue; two listings later the change has surely been handled.
    let (after_edit, _) = recorder_listing(&host, "").await;
    let latest = support::wait::until(
        "the tools are fetched again after the edit",
        Duration::from_secs(5),
        || async {
            let (listing, heard) =
                recorder_listing(&host, "notifications/roots/list_changed").await;
            assert!(
                !heard,
                "2026-07-28 removed notifications/roots/list_changed; a modern server is never sent it"
            );
            if listing >= after_edit + 2 { Ok(listing) } else { Err(listing) }
        },
    )
    .await;
    assert!(
        latest >= after_edit + 2,
        "the tools were fetched again after the edit ({after_edit} → {latest})"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_root_with_dot_dot_is_refused_when_configured() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(&dir.path().join("data"), false).await;
    let base = dir.path().display().to_string();
    for climbing in [
        format!("{base}/a/../b"),
        format!("file://{base}/a/%2e%2e/b"),
    ] {
        match host.add_server(mirror(vec![climbing.clone()])).await {
            Err(HostError::Validation(message)) => {
                assert!(
                    message.contains("must not contain `..`"),
                    "{climbing}: {message}"
                );
            }
            other => panic!("{climbing}: a root with `..` must be refused, got {other:?}"),
        }
    }
    assert!(
        host.list_servers().await.expect("servers").is_empty(),
        "nothing was added"
    );
}

/// The messages the mirror logged, oldest first.
fn logged(file: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(file)
        .expect("the mirror logs what it receives")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[tokio::test]
async fn roots_are_withheld_while_missing_and_watched_while_a_legacy_server_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    let (a, b, later, elsewhere) = (
        base.join("a"),
        base.join("b"),
        base.join("later"),
        base.join("elsewhere"),
    );
    for made in [&a, &b, &elsewhere] {
        std::fs::create_dir(made).expect("dir");
    }
    let log = base.join("mirror.log");
    let host = support::open_host(&base.join("data"), true).await;
    let mut input = mirror(
        [&a, &b, &later]
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
    );
    if let ServerSpec::Stdio { args, .. } = &mut input.spec {
        args.push(log.display().to_string());
    }
    host.add_server(input).await.expect("add");
    tools_become(
        &host,
        &[root_tool(&a), root_tool(&b)],
        "a root that does not exist is withheld",
    )
    .await;
    let told = |log: &[serde_json::Value]| {
        log.iter()
            .filter(|m| m["method"] == "notifications/roots/list_changed")
            .count()
    };
    assert_eq!(told(&logged(&log)), 0);

    std::fs::create_dir(&later).expect("later");
    tools_become(
        &host,
        &[root_tool(&a), root_tool(&b), root_tool(&later)],
        "a root that appears is given",
    )
    .await;

    std::fs::remove_dir(&b).expect("remove b");
    tools_become(
        &host,
        &[root_tool(&a), root_tool(&later)],
        "a root that disappears is withdrawn",
    )
    .await;
    let seen = logged(&log);
    assert_eq!(told(&seen), 2, "the server was told each time: {seen:#?}");
    let last_answer = seen
        .iter()
        .rev()
        .find(|m| m.get("result").is_some_and(|r| r.get("roots").is_some()))
        .expect("the server asked for the roots again");
    let uris: Vec<&str> = last_answer["result"]["roots"]
        .as_array()
        .expect("roots")
        .iter()
        .filter_map(|r| r["uri"].as_str())
        .collect();
    let uri = |p: &std::path::Path| format!("file://{}", p.display());
    assert_eq!(uris, [uri(&a), uri(&later)], "its next roots/list lacks b");

    std::os::unix::fs::symlink(&elsewhere, &b).expect("b is now a link");
    tools_become(
        &host,
        &[root_tool(&a), root_tool(&elsewhere), root_tool(&later)],
        "a root replaced by a link is given as where it leads",
    )
    .await;
    host.shutdown().await;
}
