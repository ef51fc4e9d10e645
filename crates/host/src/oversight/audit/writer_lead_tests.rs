//! Who commits the audit log's appends: once the writer's thread has led (an append the
//! database was too busy for in place), a lone caller's next appends commit in place again
//! instead of each waking the thread and waiting for it.

use std::future::Future;
use std::task::Poll;
use std::time::Duration;

use rusqlite::TransactionBehavior;

use super::append_tx;
use super::event::{AuditEvent, AuditKind};
use super::log::AuditLog;
use super::query::AuditFilter;
use super::writer::LONE_BATCHES;
use crate::store::storage::Store;

fn event(n: usize) -> AuditEvent {
    AuditEvent {
        kind: AuditKind::CallStarted,
        server: Some("everything".into()),
        tool: Some("echo".into()),
        detail: serde_json::json!({"arguments": {"n": n}}),
        ..Default::default()
    }
}

/// Sequential appends after the thread has led.
const AFTER: usize = 100;

#[tokio::test]
async fn a_lone_caller_commits_in_place_again_once_the_thread_has_led() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path()).await.expect("store");
    let log = AuditLog::new(store.pool().clone());

    // Another connection holds the write lock: the first append cannot commit in place, so the
    // thread takes it and waits for the lock. Its first poll gets that far (the log has no
    // keyring to wait for, and committing in place gives up at once on a busy database).
    let mut blocker = append_tx::open(store.path(), Duration::ZERO).expect("connection");
    let lock = blocker
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .expect("the write lock");
    let mut first = std::pin::pin!(log.append(event(0)));
    let waiting =
        std::future::poll_fn(|cx| Poll::Ready(first.as_mut().poll(cx).is_pending())).await;
    assert!(waiting, "the first append waits for the write lock");
    assert!(
        log.writer.thread_lead().0,
        "the busy append was handed to the writer's thread"
    );
    lock.commit().expect("the write lock released");
    tokio::time::timeout(Duration::from_secs(20), first)
        .await
        .expect("the thread committed the first append within 20 s")
        .expect("the first append");
    assert_eq!(log.writer.thread_lead().1, 1, "the thread committed it");

    for n in 1..=AFTER {
        log.append(event(n)).await.expect("append");
    }
    let by_thread = log.writer.thread_lead().1;
    // Each came alone, well within the thread's lingering time: the thread commits
    // [`LONE_BATCHES`] of them (the first included) and then lets go; before, it committed every
    // one. One may still find the thread about to give the lead back, so a few more are allowed.
    assert!(
        by_thread <= LONE_BATCHES + 3,
        "{by_thread} of {} appends were committed by the thread, not in place",
        AFTER + 1
    );
    let all = AuditFilter {
        limit: Some(1000),
        ..Default::default()
    };
    let rows = log.list(&all).await.expect("list");
    assert_eq!(rows.len(), AFTER + 1, "every append is on record");
}
