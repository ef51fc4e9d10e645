//! The audit log in the host's integration tests: a keyed log and its checkpoint in the
//! keyring, the log handled as someone with the database file would (the append-only triggers
//! dropped, a row's columns read as the chain covers them), and what a check of it found.

use std::path::Path;

use gatehouse_host::audit::report::PartKind;
use gatehouse_host::secrets::{KeyringStore, SecretKey, SecretStore};
use gatehouse_host::{
    AuditEvent, AuditKind, AuditLog, ChainReport, CheckOptions, Checkpoint, Host, VerifyReport,
};
use serde_json::{Value, json};
use sqlx::SqlitePool;

/// Appends a finished `echo` call noted `note` for each of `notes`, in one batch.
pub async fn append(log: &AuditLog, notes: &[&str]) {
    let event = |note: &str| AuditEvent {
        kind: AuditKind::CallFinished,
        server: Some("everything".into()),
        source: Some("user".into()),
        tool: Some("echo".into()),
        detail: json!({"note": note}),
        ..Default::default()
    };
    log.append_all(notes.iter().map(|n| event(n)).collect())
        .await
        .expect("append");
}

/// The engine on `dir` with five keyed rows, checkpointed at row 5.
pub async fn keyed_log(dir: &Path) -> Host {
    let host = super::open_host(dir, false).await;
    append(host.audit(), &["one", "two", "three", "four", "five"]).await;
    host.audit().flush_checkpoint().await.expect("checkpoint");
    host
}

/// The id the data directory's key and checkpoint are kept under in the keyring.
pub async fn data_dir_id(host: &Host) -> String {
    sqlx::query_scalar("SELECT data_dir_id FROM audit_chain")
        .fetch_one(host.store().pool())
        .await
        .expect("the data directory id")
}

/// The checkpoint the keyring holds.
pub async fn checkpoint(log: &AuditLog) -> Option<Checkpoint> {
    log.checkpoint().await.expect("read")
}

/// The row the keyring's checkpoint records.
pub async fn checkpoint_seq(log: &AuditLog) -> Option<i64> {
    checkpoint(log).await.map(|c| c.seq)
}

/// Forgets the checkpoint the keyring holds, as if lost or rolled back with the keyring's file.
pub async fn forget_checkpoint(host: &Host) {
    KeyringStore
        .delete(&SecretKey::AuditHead {
            data_dir_id: data_dir_id(host).await,
        })
        .await
        .expect("forget the checkpoint");
}

/// Runs `sql`, which must change something, on the database as someone with the file would:
/// the append-only triggers dropped first and put back after, all on one connection, as one
/// person's `sqlite3` session would be.
pub async fn tamper(pool: &SqlitePool, sql: &str) {
    let mut connection = pool.acquire().await.expect("a connection");
    let triggers: Vec<(String, String)> = sqlx::query_as(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' \
         AND name IN ('audit_log_no_update', 'audit_log_no_delete')",
    )
    .fetch_all(&mut *connection)
    .await
    .expect("the triggers");
    assert_eq!(triggers.len(), 2, "both guards are there to get past");
    for (name, _) in &triggers {
        sqlx::query(&format!("DROP TRIGGER {name}"))
            .execute(&mut *connection)
            .await
            .expect("drop a trigger");
    }
    let done = sqlx::query(sql)
        .execute(&mut *connection)
        .await
        .unwrap_or_else(|e| panic!("`{sql}`: {e}"));
    assert!(done.rows_affected() > 0, "`{sql}` must change something");
    for (_, sql) in &triggers {
        sqlx::query(sql)
            .execute(&mut *connection)
            .await
            .expect("restore a trigger");
    }
}

/// Row `seq`'s columns as the chain covers them (an unkeyed row's: without `key_id`).
pub async fn columns(pool: &SqlitePool, seq: i64) -> Value {
    let text: String = sqlx::query_scalar(
        "SELECT json_object('seq', seq, 'at', at, 'kind', kind, 'server', server, \
         'source', source, 'mcp_method_name', mcp_method_name, \
         'gen_ai_tool_name', gen_ai_tool_name, 'jsonrpc_request_id', jsonrpc_request_id, \
         'correlation', correlation, 'decision', decision, 'error_type', error_type, \
         'network_transport', network_transport, 'duration_ms', duration_ms, \
         'detail', detail, 'prev_hash', prev_hash) FROM audit_log WHERE seq = ?",
    )
    .bind(seq)
    .fetch_one(pool)
    .await
    .expect("the row's columns");
    serde_json::from_str(&text).expect("JSON")
}

/// The chain broken at row `seq` for `reason`.
pub fn broken(seq: i64, reason: &str) -> VerifyReport {
    VerifyReport::Broken {
        seq,
        reason: reason.to_owned(),
    }
}

/// The full check of `log`, with the keyring's key and checkpoint only.
pub async fn check(log: &AuditLog) -> ChainReport {
    log.check(&CheckOptions::default()).await.expect("check")
}

/// The stretches a check found, each as (first row, last row, how it is keyed).
pub fn parts(report: &ChainReport) -> Vec<(i64, i64, PartKind)> {
    report
        .parts
        .iter()
        .map(|p| (p.from, p.to, p.kind))
        .collect()
}
