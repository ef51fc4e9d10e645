//! Without a reachable OS keyring (`DBUS_SESSION_BUS_ADDRESS` names a socket that does not
//! exist, a real connection failure; or gnome-keyring's login collection is locked and no one
//! can answer the unlock prompt), a secret is stored nowhere: adding or editing a server with a
//! secret fails with `KeyringUnavailable`, whose message names the fix, and the database never
//! holds the value. The environment is the process's own, so each check runs in a child process
//! of this test binary, started with that environment.

use std::path::Path;
use std::process::Command;

use crate::support;

use gatehouse_host::{EnvVar, HostError, ServerInput, ServerSpec};

/// Set in the child: the data directory it works on.
const CHILD_DIR: &str = "GATEHOUSE_TEST_NO_KEYRING_DIR";
/// Set in the child: the secret it tries to store.
const CHILD_SECRET: &str = "GATEHOUSE_TEST_NO_KEYRING_SECRET";

fn with_secret_env(name: &str, secret: &str) -> ServerInput {
    let mut input = support::stdio(name, "python3", vec!["-V".into()]);
    input.enabled = false;
    if let ServerSpec::Stdio { env, .. } = &mut input.spec {
        env.push(EnvVar {
            key: "API_TOKEN".into(),
            value: secret.into(),
            secret: true,
        });
    }
    input
}

fn with_secret_header(name: &str, secret: &str) -> ServerInput {
    support::unreachable_http(name, Some(secret))
}

fn assert_unavailable(error: &HostError) {
    assert_eq!(error.code(), "keyring_unavailable", "got {error:?}");
    let message = error.to_string();
    assert!(
        message.contains("the OS keyring is not available")
            && message.contains("start gnome-keyring or another Secret Service provider")
            && message.contains("unlock the login keyring"),
        "the message says what is wrong and how to fix it: {message}"
    );
}

/// Every byte the data directory holds, database and WAL included.
fn data_dir_bytes(dir: &Path) -> Vec<u8> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read data dir").flatten() {
        if let Ok(bytes) = std::fs::read(entry.path()) {
            all.extend(bytes);
        }
    }
    all
}

/// A command whose session bus is a socket in `dir` that does not exist.
fn without_a_bus(dir: &Path) -> Command {
    let mut command = Command::new("env");
    command.env(
        "DBUS_SESSION_BUS_ADDRESS",
        format!("unix:path={}", dir.join("no-such-bus").display()),
    );
    command
}

/// Runs the test `child` of this file (`keyring_unavailable::child` in this binary) through
/// `command` (with its environment), which must pass.
fn run_passing(mut command: Command, child: &str) {
    let output = command
        .arg(std::env::current_exe().expect("this test binary"))
        .args([
            "--exact",
            &format!("keyring_unavailable::{child}"),
            "--nocapture",
        ])
        .output()
        .expect("the test binary runs");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && report.contains("1 passed"),
        "the child's checks must pass: {report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs the test `child` of this binary with `command`'s environment and checks what it left in
/// its data directory.
fn run_child(mut command: Command, child: &str, dir: &Path) {
    let data = dir.join("data");
    std::fs::create_dir(&data).expect("data dir");
    let secret = format!("no-keyring-{}-5be1c0", std::process::id());
    command.env(CHILD_DIR, &data).env(CHILD_SECRET, &secret);
    run_passing(command, child);
    let bytes = data_dir_bytes(&data);
    assert!(
        bytes.windows(5).any(|w| w == b"plain"),
        "the data directory holds what the child stored, so looking for the secret means something"
    );
    assert!(
        !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
        "the secret must not reach the database or its WAL"
    );
}

#[test]
fn without_a_session_bus_a_secret_is_refused_and_stored_nowhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    run_child(
        without_a_bus(dir.path()),
        "child_without_a_keyring",
        dir.path(),
    );
}

#[test]
fn with_a_locked_keyring_a_secret_is_refused_and_stored_nowhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A keyring of its own, so locking it leaves other tests' keyring alone.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/with-keyring.sh");
    let mut command = Command::new(script);
    command.arg("sh").arg("-c").arg(
        "dbus-send --session --print-reply --dest=org.freedesktop.secrets \
         /org/freedesktop/secrets org.freedesktop.Secret.Service.Lock \
         array:objpath:/org/freedesktop/secrets/collection/login >/dev/null && exec \"$@\"",
    );
    command.arg("locked");
    run_child(command, "child_without_a_keyring", dir.path());
}

/// The child's part of the test above; run on its own (without `CHILD_DIR`) it checks nothing.
#[tokio::test]
async fn child_without_a_keyring() {
    let (Some(data), Some(secret)) = (
        std::env::var_os(CHILD_DIR),
        std::env::var(CHILD_SECRET).ok(),
    ) else {
        return;
    };
    let host = support::open_host(Path::new(&data), false).await;

    let error = host
        .add_server(with_secret_env("env", &secret))
        .await
        .expect_err("a secret env value needs the keyring");
    assert_unavailable(&error);
    let error = host
        .add_server(with_secret_header("header", &secret))
        .await
        .expect_err("a secret header needs the keyring");
    assert_unavailable(&error);
    assert!(
        host.list_servers().await.expect("list").is_empty(),
        "a server whose secret could not be stored is not added"
    );

    // A server without secrets needs no keyring; giving it a secret later is refused, and its
    // stored configuration stays as it was.
    let mut plain = support::stdio("plain", "python3", vec!["-V".into()]);
    plain.enabled = false;
    host.add_server(plain.clone())
        .await
        .expect("no secret, no keyring needed");
    let error = host
        .update_server("plain", with_secret_env("plain", &secret))
        .await
        .expect_err("a new secret needs the keyring");
    assert_unavailable(&error);
    let kept = host.server("plain").await.expect("still there");
    assert_eq!(kept.config.spec, plain.spec, "the edit did not happen");

    // An HTTP server without secrets can be removed too (its OAuth tokens could not be
    // checked, and it goes all the same).
    let mut remote = with_secret_header("remote", &secret);
    if let ServerSpec::Http { headers, .. } = &mut remote.spec {
        headers.clear();
    }
    host.add_server(remote).await.expect("no secret");
    host.remove_server("remote")
        .await
        .expect("removed without a keyring");
    host.shutdown().await;
}

/// Set in the child of [`without_a_keyring_audit_rows_are_kept_unkeyed_and_say_so`].
const CHILD_AUDIT_DIR: &str = "GATEHOUSE_TEST_NO_KEYRING_AUDIT_DIR";

fn note(text: &str) -> gatehouse_host::AuditEvent {
    gatehouse_host::AuditEvent {
        kind: gatehouse_host::AuditKind::CallFinished,
        detail: serde_json::json!({ "note": text }),
        ..Default::default()
    }
}

/// Without the keyring, audit rows are never lost and never pretend to be keyed: they are
/// written unkeyed after a `keying` row saying why, `verify` says the keyed rows cannot be
/// checked, and pruning (whose anchor must be keyed) is refused. Once the keyring is back,
/// keying resumes from a keyed anchor, and the unkeyed stretch stays reported.
#[tokio::test]
async fn without_a_keyring_audit_rows_are_kept_unkeyed_and_say_so() {
    use crate::support::audit::{check, parts};
    use gatehouse_host::audit::report::PartKind;

    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let host = support::open_host(&data, false).await;
    host.audit()
        .append_all(vec![note("keyed-1"), note("keyed-2")])
        .await
        .expect("append");
    host.shutdown().await;

    let mut command = without_a_bus(dir.path());
    command.env(CHILD_AUDIT_DIR, &data);
    run_passing(command, "child_audit_without_a_keyring");

    let host = support::open_host(&data, false).await;
    host.audit()
        .append(note("keyed-again"))
        .await
        .expect("append");
    let report = check(host.audit()).await;
    assert_eq!(
        parts(&report),
        [
            (1, 2, PartKind::Keyed),
            (3, 5, PartKind::Unkeyed),
            (6, 7, PartKind::Keyed)
        ],
        "rows 3 to 5 were written without the keyring (a keying row, then two rows); row 6 \
         resumes keying"
    );
    assert_eq!(
        report.result,
        gatehouse_host::VerifyReport::Unverified {
            rows: 7,
            reason: "rows 3 to 5 are unkeyed, after keyed rows (row 2): written while the OS \
                     keyring was unavailable, or rewritten by someone without the key"
                .into()
        },
        "an unkeyed stretch is never passed as keyed"
    );
    host.shutdown().await;
}

/// The child's part of the test above; run on its own (without `CHILD_AUDIT_DIR`) it checks
/// nothing.
#[tokio::test]
async fn child_audit_without_a_keyring() {
    use gatehouse_host::audit::report::{CheckpointStatus, KeyStatus};
    use gatehouse_host::{AuditKind, VerifyReport};

    let Some(data) = std::env::var_os(CHILD_AUDIT_DIR) else {
        return;
    };
    let host = support::open_host(Path::new(&data), false).await;
    let rows = host
        .audit()
        .append_all(vec![note("unkeyed-1"), note("unkeyed-2")])
        .await
        .expect("rows are written without the keyring");
    assert_eq!(
        rows.iter()
            .map(|r| (r.seq, r.key_id.clone()))
            .collect::<Vec<_>>(),
        [(4, None), (5, None)],
        "unkeyed, after the keying row 3"
    );
    let keying = host
        .audit()
        .list(&gatehouse_host::AuditFilter::default())
        .await
        .expect("list")
        .into_iter()
        .find(|r| r.seq == 3)
        .expect("row 3");
    assert_eq!(keying.event.kind, AuditKind::Keying);
    assert_eq!(keying.event.detail["keyed"], false);
    assert!(
        keying.event.detail["reason"]
            .as_str()
            .is_some_and(|r| r.contains("the OS keyring is not available")),
        "{keying:?}"
    );
    let report = support::audit::check(host.audit()).await;
    assert!(
        matches!(report.key, KeyStatus::Unavailable { .. }),
        "{report:?}"
    );
    assert!(
        matches!(report.checkpoint, CheckpointStatus::Unavailable { .. }),
        "{report:?}"
    );
    assert!(
        matches!(&report.result, VerifyReport::Unverified { reason, .. }
            if reason.starts_with("rows 1 to 2 are keyed with the audit key")),
        "keyed rows without their key are not vouched for: {report:?}"
    );
    let refused = host
        .audit()
        .prune_older_than(std::time::Duration::ZERO)
        .await
        .expect_err("pruning needs the key");
    assert_eq!(refused.code(), "keyring_unavailable");
    host.shutdown().await;
}
