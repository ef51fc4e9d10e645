//! The keyed audit chain through the `gatehouse` binary, on a real database and the real keyring
//! (run under `scripts/with-keyring.sh`): `audit head` prints the checkpoint and `audit verify
//! --head` checks a copy of it, catching the newest rows removed with `sqlite3`; `audit key
//! export` gives an auditor the key, with which a copy of the database verifies on a machine
//! without the keyring (and without which it is not vouched for); the key appears in no output
//! or log of any of these commands, nor in the database files or an export.

use crate::support;

use std::path::Path;
use std::process::Output;

use crate::support::{exits, ok, ok_json, stderr, stdout, tamper};
use base64::Engine;
use gatehouse_host::audit::key::AuditKey;
use gatehouse_host::{AuditEvent, AuditKind};
use serde_json::json;
use tempfile::TempDir;

/// A data directory whose audit log holds `n` keyed rows, written through the engine, which is
/// then closed.
async fn data_with_rows(n: usize) -> TempDir {
    support::data_with_audit((1..=n).map(|i| AuditEvent {
        kind: AuditKind::CallFinished,
        tool: Some("echo".into()),
        detail: json!({"note": format!("marker-{i}")}),
        ..Default::default()
    }))
    .await
}

/// `gatehouse ARGS` on `data` with every log line the engine writes.
fn traced(data: &Path, args: &[&str]) -> Output {
    support::command(data)
        .args(args)
        .env("GATEHOUSE_LOG", "trace")
        .output()
        .expect("the binary runs")
}

/// `gatehouse ARGS` on `data` with no reachable keyring (as on an auditor's machine), and with
/// every log line the engine writes.
fn without_keyring(data: &Path, args: &[&str]) -> Output {
    support::command(data)
        .args(args)
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/gatehouse-no-bus",
        )
        .env("GATEHOUSE_LOG", "trace")
        .output()
        .expect("the binary runs")
}

#[tokio::test]
async fn audit_head_prints_the_checkpoint_and_verify_head_checks_a_copy() {
    let dir = data_with_rows(5).await;
    let head = ok_json(dir.path(), &["audit", "head"]);
    assert_eq!(head["seq"], 5, "{head}");
    assert_eq!(head["format"], "gatehouse-audit-head/1");
    assert_eq!(head["mac"].as_str().map(str::len), Some(64));
    let copy = dir.path().join("head.json");
    std::fs::write(&copy, head.to_string()).expect("keep a copy");
    let copy_arg = copy.to_str().expect("utf-8 path");
    let printed = ok(dir.path(), &["audit", "verify", "--head", copy_arg]);
    assert!(
        printed
            .ends_with("  head checkpoint (copy): row 5, in the log as recorded (0 newer rows)\n"),
        "{printed}"
    );

    tamper(dir.path(), "DELETE FROM audit_log WHERE seq >= 4");
    let output = exits(dir.path(), &["audit", "verify", "--head", copy_arg], 1);
    assert_eq!(
        stderr(&output),
        "error: audit log broken at row 4: rows 4 to 5 are missing (the log ends at row 3, but \
         the head checkpoint records row 5)\n",
        "removing the newest rows is caught"
    );
    assert!(
        stdout(&output).contains(
            "  head checkpoint (copy): BROKEN at row 4: rows 4 to 5 are missing (the log ends at \
             row 3, but the head checkpoint records row 5)"
        ),
        "{}",
        stdout(&output)
    );

    // A copy edited to vouch for less is refused, not compared.
    let mut forged = head.clone();
    forged["seq"] = json!(3);
    std::fs::write(&copy, forged.to_string()).expect("write");
    let output = exits(dir.path(), &["audit", "verify", "--head", copy_arg], 1);
    assert!(
        stdout(&output).contains("  head checkpoint (copy): NOT AUTHENTIC: its MAC does not check"),
        "{}",
        stdout(&output)
    );
}

#[tokio::test]
async fn an_auditor_verifies_a_copy_with_the_exported_key_and_the_key_leaks_nowhere() {
    let dir = data_with_rows(4).await;
    let key_file = dir.path().join("audit.key");
    let key_arg = key_file.to_str().expect("utf-8 path");
    let exporting = traced(dir.path(), &["audit", "key", "export", "-o", key_arg]);
    assert_eq!(exporting.status.code(), Some(0), "{}", stderr(&exporting));
    let said = stdout(&exporting);
    assert!(said.starts_with("wrote the audit key "), "{said}");
    let (key, _) = AuditKey::read_file(&key_file).expect("a key file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
    }
    let heading = traced(dir.path(), &["audit", "head"]);
    let head = stdout(&heading);
    let exported = ok(dir.path(), &["audit", "export", "--format", "jsonl"]);
    assert!(exported.contains(key.id()), "the rows name the key's id");

    // The auditor's machine: a copy of the database, no keyring.
    let auditor = tempfile::tempdir().expect("temp dir");
    for entry in std::fs::read_dir(dir.path()).expect("data dir").flatten() {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with("gatehouse.db") {
            std::fs::copy(entry.path(), auditor.path().join(&name)).expect("copy");
        }
    }
    let head_copy = auditor.path().join("head.json");
    std::fs::write(&head_copy, &head).expect("write");
    let checked = without_keyring(
        auditor.path(),
        &[
            "audit",
            "verify",
            "--key-file",
            key_arg,
            "--head",
            head_copy.to_str().expect("utf-8 path"),
        ],
    );
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    let printed = stdout(&checked);
    assert!(
        printed.starts_with(&format!(
            "audit log intact: 4 rows\n  rows 1 to 4: keyed, checked with the key {} from the \
             key file\n",
            key.id()
        )),
        "{printed}"
    );
    assert!(
        printed.contains("  head checkpoint (copy): row 4, in the log as recorded"),
        "{printed}"
    );
    let unkeyed = without_keyring(auditor.path(), &["audit", "verify"]);
    assert_eq!(unkeyed.status.code(), Some(1));
    assert_eq!(
        stderr(&unkeyed).lines().last().unwrap_or_default(),
        format!(
            "error: audit log not verified: rows 1 to 4 are keyed with the audit key {}, which \
             is not at hand: only their links were checked",
            key.id()
        ),
        "without the key, keyed rows are never passed as checked"
    );

    // The key's bytes, hex and base64 appear in no output, no log line and no file but the
    // key file.
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(key.encode().as_str())
        .expect("base64");
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let forms: Vec<Vec<u8>> = vec![
        bytes.clone(),
        hex.clone().into_bytes(),
        hex.to_uppercase().into_bytes(),
        key.encode().as_bytes().to_vec(),
    ];
    let outputs = [
        exporting.stderr,
        heading.stderr,
        said.into_bytes(),
        head.into_bytes(),
        exported.into_bytes(),
        checked.stdout,
        checked.stderr,
        unkeyed.stdout,
        unkeyed.stderr,
    ];
    std::fs::remove_file(&key_file).expect("the key file, the one place it goes");
    for form in &forms {
        for output in &outputs {
            assert!(
                !output.windows(form.len()).any(|w| w == form.as_slice()),
                "the key is in an output or a log"
            );
        }
        for place in [dir.path(), auditor.path()] {
            let found = files_containing(place, form);
            assert!(found.is_empty(), "the key is in {found:?}");
        }
    }
}

fn files_containing(dir: &Path, needle: &[u8]) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .filter(|entry| {
            std::fs::read(entry.path())
                .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
        })
        .map(|entry| entry.path().display().to_string())
        .collect()
}
