//! Retention on a real SQLite file: pruning drops the oldest rows and appends an anchor, after
//! which the chain verifies from the anchor; the search index forgets what was dropped; pruning
//! with nothing old is a no-op and pruning again works; and every way of hiding a removal
//! behind the anchor (editing a kept row, deleting the first kept row, deleting or editing the
//! anchor, re-hashing an edited anchor to claim more rows were pruned) fails `verify` naming the
//! row. A log already broken where rows would be dropped is refused, and readers never see a
//! pruning half done.

use crate::support;

use std::path::Path;
use std::time::Duration;

use crate::support::audit::{broken, columns, tamper};
use crate::support::{open_host, seqs};
use gatehouse_host::audit::anchor::Anchor;
use gatehouse_host::{
    AuditEvent, AuditFilter, AuditKind, AuditLog, AuditRow, Host, HostError, VerifyReport,
};
use serde_json::json;
use sqlx::SqlitePool;

fn event(note: &str) -> AuditEvent {
    AuditEvent {
        kind: AuditKind::CallFinished,
        server: Some("everything".into()),
        source: Some("user".into()),
        method: Some("tools/call".into()),
        tool: Some("echo".into()),
        detail: json!({"note": note}),
        ..Default::default()
    }
}

/// Appends rows noted `old-1` … `old-<old>`, waits, then rows `new-1` … `new-<new>`, and
/// returns the time of the first new row: pruning before it drops exactly the old rows.
async fn old_then_new(log: &AuditLog, old: usize, new: usize) -> String {
    let old_events = (1..=old).map(|i| event(&format!("old-{i}"))).collect();
    log.append_all(old_events).await.expect("append old rows");
    // `at` has millisecond precision: leave no doubt which side of the cutoff a row is.
    support::wait::next_millisecond().await;
    let new_events = (1..=new).map(|i| event(&format!("new-{i}"))).collect();
    let rows = log.append_all(new_events).await.expect("append new rows");
    rows.first().map(|r| r.at.clone()).unwrap_or_default()
}

async fn all_rows(log: &AuditLog) -> Vec<AuditRow> {
    let mut rows = log
        .list(&AuditFilter {
            limit: Some(10_000),
            ..Default::default()
        })
        .await
        .expect("list");
    rows.reverse();
    rows
}

/// The anchor a row records.
fn anchor_of(row: &AuditRow) -> Anchor {
    assert_eq!(row.event.kind, AuditKind::Retention, "{row:?}");
    serde_json::from_value(row.event.detail.clone()).expect("an anchor's detail")
}

/// Rewrites row `seq`'s `hash` to match its (edited) content, as an attacker who knows the
/// hashing scheme would: SHA-256 over the canonical JSON of every other column.
async fn rehash(pool: &SqlitePool, seq: i64) {
    let hash = gatehouse_host::canonical::sha256(&columns(pool, seq).await);
    tamper(
        pool,
        &format!("UPDATE audit_log SET hash = '{hash}' WHERE seq = {seq}"),
    )
    .await;
}

/// A log of 5 old and 3 new rows, pruned before the new ones: rows 6 to 8 kept, the anchor at
/// row 9, then 2 more rows (10, 11).
async fn pruned_log(dir: &Path) -> Host {
    let host = open_host(dir, false).await;
    let cutoff = old_then_new(host.audit(), 5, 3).await;
    let report = host.audit().prune_before(&cutoff).await.expect("prune");
    assert_eq!(report.dropped, 5);
    host.audit()
        .append_all(vec![event("after-1"), event("after-2")])
        .await
        .expect("append after pruning");
    host
}

#[tokio::test]
async fn pruning_drops_the_old_rows_and_the_chain_verifies_from_the_anchor() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    let cutoff = old_then_new(log, 5, 3).await;
    let fifth = all_rows(log).await[4].clone();
    // A search first brings the search index and the lookup table up to date: the rows to
    // drop are in both.
    log.search("old*", None).await.expect("search");

    let report = log.prune_before(&cutoff).await.expect("prune");
    assert_eq!(report.dropped, 5, "the rows written before the cutoff");
    assert_eq!(report.before, cutoff);
    let anchor_row = report.anchor.expect("an anchor is appended");
    assert_eq!(anchor_row.seq, 9, "after the last row, like any other row");
    assert_eq!(anchor_row.prev_hash, all_rows(log).await[2].hash);
    assert_eq!(
        anchor_of(&anchor_row),
        Anchor {
            through_seq: 5,
            through_hash: fifth.hash.clone(),
            dropped: 5,
            before: cutoff.clone(),
        },
        "the anchor records the last row dropped, the count and the cutoff"
    );

    let rows = all_rows(log).await;
    assert_eq!(seqs(&rows), [6, 7, 8, 9], "the old rows are gone");
    assert_eq!(
        rows[0].prev_hash, fifth.hash,
        "the first kept row is untouched"
    );
    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 4 },
        "the chain starts from the anchor instead of row 1"
    );
    log.append(event("later"))
        .await
        .expect("append after pruning");
    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 5 }
    );

    assert!(
        log.search("old*", None).await.expect("search").is_empty(),
        "dropped rows leave the search index too"
    );
    assert_eq!(
        seqs(&log.search("new*", None).await.expect("search")),
        [8, 7, 6]
    );
    assert_eq!(
        seqs(&log.search("throughSeq", None).await.expect("search")),
        [9],
        "the anchor is indexed like any other row"
    );
    let pool = host.store().pool();
    sqlx::query("INSERT INTO audit_search (audit_search, rank) VALUES ('integrity-check', 1)")
        .execute(pool)
        .await
        .expect("the search index matches the table it indexes");
    let keyed: Vec<i64> = sqlx::query_scalar("SELECT seq FROM audit_keys ORDER BY seq")
        .fetch_all(pool)
        .await
        .expect("audit_keys");
    assert_eq!(
        keyed,
        [6, 7, 8, 9, 10],
        "dropped rows leave the lookup table too, and the searches brought it up to date"
    );
    let declared: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_prune")
        .fetch_one(pool)
        .await
        .expect("audit_prune");
    assert_eq!(declared, 0, "nothing stays declared deletable");
    let refused = sqlx::query("DELETE FROM audit_log WHERE seq = 6")
        .execute(pool)
        .await;
    assert!(
        refused
            .err()
            .is_some_and(|e| e.to_string().contains("audit_log is append-only")),
        "outside a pruning, the table still refuses deletes"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn pruning_with_nothing_old_changes_nothing_and_pruning_again_works() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    let empty = log
        .prune_older_than(Duration::ZERO)
        .await
        .expect("prune an empty log");
    assert_eq!((empty.dropped, empty.anchor), (0, None));
    assert_eq!(seqs(&all_rows(log).await), Vec::<i64>::new());

    let cutoff = old_then_new(log, 4, 2).await;
    let young = log
        .prune_older_than(Duration::from_secs(24 * 60 * 60))
        .await
        .expect("prune");
    assert_eq!(
        (young.dropped, young.anchor),
        (0, None),
        "no row is a day old"
    );
    assert_eq!(seqs(&all_rows(log).await), [1, 2, 3, 4, 5, 6], "a no-op");

    let first = log.prune_before(&cutoff).await.expect("prune");
    assert_eq!(first.dropped, 4);
    let again = log.prune_before(&cutoff).await.expect("prune again");
    assert_eq!(
        (again.dropped, again.anchor),
        (0, None),
        "the same cutoff again: nothing new to drop, and no second anchor"
    );

    support::wait::next_millisecond().await;
    let third = log.append(event("third")).await.expect("append");
    let second = log.prune_before(&third.at).await.expect("prune twice");
    assert_eq!(
        second.dropped, 3,
        "rows 5 and 6 and the first anchor (row 7)"
    );
    let anchor = anchor_of(second.anchor.as_ref().expect("a second anchor"));
    assert_eq!(anchor.through_seq, 7);
    assert_eq!(seqs(&all_rows(log).await), [8, 9]);
    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 2 },
        "the chain starts from the newest anchor"
    );

    support::wait::next_millisecond().await;
    let everything = log
        .prune_older_than(Duration::ZERO)
        .await
        .expect("prune every row");
    assert_eq!(everything.dropped, 2, "row 8 and the anchor before it");
    let rows = all_rows(log).await;
    assert_eq!(seqs(&rows), [10], "only the new anchor is left");
    assert_eq!(anchor_of(&rows[0]).through_seq, 9);
    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 1 },
        "an anchor alone accounts for every row before it"
    );
    log.append(event("afterwards")).await.expect("append");
    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 2 }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn an_edited_kept_row_is_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = pruned_log(dir.path()).await;
    tamper(
        host.store().pool(),
        "UPDATE audit_log SET detail = '{\"note\":\"edited\"}' WHERE seq = 7",
    )
    .await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(7, "its content does not match its hash")
    );
    host.shutdown().await;
}

#[tokio::test]
async fn deleting_the_first_kept_rows_cannot_pass_for_pruning() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = pruned_log(dir.path()).await;
    tamper(host.store().pool(), "DELETE FROM audit_log WHERE seq = 6").await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(
            7,
            "row 6 is missing (the log starts at row 7, and the retention anchor at row 9 \
             records only rows 1 to 5 as pruned)"
        ),
        "the anchor says where the kept rows begin"
    );
    tamper(host.store().pool(), "DELETE FROM audit_log WHERE seq = 7").await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(
            8,
            "rows 6 to 7 are missing (the log starts at row 8, and the retention anchor at \
             row 9 records only rows 1 to 5 as pruned)"
        )
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_deleted_anchor_is_caught_whether_or_not_it_is_the_newest_row() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = pruned_log(dir.path()).await;
    tamper(host.store().pool(), "DELETE FROM audit_log WHERE seq = 9").await;
    let expected = broken(
        6,
        "rows 1 to 5 are missing (the log starts at row 6, and no retention anchor records \
         them as pruned)",
    );
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        expected,
        "without its anchor, a pruned log is a log missing its first rows"
    );
    host.shutdown().await;

    // The anchor as the newest row, removed with nothing after it to show the gap.
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let cutoff = old_then_new(host.audit(), 5, 3).await;
    host.audit().prune_before(&cutoff).await.expect("prune");
    tamper(host.store().pool(), "DELETE FROM audit_log WHERE seq = 9").await;
    assert_eq!(host.audit().verify().await.expect("verify"), expected);
    host.shutdown().await;
}

#[tokio::test]
async fn an_edited_anchor_is_named_even_when_rehashed_to_claim_more_rows() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = pruned_log(dir.path()).await;
    let pool = host.store().pool();
    tamper(
        pool,
        "UPDATE audit_log SET detail = json_set(detail, '$.dropped', 4) WHERE seq = 9",
    )
    .await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(9, "its content does not match its hash"),
        "an edited anchor is named"
    );
    host.shutdown().await;

    // The attack: delete the oldest kept row, then make the anchor claim it was pruned, with
    // the hash it had, and re-hash the anchor so that it matches its content.
    let dir = tempfile::tempdir().expect("temp dir");
    let host = pruned_log(dir.path()).await;
    let pool = host.store().pool();
    let sixth = all_rows(host.audit()).await[0].clone();
    assert_eq!(sixth.seq, 6);
    tamper(pool, "DELETE FROM audit_log WHERE seq = 6").await;
    tamper(
        pool,
        &format!(
            "UPDATE audit_log SET detail = json_set(detail, '$.throughSeq', 6, \
             '$.throughHash', '{}', '$.dropped', 6) WHERE seq = 9",
            sixth.hash
        ),
    )
    .await;
    rehash(pool, 9).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(9, "its content does not match its hash"),
        "the anchor is keyed: a plain SHA-256 over its content does not pass for its MAC"
    );
    // Made an unkeyed row, it checks on its own, but an unkeyed anchor after keyed rows is
    // refused (and the keyed row after it covers its hash).
    tamper(pool, "UPDATE audit_log SET key_id = NULL WHERE seq = 9").await;
    rehash(pool, 9).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(
            7,
            "the retention anchor at row 9 that accounts for the rows before it is not keyed, \
             though row 7 before it is: anyone who can write the file could have made it"
        ),
        "only a keyed anchor accounts for pruned rows once keying began"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_log_broken_where_rows_would_be_dropped_is_not_pruned() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let cutoff = old_then_new(host.audit(), 5, 2).await;
    tamper(host.store().pool(), "DELETE FROM audit_log WHERE seq = 3").await;
    let refused = host.audit().prune_before(&cutoff).await;
    match refused {
        Err(HostError::AuditBroken { seq, reason }) => {
            assert_eq!(seq, 4);
            assert_eq!(
                reason,
                "row 3 is missing (seq jumps from 2 to 4); nothing was pruned, as pruning \
                 would remove the evidence"
            );
        }
        other => panic!("pruning over a gap must be refused, got {other:?}"),
    }
    assert_eq!(
        seqs(&all_rows(host.audit()).await),
        [1, 2, 4, 5, 6, 7],
        "nothing was dropped and no anchor was written"
    );
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_and_writers_never_see_a_pruning_half_done() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = open_host(dir.path(), false).await;
    let cli = open_host(dir.path(), false).await;
    // 3,000 rows: verifying or pruning them takes several pages.
    let events = (0..3000).map(|i| event(&format!("row-{i}"))).collect();
    app.audit().append_all(events).await.expect("append");
    support::wait::next_millisecond().await;

    let writer = {
        let log = app.audit().clone();
        tokio::spawn(async move {
            for i in 0..100 {
                log.append(event(&format!("during-{i}")))
                    .await
                    .expect("an append waits for the pruning, it does not fail");
            }
        })
    };
    let checker = {
        let log = cli.audit().clone();
        tokio::spawn(async move {
            let mut reports = Vec::new();
            for _ in 0..5 {
                reports.push(log.verify().await.expect("verify"));
            }
            reports
        })
    };
    let report = cli
        .audit()
        .prune_older_than(Duration::from_millis(10))
        .await
        .expect("prune while others write and verify");
    writer.await.expect("writer");
    for report in checker.await.expect("checker") {
        assert!(
            matches!(report, VerifyReport::Intact { .. }),
            "a verify running across a pruning reads one state of the log: {report:?}"
        );
    }
    assert!(
        report.dropped >= 3000,
        "the old rows were dropped: {report:?}"
    );
    assert!(matches!(
        app.audit().verify().await.expect("verify"),
        VerifyReport::Intact { .. }
    ));
    app.shutdown().await;
    cli.shutdown().await;
}
