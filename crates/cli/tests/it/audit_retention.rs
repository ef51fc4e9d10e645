//! `gatehouse audit prune` on a real database: it prints how many rows it dropped (a sentence or
//! the documented JSON), pruning with nothing old is a no-op and pruning twice works, and the
//! chain verifies from the anchor afterwards. Tampering after a pruning with the `sqlite3` tool
//! (editing a kept row, deleting the first kept row, deleting or editing the anchor) makes
//! `gatehouse audit verify` exit 1 naming the row, and a log already broken is not pruned.

use crate::support;

use crate::support::{assert_broken, exits, ok, ok_json, stderr, tamper};
use gatehouse_host::{AuditEvent, AuditKind};
use serde_json::json;
use tempfile::TempDir;

/// A data directory with rows 1 to 3 (`old-…`), then, a moment later, rows 4 to 6 (`new-…`),
/// written through the engine; returns it with the time of row 4, a cutoff between the two.
async fn old_then_new() -> (TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_engine(dir.path()).await;
    let batch = |prefix: &str| {
        (1..=3)
            .map(|i| AuditEvent {
                kind: AuditKind::CallFinished,
                server: Some("everything".into()),
                tool: Some("echo".into()),
                detail: json!({"note": format!("{prefix}-{i}")}),
                ..Default::default()
            })
            .collect::<Vec<_>>()
    };
    host.audit().append_all(batch("old")).await.expect("append");
    support::wait::next_millisecond();
    let new = host.audit().append_all(batch("new")).await.expect("append");
    host.shutdown().await;
    let cutoff = new.first().map(|r| r.at.clone()).expect("row 4");
    (dir, cutoff)
}

/// `old_then_new`, pruned before row 4: rows 4 to 6 kept, the anchor at row 7.
async fn pruned() -> TempDir {
    let (dir, cutoff) = old_then_new().await;
    ok(dir.path(), &["audit", "prune", "--before", &cutoff]);
    dir
}

#[tokio::test]
async fn prune_says_what_it_dropped_and_the_log_still_verifies() {
    let (dir, cutoff) = old_then_new().await;
    let data = dir.path();
    let said = ok(data, &["audit", "prune", "--before", &cutoff]);
    let listed = ok_json(data, &["audit", "list", "--json"]);
    let anchor = &listed["rows"][0];
    assert_eq!(
        said,
        format!(
            "pruned 3 audit rows written before {cutoff}; the chain now starts from the \
             retention anchor at row 7 (hash {})\n",
            anchor["hash"].as_str().unwrap_or("?")
        )
    );
    assert_eq!(anchor["seq"], 7);
    assert_eq!(anchor["kind"], "retention");
    assert_eq!(anchor["detail"]["throughSeq"], 3);
    assert_eq!(anchor["detail"]["dropped"], 3);
    assert_eq!(anchor["detail"]["before"], cutoff.as_str());
    assert_eq!(
        anchor["detail"]["throughHash"], listed["rows"][3]["prevHash"],
        "the anchor records the hash the first kept row (4) links to"
    );
    assert_eq!(
        listed["rows"].as_array().map(Vec::len),
        Some(4),
        "rows 4 to 6 and the anchor: {listed}"
    );
    assert!(ok(data, &["audit", "verify"]).starts_with("audit log intact: 4 rows\n"));
    assert_eq!(
        ok(data, &["audit", "search", "old*"]),
        "no audit rows\n",
        "the dropped rows are gone from search too"
    );

    let again = ok_json(data, &["audit", "prune", "--before", &cutoff, "--json"]);
    assert_eq!(
        again,
        json!({"dropped": 0, "before": cutoff, "anchor": null}),
        "nothing old left: a no-op"
    );
    let young = ok(data, &["audit", "prune", "--older-than", "30"]);
    assert!(
        young.starts_with("pruned 0 audit rows: none was written before "),
        "{young}"
    );

    support::wait::next_millisecond();
    let twice = ok_json(data, &["audit", "prune", "--older-than", "0", "--json"]);
    assert_eq!(
        twice["dropped"], 4,
        "rows 4 to 6 and the first anchor: {twice}"
    );
    assert_eq!(twice["anchor"]["seq"], 8);
    assert_eq!(twice["anchor"]["kind"], "retention");
    assert_eq!(twice["anchor"]["detail"]["throughSeq"], 7);
    assert!(ok(data, &["audit", "verify"]).starts_with("audit log intact: 1 rows\n"));

    exits(data, &["audit", "prune"], 2);
    exits(
        data,
        &[
            "audit",
            "prune",
            "--older-than",
            "1",
            "--before",
            "2026-01-01",
        ],
        2,
    );
    let bad = exits(data, &["audit", "prune", "--before", "last week"], 1);
    assert!(
        stderr(&bad).contains("is not a time"),
        "a malformed cutoff is an error, not a guess: {}",
        stderr(&bad)
    );
}

#[tokio::test]
async fn an_edited_kept_row_is_named() {
    let dir = pruned().await;
    tamper(
        dir.path(),
        "UPDATE audit_log SET detail = '{\"note\":\"nothing\"}' WHERE seq = 5",
    );
    assert_broken(
        dir.path(),
        "audit log broken at row 5: its content does not match its hash",
        "an edit after a pruning is caught as before",
    );
}

#[tokio::test]
async fn a_deleted_first_kept_row_is_named() {
    let dir = pruned().await;
    tamper(dir.path(), "DELETE FROM audit_log WHERE seq = 4");
    assert_broken(
        dir.path(),
        "audit log broken at row 5: row 4 is missing (the log starts at row 5, and the \
         retention anchor at row 7 records only rows 1 to 3 as pruned)",
        "removing the oldest kept row cannot pass for pruning",
    );
}

#[tokio::test]
async fn a_deleted_anchor_is_named() {
    let dir = pruned().await;
    tamper(dir.path(), "DELETE FROM audit_log WHERE seq = 7");
    assert_broken(
        dir.path(),
        "audit log broken at row 4: rows 1 to 3 are missing (the log starts at row 4, and no \
         retention anchor records them as pruned)",
        "without its anchor, a pruned log is a log missing its first rows",
    );
}

#[tokio::test]
async fn an_edited_anchor_is_named() {
    let dir = pruned().await;
    tamper(
        dir.path(),
        "UPDATE audit_log SET detail = json_set(detail, '$.dropped', 2) WHERE seq = 7",
    );
    assert_broken(
        dir.path(),
        "audit log broken at row 7: its content does not match its hash",
        "the anchor is a hashed row like any other",
    );
}

#[tokio::test]
async fn a_broken_log_is_not_pruned() {
    let (dir, cutoff) = old_then_new().await;
    tamper(dir.path(), "DELETE FROM audit_log WHERE seq = 2");
    let refused = exits(dir.path(), &["audit", "prune", "--before", &cutoff], 1);
    assert_eq!(
        stderr(&refused),
        "error: audit log broken at row 3: row 2 is missing (seq jumps from 1 to 3); nothing \
         was pruned, as pruning would remove the evidence\n"
    );
    let listed = ok_json(dir.path(), &["audit", "list", "--json"]);
    assert_eq!(
        listed["rows"].as_array().map(Vec::len),
        Some(5),
        "rows 1 and 3 to 6 are all still there: {listed}"
    );
}
