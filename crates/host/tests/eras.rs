//! Modern and legacy servers side by side in one host, the era remembered per server, and a
//! server whose remembered era is wrong probed again. The modern one is the dual-era Python SDK
//! server (tests/fixtures/python), the legacy one server-everything.

mod support;

use gatehouse_host::connect::open_client;
use gatehouse_host::{Host, HostOptions, ServerInput, ServerSpec, ServerStatus};
use gatehouse_mcp::Era;
use support::{everything as everything_named, fixtures, settled, stdio};

fn python() -> ServerInput {
    let dir = fixtures().join("python");
    let python = dir.join(".venv/bin/python");
    assert!(
        python.is_file(),
        "the Python fixture venv is missing: run scripts/install-test-deps.sh"
    );
    stdio(
        "python",
        &python.display().to_string(),
        vec![dir.join("server.py").display().to_string(), "stdio".into()],
    )
}

async fn connected_version(host: &Host, name: &str) -> String {
    match settled(host, name).await {
        ServerStatus::Connected {
            protocol_version, ..
        } => protocol_version,
        other => panic!("{name} must connect, got {other:?}"),
    }
}

#[tokio::test]
async fn modern_and_legacy_servers_work_side_by_side_and_their_eras_are_remembered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().into()),
        live_sessions: true,
        ..Default::default()
    })
    .await
    .expect("open");
    host.add_server(python()).await.expect("add python");
    host.add_server(everything_named("everything"))
        .await
        .expect("add everything");
    assert_eq!(
        connected_version(&host, "python").await,
        "2026-07-28",
        "the dual-era server is spoken to as modern"
    );
    assert_eq!(
        connected_version(&host, "everything").await,
        "2025-11-25",
        "the legacy server still works beside it"
    );

    let python = host.registry().get("python").await.expect("python");
    let everything = host.registry().get("everything").await.expect("everything");
    assert_eq!(
        host.registry().cached_era(&python).await,
        Some(Era::Modern),
        "the finding is remembered"
    );
    assert_eq!(
        host.registry().cached_era(&everything).await,
        Some(Era::Legacy)
    );

    // A remembered era that no longer holds: the server is probed again and the record fixed.
    host.registry()
        .remember_era(&everything, Era::Modern)
        .await
        .expect("write");
    let client = open_client(&everything, host.registry())
        .await
        .expect("re-probed connection");
    assert_eq!(client.era(), Era::Legacy);
    client.close().await.expect("close");
    assert_eq!(
        host.registry().cached_era(&everything).await,
        Some(Era::Legacy),
        "the record is corrected"
    );

    // An edited configuration is probed afresh.
    let mut edited = everything.clone();
    if let ServerSpec::Stdio { args, .. } = &mut edited.spec {
        args.push("--extra".into());
    }
    assert_eq!(
        host.registry().cached_era(&edited).await,
        None,
        "a finding holds only for its configuration"
    );
    host.shutdown().await;
}
