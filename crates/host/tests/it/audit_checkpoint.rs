//! The audit log's head checkpoint on a real SQLite file and the real keyring (gnome-keyring;
//! run under `scripts/with-keyring.sh`): a copy of it kept outside the keyring is checked, one
//! edited to vouch for less is not trusted, and the copy still catches a cut when the keyring's
//! checkpoint is lost; it is written at most once per interval, and shutting down flushes it.
//! What the checkpoint catches in the keyed chain is tested in audit_keyed.rs.

use std::time::Duration;

use crate::support::audit::{
    append, broken, check, checkpoint, checkpoint_seq, forget_checkpoint, keyed_log, tamper,
};
use crate::support::open_host;
use gatehouse_host::CheckOptions;
use gatehouse_host::audit::report::CheckpointStatus;

#[tokio::test]
async fn a_head_copy_is_checked_and_a_forged_one_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = keyed_log(dir.path()).await;
    let copy = checkpoint(host.audit()).await.expect("kept");
    assert_eq!(copy.seq, 5);
    let file = dir.path().join("head.json");
    std::fs::write(&file, serde_json::to_string(&copy).expect("json")).expect("write");
    let options = CheckOptions {
        head_copy: Some(file.clone()),
        ..Default::default()
    };
    let report = host.audit().check(&options).await.expect("check");
    assert_eq!(
        report.head_copy,
        Some(CheckpointStatus::Holds { seq: 5, newer: 0 })
    );

    // A copy edited to vouch for less is not trusted.
    let mut forged = copy.clone();
    forged.seq = 4;
    std::fs::write(&file, serde_json::to_string(&forged).expect("json")).expect("write");
    let report = host.audit().check(&options).await.expect("check");
    assert!(
        matches!(
            report.head_copy,
            Some(CheckpointStatus::NotAuthentic { .. })
        ),
        "{report:?}"
    );

    // The keyring's checkpoint lost (or rolled back with the keyring's file): the copy still
    // catches the cut.
    std::fs::write(&file, serde_json::to_string(&copy).expect("json")).expect("write");
    forget_checkpoint(&host).await;
    tamper(host.store().pool(), "DELETE FROM audit_log WHERE seq = 5").await;
    let report = host.audit().check(&options).await.expect("check");
    assert_eq!(report.checkpoint, CheckpointStatus::None);
    assert_eq!(
        report.result,
        broken(
            5,
            "row 5 is missing (the log ends at row 4, but the head checkpoint records row 5)"
        )
    );
    host.shutdown().await;
}

#[tokio::test]
async fn the_checkpoint_is_written_at_most_once_per_interval() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    log.set_checkpoint_interval(Duration::from_secs(3600));
    let mut written = log.checkpointed();
    append(log, &["one"]).await;
    tokio::time::timeout(Duration::from_secs(30), written.wait_for(|seq| *seq == 1))
        .await
        .expect("the first head is checkpointed at once")
        .expect("the log is alive");
    append(log, &["two", "three"]).await;
    // A read of the keyring after the writer published row 3: within the interval the
    // checkpoint stays at row 1.
    assert_eq!(checkpoint_seq(log).await, Some(1));
    let report = check(log).await;
    assert_eq!(
        report.checkpoint,
        CheckpointStatus::Holds { seq: 1, newer: 2 }
    );
    log.flush_checkpoint().await.expect("flush");
    assert_eq!(checkpoint_seq(log).await, Some(3));
    // Shutting down flushes what is pending.
    append(log, &["four"]).await;
    host.shutdown().await;
    let host = open_host(dir.path(), false).await;
    assert_eq!(checkpoint_seq(host.audit()).await, Some(4));
    host.shutdown().await;
}
