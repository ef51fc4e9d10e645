//! `gatehouse audit` on a real database: `verify` passes an untouched log and names the first
//! broken row after the database was tampered with outside Gatehouse (with the `sqlite3` tool,
//! which can drop the append-only triggers, or by editing the file's bytes); `list` and
//! `search` print the table and the documented JSON; `export` writes every row, redacted, to
//! stdout or whole to a file, and leaves nothing behind when it cannot.

use crate::support;

use std::path::Path;

use crate::support::{
    assert_broken, data_with_audit, database, exits, gatehouse, ok, ok_json, sqlite3, stderr,
};
use gatehouse_host::{AuditEvent, AuditKind};
use serde_json::json;
use tempfile::TempDir;

/// A data directory whose audit log holds `n` rows (row `i`'s detail says `marker-i`), written
/// through the engine, which is then closed.
async fn data_with_rows(n: usize) -> TempDir {
    data_with_audit((1..=n).map(|i| AuditEvent {
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
    }))
    .await
}

#[tokio::test]
async fn an_untouched_log_verifies() {
    let dir = data_with_rows(6).await;
    let printed = ok(dir.path(), &["audit", "verify"]);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 3, "{printed}");
    assert_eq!(lines[0], "audit log intact: 6 rows");
    assert!(
        lines[1].starts_with("  rows 1 to 6: keyed, checked with the key ")
            && lines[1].ends_with(" from the OS keyring"),
        "which rows are keyed, and with what: {printed}"
    );
    assert_eq!(
        lines[2], "  head checkpoint (OS keyring): row 6, in the log as recorded (0 newer rows)",
        "the engine flushed its checkpoint when it closed"
    );
    let empty = tempfile::tempdir().expect("temp dir");
    assert_eq!(
        ok(empty.path(), &["audit", "verify"]),
        "audit log intact: 0 rows\n  key: the OS keyring holds none for this data directory\n  \
         head checkpoint (OS keyring): none kept yet\n",
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
async fn a_row_deleted_with_sqlite3_is_named_and_then_an_earlier_edit() {
    let dir = data_with_rows(6).await;
    let (refused, err) = sqlite3(dir.path(), "DELETE FROM audit_log WHERE seq = 5");
    assert!(
        !refused && err.contains("audit_log is append-only"),
        "the trigger must refuse a delete with a clear message: {err}"
    );
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

    // One row edited and another deleted: the first broken row is named.
    let (updated, err) = sqlite3(
        dir.path(),
        "DROP TRIGGER audit_log_no_update; \
         UPDATE audit_log SET server = 'elsewhere' WHERE seq = 2",
    );
    assert!(updated, "without the trigger the edit goes through: {err}");
    assert_broken(
        dir.path(),
        "audit log broken at row 2: its content does not match its hash",
        "with an edit before the gap, the edited row is the first broken one",
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

#[tokio::test]
async fn search_finds_rows_by_their_words_as_a_table_or_json() {
    let dir = data_with_rows(6).await;
    let table = ok(dir.path(), &["audit", "search", "marker-4"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "a header and row 4: {table}");
    assert!(lines[0].starts_with("TIME") && lines[1].contains("call_finished"));

    let json = ok_json(dir.path(), &["audit", "search", "memory", "--json"]);
    let seqs: Vec<&serde_json::Value> = json["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| &row["seq"])
        .collect();
    assert_eq!(seqs, [6, 3], "the server is searched, newest first: {json}");
    let limited = ok_json(
        dir.path(),
        &["audit", "search", "echo", "--limit", "2", "--json"],
    );
    assert_eq!(
        limited["rows"][0]["detail"]["note"], "marker-6",
        "{limited}"
    );
    assert_eq!(limited["rows"].as_array().map(Vec::len), Some(2));

    assert_eq!(
        ok(dir.path(), &["audit", "search", "\"marker AND ("]),
        "no audit rows\n",
        "query syntax is taken literally, never an error"
    );
    let empty = exits(dir.path(), &["audit", "search", " "], 1);
    assert_eq!(
        stderr(&empty),
        "error: the search text is empty: give at least one word\n"
    );
}

/// A data directory whose log holds 4 rows, the last with a secret under a secret-named key.
async fn data_with_a_secret(secret: &str) -> TempDir {
    let dir = data_with_rows(3).await;
    let host = support::open_engine(dir.path()).await;
    host.audit()
        .append(AuditEvent {
            kind: AuditKind::RequestReceived,
            tool: Some("login".into()),
            detail: json!({"arguments": {"user": "ada", "password": secret}}),
            ..Default::default()
        })
        .await
        .expect("append");
    host.shutdown().await;
    dir
}

#[tokio::test]
async fn export_writes_every_row_redacted_to_stdout_or_a_file() {
    let secret = "pw-correct-horse-battery";
    let dir = data_with_a_secret(secret).await;
    let jsonl = ok(dir.path(), &["audit", "export", "--format", "jsonl"]);
    assert!(
        !jsonl.contains(secret),
        "an export must never hold a secret"
    );
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON row per line"))
        .collect();
    let seqs: Vec<i64> = rows.iter().filter_map(|r| r["seq"].as_i64()).collect();
    assert_eq!(seqs, [1, 2, 3, 4], "every row, oldest first");
    assert_eq!(rows[3]["detail"]["arguments"]["password"], "[redacted]");
    let listed = ok_json(dir.path(), &["audit", "list", "--json"]);
    assert_eq!(rows[3], listed["rows"][0], "the rows `list --json` shows");

    let file = dir.path().join("audit.csv");
    let file_arg = file.display().to_string();
    let quiet = ok(
        dir.path(),
        &["audit", "export", "--format", "csv", "-o", &file_arg],
    );
    assert_eq!(quiet, "", "nothing on stdout when writing a file");
    let csv_text = std::fs::read_to_string(&file).expect("the export file");
    assert!(
        !csv_text.contains(secret),
        "an export must never hold a secret"
    );
    assert!(csv_text.starts_with("seq,at,kind,server,"), "{csv_text}");
    assert_eq!(
        csv_text.lines().count(),
        5,
        "a header and 4 rows: {csv_text}"
    );
    assert!(
        csv_text.contains("\"{\"\"arguments\"\":{\"\"user\"\":\"\"ada\"\""),
        "detail is its JSON text, quoted: {csv_text}"
    );
}

/// The names in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read the directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn an_export_that_cannot_be_written_fails_and_leaves_no_partial_file() {
    let dir = data_with_rows(3).await;
    // sysfs refuses new files, even to root.
    let refused = gatehouse(
        dir.path(),
        &[
            "audit",
            "export",
            "--format",
            "jsonl",
            "-o",
            "/sys/gatehouse-export.jsonl",
        ],
    );
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.starts_with("error: cannot write /sys/gatehouse-export.jsonl: ")
            && message.lines().count() == 1,
        "one line naming the path: {message}"
    );
    assert!(!Path::new("/sys/gatehouse-export.jsonl").exists());

    // A directory in the way: the export is written, then cannot take its place.
    let out = tempfile::tempdir().expect("temp dir");
    let target = out.path().join("taken");
    std::fs::create_dir(&target).expect("a directory");
    let target_arg = target.display().to_string();
    let failed = exits(
        dir.path(),
        &["audit", "export", "--format", "csv", "-o", &target_arg],
        1,
    );
    assert!(
        stderr(&failed).starts_with(&format!("error: cannot write {target_arg}: ")),
        "{}",
        stderr(&failed)
    );
    assert_eq!(
        names(out.path()),
        ["taken"],
        "the temporary file must not be left behind"
    );
    assert_eq!(
        names(&target),
        Vec::<String>::new(),
        "the directory is untouched"
    );
}
