//! Modern and legacy servers side by side in one host, the era remembered per server, and a
//! server whose remembered era is wrong probed again. The modern one is the dual-era Python SDK
//! server (tests/fixtures/python), the legacy one server-everything.

use std::path::PathBuf;
use std::time::Duration;

use gatehouse_host::connect::open_client;
use gatehouse_host::{Host, HostOptions, ServerInput, ServerSpec, ServerStatus};
use gatehouse_mcp::Era;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn python() -> ServerInput {
    let dir = fixtures().join("python");
    let python = dir.join(".venv/bin/python");
    assert!(
        python.is_file(),
        "the Python fixture venv is missing: run scripts/install-test-deps.sh"
    );
    stdio(
        "python",
        python.display().to_string(),
        vec![dir.join("server.py").display().to_string(), "stdio".into()],
    )
}

fn everything() -> ServerInput {
    let js = fixtures().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        js.is_file(),
        "server-everything is missing: run scripts/install-test-deps.sh"
    );
    stdio(
        "everything",
        "node".into(),
        vec![js.display().to_string(), "stdio".into()],
    )
}

fn stdio(name: &str, command: String, args: Vec<String>) -> ServerInput {
    ServerInput {
        name: name.into(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command,
            args,
            env: vec![],
            cwd: None,
        },
    }
}

async fn connected_version(host: &Host, name: &str) -> String {
    for _ in 0..300 {
        match host.server(name).await.expect("server").status {
            ServerStatus::Connected {
                protocol_version, ..
            } => return protocol_version,
            ServerStatus::Failed { message } => panic!("{name} failed: {message}"),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    panic!("{name} did not connect within 30 s");
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
    host.add_server(everything()).await.expect("add everything");
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
