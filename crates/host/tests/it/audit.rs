//! The audit log on a real SQLite file: appending and listing with each filter, the chain
//! verified intact, secrets never reaching the database files, large details summarised, one
//! chain from two writers at once, an append waiting for another process's lock off the runtime,
//! the table refusing edits, and a committed row surviving the
//! writing process being killed.

use crate::support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::{open_host, seqs};
use gatehouse_host::audit::chain::GENESIS;
use gatehouse_host::audit::redact::MAX_DETAIL_BYTES;
use gatehouse_host::{AuditEvent, AuditFilter, AuditKind, HostError, VerifyReport};
use serde_json::json;

fn call(server: &str, tool: &str, source: &str) -> AuditEvent {
    AuditEvent {
        kind: AuditKind::CallStarted,
        server: Some(server.into()),
        source: Some(source.into()),
        method: Some("tools/call".into()),
        tool: Some(tool.into()),
        request_id: Some("1".into()),
        transport: Some("pipe".into()),
        detail: json!({"arguments": {"message": "hi"}}),
        ..Default::default()
    }
}

#[tokio::test]
async fn appended_rows_are_listed_by_each_filter_and_verify_intact() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 0 },
        "an empty log is intact"
    );
    let first = log
        .append(call("everything", "echo", "user"))
        .await
        .expect("append");
    assert_eq!(first.seq, 1);
    assert_eq!(first.prev_hash, GENESIS, "the chain starts at 64 zeros");
    let batch = log
        .append_all(vec![
            call("everything", "add", "app"),
            call("memory", "echo", "model"),
            AuditEvent {
                kind: AuditKind::CallFinished,
                server: Some("memory".into()),
                tool: Some("echo".into()),
                error_type: Some("tool_error".into()),
                duration_ms: Some(42),
                ..Default::default()
            },
        ])
        .await
        .expect("append_all");
    assert_eq!(seqs(&batch), [2, 3, 4]);
    assert_eq!(
        batch[0].prev_hash, first.hash,
        "each row links to the one before"
    );

    support::wait::next_millisecond().await;
    let later = log
        .append(call("everything", "echo", "gateway"))
        .await
        .expect("append");

    let all = log.list(&AuditFilter::default()).await.expect("list");
    assert_eq!(seqs(&all), [5, 4, 3, 2, 1], "newest first");
    assert_eq!(all[1].event.duration_ms, Some(42), "fields are read back");
    assert_eq!(all[1].outcome(), "tool_error");
    assert_eq!(all[4].event.detail, json!({"arguments": {"message": "hi"}}));

    let by = |filter: AuditFilter| async move { seqs(&log.list(&filter).await.expect("list")) };
    assert_eq!(
        by(AuditFilter {
            server: Some("memory".into()),
            ..Default::default()
        })
        .await,
        [4, 3]
    );
    assert_eq!(
        by(AuditFilter {
            tool: Some("echo".into()),
            ..Default::default()
        })
        .await,
        [5, 4, 3, 1]
    );
    assert_eq!(
        by(AuditFilter {
            source: Some("app".into()),
            ..Default::default()
        })
        .await,
        [2]
    );
    assert_eq!(
        by(AuditFilter {
            since: Some(later.at.clone()),
            ..Default::default()
        })
        .await,
        [5],
        "since keeps rows written at or after the time"
    );
    assert_eq!(
        by(AuditFilter {
            since: Some("2000-01-01T01:00:00+01:00".into()),
            server: Some("everything".into()),
            limit: Some(2),
            ..Default::default()
        })
        .await,
        [5, 2],
        "an offset is understood, filters combine and the limit keeps the newest"
    );
    let bad = log
        .list(&AuditFilter {
            since: Some("yesterday".into()),
            ..Default::default()
        })
        .await;
    assert!(
        matches!(bad, Err(HostError::Validation(_))),
        "a time that is not one must be refused, not match everything: {bad:?}"
    );

    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 5 }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_listing_holds_100_rows_unless_told_otherwise_and_verify_pages_through_more() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let events = (0..2500)
        .map(|_| call("everything", "echo", "user"))
        .collect();
    host.audit().append_all(events).await.expect("append_all");
    let listed = host
        .audit()
        .list(&AuditFilter::default())
        .await
        .expect("list");
    assert_eq!(listed.len(), 100, "the default limit");
    assert_eq!(listed[0].seq, 2500, "newest first");
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 2500 },
        "verify reads the log a page at a time and must not stop at a page's end"
    );
    host.shutdown().await;
}

/// The bytes of the database and its WAL, as anyone with the files would see them.
fn database_bytes(db: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(db).expect("read the database file");
    if let Ok(wal) = std::fs::read(db.with_extension("db-wal")) {
        bytes.extend(wal);
    }
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

#[tokio::test]
async fn secrets_never_reach_the_database_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    host.audit().set_secrets(vec!["s3cr3t-value".into()]);
    let row = host
        .audit()
        .append(AuditEvent {
            kind: AuditKind::RequestReceived,
            tool: Some("search".into()),
            detail: json!({"api_key": "k-123456", "note": "uses s3cr3t-value inside"}),
            ..Default::default()
        })
        .await
        .expect("append");
    assert_eq!(
        row.event.detail,
        json!({"api_key": "[redacted]", "note": "uses [redacted] inside"})
    );
    let db = host.store().path().to_path_buf();
    assert_no_secret_in(&db, "while open");
    host.shutdown().await;
    assert_no_secret_in(&db, "after closing (WAL checkpointed into the database)");
}

fn assert_no_secret_in(db: &Path, moment: &str) {
    let bytes = database_bytes(db);
    assert!(
        contains(&bytes, "uses [redacted] inside"),
        "{moment}: the row must be in the files read, or this test proves nothing"
    );
    assert!(
        !contains(&bytes, "k-123456"),
        "{moment}: a value under a secret-looking key must never be written"
    );
    assert!(
        !contains(&bytes, "s3cr3t-value"),
        "{moment}: a known secret must never be written"
    );
}

#[tokio::test]
async fn a_detail_over_64_kib_is_stored_as_its_size_and_hash() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let big = json!({"result": "x".repeat(MAX_DETAIL_BYTES)});
    let size = big.to_string().len();
    host.audit()
        .append(AuditEvent {
            kind: AuditKind::CallFinished,
            detail: big,
            ..Default::default()
        })
        .await
        .expect("append");
    let rows = host
        .audit()
        .list(&AuditFilter::default())
        .await
        .expect("list");
    let detail = &rows[0].event.detail;
    assert_eq!(
        detail["truncated"], true,
        "a huge result must not bloat the log"
    );
    assert_eq!(detail["size"], size);
    assert_eq!(detail["sha256"].as_str().map(str::len), Some(64));
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 1 },
        "the summary is what the chain covers"
    );
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_writers_on_one_database_keep_one_chain() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = open_host(dir.path(), false).await;
    let cli = open_host(dir.path(), false).await;
    let write = |host: &gatehouse_host::Host, who: &'static str| {
        let log = host.audit().clone();
        tokio::spawn(async move {
            for _ in 0..200 {
                log.append(call("everything", "echo", who))
                    .await
                    .expect("an append must wait for the other writer, not fail");
            }
        })
    };
    let (a, b) = tokio::join!(write(&app, "app"), write(&cli, "user"));
    a.expect("app writer");
    b.expect("cli writer");
    assert_eq!(
        app.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 400 },
        "interleaved writers must extend one chain, never fork it"
    );
    app.shutdown().await;
    cli.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_made_at_once_keep_each_ones_rows_together_in_one_chain() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let appends: Vec<_> = (0..300)
        .map(|i| {
            let log = host.audit().clone();
            tokio::spawn(async move {
                let who = format!("caller-{i}");
                let rows = log
                    .append_all(vec![
                        call("everything", "echo", &who),
                        call("everything", "add", &who),
                    ])
                    .await
                    .expect("append");
                (who, rows)
            })
        })
        .collect();
    for append in appends {
        let (who, rows) = append.await.expect("task");
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[1].seq,
            rows[0].seq + 1,
            "one append's rows are next to each other, whatever it shared a commit with"
        );
        assert_eq!(rows[1].prev_hash, rows[0].hash);
        assert!(
            rows.iter()
                .all(|r| r.event.source.as_deref() == Some(who.as_str()))
        );
    }
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 600 },
        "appends committed together must still make one unbroken chain"
    );
    host.shutdown().await;
}

/// An append made while another process holds the database's write lock neither fails nor holds
/// the runtime's thread: it is committed by the writer's thread once the lock is released. On a
/// single-threaded runtime, an append that waited in place would keep this test from releasing
/// the lock.
#[tokio::test(flavor = "current_thread")]
async fn an_append_waits_for_another_writers_lock_off_the_runtime() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    host.audit()
        .append(call("everything", "echo", "user"))
        .await
        .expect("the first append");
    let other = rusqlite::Connection::open(dir.path().join("gatehouse.db")).expect("open");
    other
        .execute_batch("BEGIN IMMEDIATE")
        .expect("the other writer takes the lock");
    let log = host.audit().clone();
    let append = tokio::spawn(async move { log.append(call("everything", "add", "app")).await });
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert!(
        !append.is_finished(),
        "the append cannot commit while the other writer holds the lock"
    );
    other
        .execute_batch("COMMIT")
        .expect("the other writer is done");
    let row = tokio::time::timeout(Duration::from_secs(10), append)
        .await
        .expect("the append is committed once the lock is released")
        .expect("task")
        .expect("the append waits for the lock, it does not fail");
    assert_eq!(row.seq, 2);
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 2 }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn the_table_refuses_updates_and_deletes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    host.audit()
        .append(call("everything", "echo", "user"))
        .await
        .expect("append");
    let pool = host.store().pool();
    for sql in [
        "UPDATE audit_log SET detail = '{}' WHERE seq = 1",
        "DELETE FROM audit_log WHERE seq = 1",
    ] {
        let refused = sqlx::query(sql).execute(pool).await;
        let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("audit_log is append-only"),
            "`{sql}` must be refused with a clear message, got: {message:?}"
        );
    }
    host.shutdown().await;
}

/// The variable that turns [`append_then_wait_to_be_killed`] into the child of
/// [`a_committed_row_survives_the_writer_being_killed`].
const CHILD_DIR: &str = "GATEHOUSE_AUDIT_KILL_TEST_DIR";

#[tokio::test]
#[ignore = "the child process of a_committed_row_survives_the_writer_being_killed"]
async fn append_then_wait_to_be_killed() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let host = open_host(Path::new(&dir), false).await;
    let row = host
        .audit()
        .append(call("everything", "echo", "user"))
        .await
        .expect("append");
    println!("committed seq={}", row.seq);
    // Not synchronisation: the child holds on until its parent kills it, and gives up after a
    // minute if the parent never does.
    tokio::time::sleep(Duration::from_secs(60)).await;
}

#[tokio::test]
async fn a_committed_row_survives_the_writer_being_killed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "audit::append_then_wait_to_be_killed",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD_DIR, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the writer");
    let stdout = child.stdout.take().expect("stdout");
    let committed = tokio::time::timeout(
        Duration::from_secs(30),
        tokio::task::spawn_blocking(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .any(|line| line == "committed seq=1")
        }),
    )
    .await;
    child.kill().expect("SIGKILL the writer");
    child.wait().expect("reap the writer");
    assert!(
        matches!(committed, Ok(Ok(true))),
        "the writer must report its commit within 30 s"
    );
    let host = open_host(dir.path(), false).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 1 },
        "append returns after the commit, so the row must outlive a SIGKILL"
    );
    host.shutdown().await;
}
