//! The audit log's lookup table, `audit_keys` (see its migration): the columns rows are looked
//! up by (time, kind, server, tool, source, decision), indexed there instead of on `audit_log`,
//! so that appending writes no index page. It holds the rows up to its last one and none after.
//!
//! [`CATCH_UP`] adds the rows after its last (the indexer runs it off the appending path);
//! [`rows_where`] is what readers select from: `audit_log`'s rows among the candidates, which
//! are the rows after the table's last (read by `seq`) and the rows the table finds by the given
//! conditions. A reader checks every condition again on `audit_log`'s columns, so what it
//! returns matches whatever this table holds.

/// Adds at most `?1` rows after the last one held, oldest first.
pub(crate) const CATCH_UP: &str = "INSERT INTO audit_keys \
     (seq, at, kind, server, gen_ai_tool_name, source, decision) \
     SELECT seq, at, kind, server, gen_ai_tool_name, source, decision FROM audit_log \
     WHERE seq > (SELECT COALESCE(MAX(seq), 0) FROM audit_keys) ORDER BY seq LIMIT ?1";

/// A `FROM` clause: the rows of `audit_log` (its columns unqualified) that are not yet in
/// `audit_keys`, and those that are and match `keyed` (conditions on its columns). Both parts
/// come in `seq` order, so `ORDER BY seq DESC LIMIT n` reads only as many as it returns. The
/// candidates drive the join (`CROSS JOIN` fixes SQLite's join order): left to choose, the
/// bundled SQLite scanned the whole of `audit_log` for a condition on its own columns, then
/// sorted what matched.
pub(crate) fn rows_where(keyed: &str) -> String {
    format!(
        "(SELECT seq FROM audit_log WHERE seq > (SELECT COALESCE(MAX(seq), 0) FROM audit_keys) \
         UNION ALL SELECT seq FROM audit_keys WHERE {keyed}) CROSS JOIN audit_log USING (seq)"
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rusqlite::Connection;
    use serde_json::json;

    use super::super::append_tx;
    use super::super::event::{AuditEvent, AuditKind};
    use super::super::indexer;
    use super::super::key_source::Keying;
    use super::super::log::AuditLog;
    use super::super::query::AuditFilter;
    use crate::store::storage::Store;

    fn row(kind: AuditKind, server: &str, tool: &str, source: &str) -> (AuditEvent, String) {
        let detail = json!({"arguments": {"message": "hi"}});
        let text = detail.to_string();
        let event = AuditEvent {
            kind,
            server: Some(server.into()),
            tool: Some(tool.into()),
            source: Some(source.into()),
            detail,
            ..Default::default()
        };
        (event, text)
    }

    fn append(connection: &mut Connection, rows: Vec<(AuditEvent, String)>) {
        let mut batches = vec![append_tx::Batch {
            prepared: rows,
            keying: Keying::Unkeyed("a test".into()),
            guard: None,
        }];
        if append_tx::write(connection, &mut batches).is_err() {
            panic!("the rows were not appended");
        }
    }

    fn keyed_through(connection: &Connection) -> Option<i64> {
        connection
            .query_row("SELECT MAX(seq) FROM audit_keys", [], |row| row.get(0))
            .expect("the lookup table's last row")
    }

    async fn seqs(log: &AuditLog, filter: AuditFilter) -> Vec<i64> {
        let rows = log.list(&filter).await.expect("list");
        rows.iter().map(|row| row.seq).collect()
    }

    #[tokio::test]
    async fn listings_find_rows_whether_or_not_the_lookup_table_holds_them_yet() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path()).await.expect("store");
        let mut connection = append_tx::open(store.path(), Duration::ZERO).expect("connection");
        use AuditKind::{CallFinished, CallStarted};
        append(
            &mut connection,
            vec![
                row(CallStarted, "everything", "echo", "user"),
                row(CallStarted, "memory", "add", "model"),
                row(CallFinished, "memory", "add", "model"),
            ],
        );
        assert_eq!(
            keyed_through(&connection),
            None,
            "appending writes nothing to the lookup table (no index page per commit)"
        );
        indexer::catch_up(&mut connection).expect("catch up");
        assert_eq!(keyed_through(&connection), Some(3), "the indexer adds them");
        append(
            &mut connection,
            vec![
                row(CallStarted, "everything", "add", "gateway"),
                row(CallFinished, "everything", "add", "gateway"),
                row(CallStarted, "memory", "echo", "user"),
            ],
        );
        assert_eq!(keyed_through(&connection), Some(3));

        let log = AuditLog::new(store.pool().clone());
        let by = |filter| seqs(&log, filter);
        assert_eq!(by(AuditFilter::default()).await, [6, 5, 4, 3, 2, 1]);
        let server = |name: &str| AuditFilter {
            server: Some(name.into()),
            ..Default::default()
        };
        assert_eq!(by(server("memory")).await, [6, 3, 2]);
        assert_eq!(by(server("everything")).await, [5, 4, 1]);
        let tool = AuditFilter {
            tool: Some("add".into()),
            ..Default::default()
        };
        assert_eq!(by(tool).await, [5, 4, 3, 2]);
        let finished = AuditFilter {
            outcome: Some("ok".into()),
            ..Default::default()
        };
        assert_eq!(by(finished).await, [5, 3]);
        let paged = AuditFilter {
            tool: Some("add".into()),
            limit: Some(2),
            offset: Some(1),
            ..Default::default()
        };
        assert_eq!(
            by(paged).await,
            [4, 3],
            "a page reads across the lookup table's last row in order"
        );
        let since = AuditFilter {
            since: Some("2000-01-01".into()),
            source: Some("user".into()),
            ..Default::default()
        };
        assert_eq!(by(since).await, [6, 1]);

        // A lookup table edited to misplace a row cannot make a listing return it.
        connection
            .execute("UPDATE audit_keys SET server = 'memory' WHERE seq = 1", [])
            .expect("edit the lookup table");
        assert_eq!(
            by(server("memory")).await,
            [6, 3, 2],
            "every condition is checked again on audit_log's own columns"
        );
        indexer::catch_up(&mut connection).expect("catch up");
        assert_eq!(keyed_through(&connection), Some(6));
        assert_eq!(by(server("memory")).await, [6, 3, 2]);
        store.close().await;
    }

    /// The steps of SQLite's plan for `sql`, joined.
    fn plan_of(connection: &Connection, sql: &str) -> String {
        let mut plan = connection
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .expect("plan");
        let steps: Vec<String> = plan
            .query_map([], |row| row.get(3))
            .expect("plan")
            .collect::<rusqlite::Result<_>>()
            .expect("plan");
        steps.join(" | ")
    }

    #[tokio::test]
    async fn a_listing_by_server_and_tool_reads_through_the_pairs_own_index() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path()).await.expect("store");
        let connection = append_tx::open(store.path(), Duration::ZERO).expect("connection");
        let keyed = "server = 'memory' AND gen_ai_tool_name = 'echo'";
        let plan = plan_of(
            &connection,
            &format!(
                "SELECT seq FROM {} WHERE {keyed} ORDER BY seq DESC LIMIT 100",
                super::rows_where(keyed)
            ),
        );
        assert!(
            plan.contains("audit_keys_server_tool"),
            "both equalities are looked up in one index, not one of them checked row by row: {plan}"
        );
        assert!(
            !plan.contains("TEMP B-TREE"),
            "the pair's rows come newest first without being sorted: {plan}"
        );
        store.close().await;
    }

    #[tokio::test]
    async fn the_lookup_table_drives_a_listing_newest_first_without_a_sort() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path()).await.expect("store");
        let connection = append_tx::open(store.path(), Duration::ZERO).expect("connection");
        let plan = plan_of(
            &connection,
            &format!(
                "SELECT seq FROM {} \
                 WHERE at >= '2026-11-01' AND source = 'user' ORDER BY seq DESC LIMIT 100",
                super::rows_where("at >= '2026-11-01'")
            ),
        );
        assert!(
            !plan.contains("SCAN audit_log"),
            "audit_log is read by seq, the candidates' order, never scanned whole: {plan}"
        );
        assert!(
            !plan.contains("TEMP B-TREE"),
            "the rows come newest first without being sorted: {plan}"
        );
        store.close().await;
    }
}
