//! Roots configured on a server reach it through `roots/list`, and a roots-only edit reaches a
//! running server as `notifications/roots/list_changed` without restarting it. The server is
//! tests/fixtures/scripts/roots_mirror.py, which lists the roots it was given as its tools.
//! A 2026-07-28 server is never sent that notification, which its revision removed
//! (tests/fixtures/scripts/modern_recorder.py reports what it heard).

mod support;

use std::path::PathBuf;
use std::time::Duration;

use gatehouse_host::{EngineEvent, Host, ServerInput, ServerSpec, ServerStatus};

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

/// Waits until the server's tools are exactly the given roots.
async fn tools_become(host: &Host, expected: &[String]) -> Vec<String> {
    let mut names = Vec::new();
    for _ in 0..150 {
        if let Ok(tools) = host.tools("mirror").await {
            names = tools.into_iter().map(|t| t.name).collect();
            if names == expected {
                return names;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    names
}

#[tokio::test]
async fn roots_reach_the_server_and_edits_are_announced_without_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
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

    let first = vec![format!("root file://{}", a.display())];
    assert_eq!(
        tools_become(&host, &first).await,
        first,
        "the server received its configured root"
    );

    let mut events = host.subscribe();
    host.update_server(
        "mirror",
        mirror(vec![a.display().to_string(), b.display().to_string()]),
    )
    .await
    .expect("edit roots");
    let second = vec![
        format!("root file://{}", a.display()),
        format!("root file://{}", b.display()),
    ];
    assert_eq!(
        tools_become(&host, &second).await,
        second,
        "the running server learned the new roots"
    );
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
    let mut latest = after_edit;
    for _ in 0..100 {
        let (listing, heard) = recorder_listing(&host, "notifications/roots/list_changed").await;
        assert!(
            !heard,
            "2026-07-28 removed notifications/roots/list_changed; a modern server is never sent it"
        );
        latest = listing;
        if listing >= after_edit + 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        latest >= after_edit + 2,
        "the tools were fetched again after the edit ({after_edit} → {latest})"
    );
    host.shutdown().await;
}
