//! The server registry on a real SQLite file: migration from empty, CRUD, validation errors,
//! persistence across reopen, and WAL mode.

use crate::support;

use gatehouse_host::{
    EnvVar, Host, HostError, HostOptions, HttpHeader, ServerInput, ServerSpec, ServerTransport,
};

async fn open(dir: &std::path::Path) -> Host {
    match Host::open(HostOptions {
        data_dir: Some(dir.to_path_buf()),
        live_sessions: false,
        ..Default::default()
    })
    .await
    {
        Ok(host) => host,
        Err(e) => panic!("opening a fresh data directory must work: {e}"),
    }
}

fn stdio(name: &str) -> ServerInput {
    ServerInput {
        name: name.to_owned(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: "node".to_owned(),
            args: vec!["server.js".to_owned(), "stdio".to_owned()],
            env: vec![EnvVar {
                key: "LOG".to_owned(),
                value: "1".to_owned(),
                secret: false,
            }],
            cwd: Some("/tmp".to_owned()),
            stop: Default::default(),
        },
    }
}

fn http(name: &str, url: &str) -> ServerInput {
    let mut input = support::http_over(name, url, ServerTransport::Sse);
    if let ServerSpec::Http { headers, .. } = &mut input.spec {
        headers.push(HttpHeader {
            name: "X-Team".to_owned(),
            value: "blue".to_owned(),
            secret: false,
        });
    }
    input
}

#[tokio::test]
async fn migrates_an_empty_directory_into_a_wal_database() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("nested/data");
    let host = open(&data).await;
    assert!(
        data.join("gatehouse.db").is_file(),
        "the database must be created inside the data dir"
    );
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(host.store().pool())
        .await
        .expect("journal mode");
    assert_eq!(
        mode, "wal",
        "WAL lets the app and the CLI share the database"
    );
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(host.store().pool())
        .await
        .expect("migrations table");
    assert!(applied >= 1, "every migration must be applied at start-up");
    assert!(host.registry().list().await.expect("list").is_empty());
    host.shutdown().await;
}

#[tokio::test]
async fn adds_edits_toggles_and_removes_servers_and_keeps_them_across_restarts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open(dir.path()).await;
    let added = host
        .registry()
        .add(stdio("everything"))
        .await
        .expect("add stdio");
    host.registry()
        .add(http("remote", "http://127.0.0.1:9/mcp"))
        .await
        .expect("add http");
    assert_eq!(
        added.spec,
        stdio("everything").spec,
        "the stored spec must be what was given"
    );

    let edited = host
        .registry()
        .update(
            "everything",
            http("everything-http", "https://example.test/mcp"),
        )
        .await
        .expect("edit by name");
    assert_eq!(edited.id, added.id, "an edit keeps the server's identity");
    assert_eq!(edited.name, "everything-http");
    let disabled = host
        .registry()
        .set_enabled(&added.id, false)
        .await
        .expect("disable by id");
    assert!(!disabled.enabled);
    host.shutdown().await;

    let host = open(dir.path()).await;
    let names: Vec<String> = host
        .registry()
        .list()
        .await
        .expect("list")
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(
        names,
        vec!["everything-http", "remote"],
        "configs must persist across restarts"
    );
    let reopened = host.registry().get("everything-http").await.expect("get");
    assert!(!reopened.enabled, "the disabled flag must persist");
    assert!(matches!(
        reopened.spec,
        ServerSpec::Http {
            transport: ServerTransport::Sse,
            ..
        }
    ));

    host.registry().remove("remote").await.expect("remove");
    assert!(matches!(
        host.registry().get("remote").await,
        Err(HostError::NotFound(_))
    ));
    assert!(matches!(
        host.registry().remove("remote").await,
        Err(HostError::NotFound(_))
    ));
    host.shutdown().await;
}

#[tokio::test]
async fn refuses_duplicates_and_invalid_configs_with_clear_messages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open(dir.path()).await;
    host.registry().add(stdio("alpha")).await.expect("add");

    let duplicate = host.registry().add(stdio("ALPHA")).await;
    assert!(
        matches!(&duplicate, Err(HostError::DuplicateName(n)) if n == "ALPHA"),
        "names are unique regardless of case, got {duplicate:?}"
    );
    host.registry().add(stdio("beta")).await.expect("add beta");
    let rename_clash = host.registry().update("beta", stdio("alpha")).await;
    assert!(
        matches!(rename_clash, Err(HostError::DuplicateName(_))),
        "renaming onto another name must fail"
    );

    let mut empty_command = stdio("gamma");
    empty_command.spec = ServerSpec::Stdio {
        command: " ".into(),
        args: vec![],
        env: vec![],
        cwd: None,
        stop: Default::default(),
    };
    let error = host
        .registry()
        .add(empty_command)
        .await
        .expect_err("empty command");
    assert_eq!(error.code(), "validation");
    assert_eq!(error.to_string(), "the command must not be empty");

    let error = host
        .registry()
        .add(http("delta", "localhost:8080"))
        .await
        .expect_err("bad url");
    assert!(
        error.to_string().contains("scheme must be http or https"),
        "got: {error}"
    );
    let unknown: Result<ServerTransport, String> = "websocket".parse();
    assert!(unknown.is_err_and(|m| m.contains("unknown transport `websocket`")));

    assert_eq!(
        host.registry().list().await.expect("list").len(),
        2,
        "failed adds must store nothing"
    );
    host.shutdown().await;
}
