//! `gatehouse audit` on a real database: `verify` passes an untouched log and names the first
//! broken row after the database was tampered with outside Gatehouse (with the `sqlite3` tool,
//! which can drop the append-only triggers, or by editing the file's bytes); `list` prints
//! the table and the documented JSON.

mod support;

use std::path::Path;
use std::process::Command;

use gatehouse_host::{AuditEvent, AuditKind, Host, HostOptions};
use serde_json::json;
use support::{exits, ok, ok_json, stderr};
use tempfile::TempDir;

/// A data directory whose audit log holds `n` rows (row `i`'s detail says `marker-i`), written
/// through the engine, which is then closed.
async fn data_with_rows(n: usize) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    })
    .await
    .expect("open");
    for i in 1..=n {
        host.audit()
            .append(AuditEvent {
                kind: if i % 2 == 0 {
                    AuditKind::CallFinished
                } else {
                    AuditKind::CallStarted
                },
                server: Some(if i % 3 == 0 { "memory" } else { "everything" }.into()),
                source: Some("user".into()),
                method: Some("tools/call".into()),
                tool: Some("echo".into()),
                duration_ms: (i % 2 == 0).then_some(7),
                detail: json!({"note": format!("marker-{i}")}),
                ..Default::default()
            })
            .await
            .expect("append");
    }
    host.shutdown().await;
    dir
}

fn database(data: &Path) -> std::path::PathBuf {
    data.join("gatehouse.db")
}

/// Runs `sqlite3 DB SQL` and returns whether it succeeded, with its stderr.
fn sqlite3(data: &Path, sql: &str) -> (bool, String) {
    let output = Command::new("sqlite3")
        .args(["-cmd", ".timeout 5000"])
        .arg(database(data))
        .arg(sql)
        .output()
        .expect("the sqlite3 tool runs (scripts/install-test-deps.sh installs it)");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `gatehouse audit verify` must fail with exactly this one line.
fn assert_broken(data: &Path, line: &str, why: &str) {
    let output = exits(data, &["audit", "verify"], 1);
    assert_eq!(stderr(&output), format!("error: {line}\n"), "{why}");
}

#[tokio::test]
async fn an_untouched_log_verifies() {
    let dir = data_with_rows(6).await;
    assert_eq!(
        ok(dir.path(), &["audit", "verify"]),
        "audit log intact: 6 rows\n"
    );
    let empty = tempfile::tempdir().expect("temp dir");
    assert_eq!(
        ok(empty.path(), &["audit", "verify"]),
        "audit log intact: 0 rows\n",
        "a fresh data directory has an empty, intact log"
    );
}

#[tokio::test]
async fn a_row_edited_with_sqlite3_is_named() {
    let dir = data_with_rows(6).await;
    let (updated, err) = sqlite3(
        dir.path(),
        "UPDATE audit_log SET detail = '{\"note\":\"nothing\"}' WHERE seq = 3",
    );
    assert!(
        !updated && err.contains("audit_log is append-only"),
        "the trigger must refuse an edit with a clear message: {err}"
    );
    ok(dir.path(), &["audit", "verify"]);

    let (updated, err) = sqlite3(
        dir.path(),
        "DROP TRIGGER audit_log_no_update; \
         UPDATE audit_log SET detail = '{\"note\":\"nothing\"}' WHERE seq = 3",
    );
    assert!(updated, "without the trigger the edit goes through: {err}");
    assert_broken(
        dir.path(),
        "audit log broken at row 3: its content does not match its hash",
        "an edit that gets past the trigger must still be caught, at the edited row",
    );
}

#[tokio::test]
async fn a_row_deleted_with_sqlite3_is_named() {
    let dir = data_with_rows(6).await;
    let (deleted, err) = sqlite3(
        dir.path(),
        "DROP TRIGGER audit_log_no_delete; DELETE FROM audit_log WHERE seq = 5",
    );
    assert!(
        deleted,
        "without the trigger the delete goes through: {err}"
    );
    assert_broken(
        dir.path(),
        "audit log broken at row 6: row 5 is missing (seq jumps from 4 to 6)",
        "a removed row must be caught at the row after the gap",
    );
}

#[tokio::test]
async fn bytes_edited_in_the_database_file_are_named() {
    let dir = data_with_rows(6).await;
    let db = database(dir.path());
    // Closing the engine checkpoints the WAL, but its last connection may close a moment after
    // `shutdown` returns: checkpoint here too, so every row is in the file edited below.
    let (checkpointed, err) = sqlite3(dir.path(), "PRAGMA wal_checkpoint(TRUNCATE)");
    assert!(checkpointed, "checkpoint: {err}");
    let mut bytes = std::fs::read(&db).expect("read the database");
    let at = bytes
        .windows(b"marker-4".len())
        .position(|w| w == b"marker-4")
        .expect("row 4's detail is in the checkpointed database file");
    bytes[at + 7] = b'9';
    std::fs::write(&db, bytes).expect("write the database");
    assert_broken(
        dir.path(),
        "audit log broken at row 4: its content does not match its hash",
        "a change made to the file itself, past SQLite and its triggers, must be caught",
    );
}

#[tokio::test]
async fn list_prints_a_table_and_the_documented_json() {
    let dir = data_with_rows(6).await;
    let table = ok(dir.path(), &["audit", "list", "--server", "memory"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "a header and rows 6 and 3: {table}");
    for column in [
        "TIME", "KIND", "SERVER", "TOOL", "SOURCE", "DECISION", "OUTCOME",
    ] {
        assert!(lines[0].contains(column), "{column} in {}", lines[0]);
    }
    assert!(
        lines[1].contains("call_finished") && lines[1].ends_with("ok (7 ms)"),
        "newest first, with its outcome: {}",
        lines[1]
    );

    let json = ok_json(dir.path(), &["audit", "list", "--limit", "2", "--json"]);
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2, "--limit is honoured: {json}");
    assert_eq!(rows[0]["seq"], 6);
    assert_eq!(rows[0]["kind"], "call_finished");
    assert_eq!(rows[0]["method"], "tools/call");
    assert_eq!(rows[0]["durationMs"], 7);
    assert_eq!(rows[0]["detail"]["note"], "marker-6");
    assert_eq!(rows[0]["prevHash"], rows[1]["hash"], "the chain is visible");

    let none = ok(dir.path(), &["audit", "list", "--tool", "absent"]);
    assert_eq!(none, "no audit rows\n");
    exits(dir.path(), &["audit", "list", "--limit", "0"], 2);
    let bad = exits(dir.path(), &["audit", "list", "--since", "yesterday"], 1);
    assert!(
        stderr(&bad).contains("is not a time"),
        "a malformed --since is an error, not an empty list: {}",
        stderr(&bad)
    );
}
