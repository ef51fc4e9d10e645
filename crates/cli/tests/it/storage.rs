//! Where the `gatehouse` binary keeps what it is told: the database it shares with a running
//! app, written by both at once, and secret values, which go to the keyring and never to the
//! database (run under `scripts/with-keyring.sh`).

use crate::support::{command, gatehouse, ok, ok_json, sqlite3, stderr};
use gatehouse_host::{Host, HostOptions, ServerInput, ServerSpec};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_and_the_cli_write_the_same_database_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().to_path_buf();
    // The "app": this process holds the database open and writes in a loop.
    let app = Host::open(HostOptions {
        data_dir: Some(data.clone()),
        live_sessions: false,
        ..Default::default()
    })
    .await
    .expect("open");
    // The "CLI": separate processes writing at the same moment.
    let clis: Vec<_> = (0..8)
        .map(|i| {
            let data = data.clone();
            tokio::task::spawn_blocking(move || {
                let name = format!("cli-{i}");
                gatehouse(&data, &["server", "add", &name, "--command", "node"])
            })
        })
        .collect();
    for i in 0..40 {
        let input = ServerInput {
            name: format!("app-{i}"),
            enabled: i % 2 == 0,
            roots: Vec::new(),
            spec: ServerSpec::Stdio {
                command: "node".into(),
                args: vec![],
                env: vec![],
                cwd: None,
                stop: Default::default(),
            },
        };
        app.registry()
            .add(input)
            .await
            .expect("the app's writes must not fail while the CLI writes");
        app.registry()
            .set_enabled(&format!("app-{i}"), true)
            .await
            .expect("toggle");
    }
    for cli in clis {
        let output = cli.await.expect("join");
        let err = stderr(&output);
        assert!(
            output.status.success(),
            "a CLI write must not fail while the app writes: {err}"
        );
        assert!(!err.contains("locked"), "no `database is locked`: {err}");
    }
    let servers = app.registry().list().await.expect("list");
    assert_eq!(
        servers.len(),
        48,
        "every write from both sides must be kept"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn secret_values_go_to_the_keyring_and_never_to_the_database() {
    use gatehouse_host::secrets::{KeyringStore, SecretKey, SecretStore};
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().to_path_buf();
    let token = format!("cli-secret-{}", std::process::id());
    let output = command(&data)
        .args([
            "server",
            "add",
            "s",
            "--command",
            "node",
            "--secret-env",
            "API_TOKEN",
        ])
        .env("API_TOKEN", &token)
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "a secret from the environment: {}",
        stderr(&output)
    );

    let list = ok_json(&data, &["server", "list", "--json"]);
    let env = &list[0]["spec"]["env"][0];
    assert_eq!(env["key"], "API_TOKEN");
    assert_eq!(env["secret"], true);
    assert_eq!(
        env["value"], "",
        "the JSON output never carries a secret value"
    );

    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(&data).expect("data dir").flatten() {
        bytes.extend(std::fs::read(entry.path()).unwrap_or_default());
    }
    assert!(
        !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
        "the secret must not be in the database or its WAL"
    );
    let key = SecretKey::env(list[0]["id"].as_str().expect("id"), "API_TOKEN");
    let store = KeyringStore;
    assert_eq!(
        store
            .get(&key)
            .await
            .expect("keyring")
            .map(|v| v.into_exposed()),
        Some(token.clone())
    );

    ok(&data, &["server", "remove", "s"]);
    assert!(
        store.get(&key).await.expect("keyring").is_none(),
        "remove deletes the secret"
    );

    let unset = command(&data)
        .args([
            "server",
            "add",
            "t",
            "--command",
            "node",
            "--secret-env",
            "GATEHOUSE_UNSET_VAR",
        ])
        .env_remove("GATEHOUSE_UNSET_VAR")
        .output()
        .expect("runs");
    assert_eq!(
        unset.status.code(),
        Some(2),
        "a secret name without a value is a usage error"
    );
    assert!(
        stderr(&unset).contains("is not set in the environment"),
        "got {}",
        stderr(&unset)
    );
}

#[test]
fn without_a_keyring_adding_a_secret_fails_saying_how_to_fix_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    std::fs::create_dir(&data).expect("data dir");
    let token = format!("cli-no-keyring-{}", std::process::id());
    // A session bus address whose socket does not exist: a real failure to reach the keyring.
    let no_bus = format!("unix:path={}", dir.path().join("no-such-bus").display());
    let output = command(&data)
        .args(["server", "add", "s", "--command", "node", "--secret-env"])
        .arg(format!("API_TOKEN={token}"))
        .env("DBUS_SESSION_BUS_ADDRESS", &no_bus)
        .output()
        .expect("runs");
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "a failure: {err}");
    assert!(
        err.contains("the OS keyring is not available")
            && err.contains("start gnome-keyring or another Secret Service provider"),
        "the message says what is wrong and how to fix it: {err}"
    );

    let list = ok_json(&data, &["server", "list", "--json"]);
    assert_eq!(list, serde_json::json!([]), "the server was not added");
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(&data).expect("data dir").flatten() {
        bytes.extend(std::fs::read(entry.path()).unwrap_or_default());
    }
    assert!(
        !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
        "the secret must not be in the database or its WAL"
    );
}

#[test]
fn the_data_directory_and_the_database_files_are_private_to_the_person() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("fresh");
    ok(&data, &["server", "add", "private", "--command", "node"]);
    let mode = |path: &std::path::Path| {
        std::fs::metadata(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .permissions()
            .mode()
            & 0o777
    };
    let octal = |path: &std::path::Path| format!("{:o}", mode(path));
    assert_eq!(octal(&data), "700", "the data directory");
    let files: Vec<_> = std::fs::read_dir(&data)
        .expect("listed")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect();
    assert!(
        files.iter().any(|p| p.ends_with("gatehouse.db")),
        "{files:?}"
    );
    for file in files {
        assert_eq!(octal(&file), "600", "{}", file.display());
    }
}

/// A data directory a newer Gatehouse wrote (a migration this build does not know) is refused
/// with one clear line and status 1, and left as it was.
#[test]
fn a_data_directory_from_a_newer_build_is_refused_with_a_clear_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    ok(data, &["server", "add", "notes", "--command", "node"]);
    let (done, err) = sqlite3(
        data,
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99991231000000, 'from a newer build', TRUE, x'00', 1)",
    );
    assert!(done, "{err}");
    let before = std::fs::read(data.join("gatehouse.db")).expect("read the database");
    let output = gatehouse(data, &["server", "list"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let err = stderr(&output);
    assert!(
        err.starts_with(
            "error: this data directory was written by a newer Gatehouse (schema \
             99991231000000, this build knows up to "
        ) && err
            .trim_end()
            .ends_with("install the newer version, or use another --data-dir"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(output.stdout.is_empty());
    assert_eq!(
        std::fs::read(data.join("gatehouse.db")).expect("read the database"),
        before,
        "the database is left as it was"
    );
}
