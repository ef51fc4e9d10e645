//! Roots configured on a server reach it through `roots/list`, and a roots-only edit reaches a
//! running server as `notifications/roots/list_changed` without restarting it. The server is
//! tests/fixtures/scripts/roots_mirror.py, which lists the roots it was given as its tools.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use gatehouse_host::{EngineEvent, Host, ServerInput, ServerSpec, ServerStatus};

fn mirror(roots: Vec<String>) -> ServerInput {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/scripts/roots_mirror.py");
    ServerInput {
        name: "mirror".into(),
        enabled: true,
        roots,
        spec: ServerSpec::Stdio {
            command: "python3".into(),
            args: vec!["-u".into(), script.display().to_string()],
            env: vec![],
            cwd: None,
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
