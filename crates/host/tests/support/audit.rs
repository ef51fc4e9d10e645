//! The audit log in the host's integration tests, handled as someone with the database file
//! would (the append-only triggers dropped, a row's columns read as the chain covers them), and
//! what a check of it found.

use gatehouse_host::audit::report::PartKind;
use gatehouse_host::{AuditLog, ChainReport, CheckOptions, VerifyReport};
use serde_json::Value;
use sqlx::SqlitePool;

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
