//! Searching and exporting the audit log on a real SQLite file (whose bundled SQLite has
//! FTS5): rows found by tool and by a word of their arguments, newest first; a redacted secret
//! not findable; query syntax taken literally; the index filled for rows older than it and the
//! chain still verifying; rows indexed off the appending path (a search finds what another
//! process just appended; an idle writer indexes its rows; pruning rows not yet indexed leaves
//! the index whole); JSONL and CSV exports matching `list`, 5,000 rows included.

use crate::support;

use crate::support::{open_host, seqs};
use gatehouse_host::audit::chain::GENESIS;
use gatehouse_host::audit::export::CSV_HEADER;
use gatehouse_host::{
    AuditEvent, AuditFilter, AuditKind, AuditLog, AuditRow, ExportFormat, HostError, VerifyReport,
};
use serde_json::{Value, json};

/// A call row for `tool` on `server` whose arguments hold `message`.
fn call(server: &str, tool: &str, message: &str) -> AuditEvent {
    AuditEvent {
        kind: AuditKind::RequestReceived,
        server: Some(server.into()),
        source: Some("user".into()),
        method: Some("tools/call".into()),
        tool: Some(tool.into()),
        detail: json!({"arguments": {"message": message}}),
        ..Default::default()
    }
}

#[tokio::test]
async fn rows_are_found_by_tool_and_by_a_word_of_their_arguments_newest_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    log.append_all(vec![
        call("everything", "echo", "hello from the first call"),
        call("memory", "create_entities", "a red bicycle"),
        call("everything", "echo", "hello again"),
        call("memory", "search_nodes", "bicycle-42 parts"),
    ])
    .await
    .expect("append");

    let echo = log.search("echo", None).await.expect("search");
    assert_eq!(seqs(&echo), [3, 1], "found by tool, newest first");
    assert_eq!(echo[0].event.tool.as_deref(), Some("echo"));
    let bicycle = log.search("bicycle", None).await.expect("search");
    assert_eq!(
        seqs(&bicycle),
        [4, 2],
        "a word inside the arguments is found"
    );
    assert_eq!(
        seqs(&log.search("HELLO again", None).await.expect("search")),
        [3],
        "every word must be in the row, in any case"
    );
    assert_eq!(
        seqs(&log.search("bicycle-42", None).await.expect("search")),
        [4],
        "a hyphenated word is matched as its tokens side by side"
    );
    assert_eq!(
        seqs(
            &log.search("memory tools/call", Some(1))
                .await
                .expect("search")
        ),
        [4],
        "server and method are indexed, and the limit is honoured"
    );
    assert_eq!(
        seqs(&log.search("bicy*", None).await.expect("search")),
        [4, 2],
        "a trailing * searches for a prefix"
    );
    assert!(
        log.search("unicycle", None)
            .await
            .expect("search")
            .is_empty()
    );
    assert_eq!(
        log.search("echo", None).await.expect("search")[0],
        log.list(&AuditFilter::default()).await.expect("list")[1],
        "a found row is the row as listed"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_redacted_secret_cannot_be_found_and_query_syntax_is_taken_literally() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host
        .audit()
        .clone()
        .with_secrets(vec!["hunter2-known".into()]);
    log.append(AuditEvent {
        detail: json!({"arguments": {"api_key": "sk-livezebra", "note": "keyed: hunter2-known"}}),
        ..call("everything", "echo", "keyed")
    })
    .await
    .expect("append");
    log.append(call("everything", "echo", "say \"hi AND bye"))
        .await
        .expect("append");

    for secret in ["sk-livezebra", "livezebra", "hunter2-known", "hunter2"] {
        assert!(
            log.search(secret, None).await.expect("search").is_empty(),
            "a redacted secret must not be findable: the index holds only what was stored"
        );
    }
    assert_eq!(
        seqs(&log.search("keyed redacted", None).await.expect("search")),
        [1],
        "the redaction marker is what was stored"
    );
    for text in [
        "\"hi",
        "hi AND",
        "AND",
        "NEAR(hi bye)",
        "detail:hi",
        "(",
        "*",
        "\"",
    ] {
        let found = log.search(text, None).await;
        assert!(
            found.is_ok(),
            "`{text}` is searched as words, never as FTS5 syntax: {found:?}"
        );
    }
    assert_eq!(
        seqs(&log.search("\"hi AND", None).await.expect("search")),
        [2],
        "quotes and operators are ordinary words"
    );
    let empty = log.search("  ", None).await;
    assert!(
        matches!(&empty, Err(HostError::Validation(m)) if m.contains("empty")),
        "nothing to search for is a clear validation error: {empty:?}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn rows_older_than_the_index_are_searchable_and_the_chain_still_verifies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("gatehouse.db");
    // The schema as it was before the search index: every migration older than it.
    let pool = support::database_before(&db, "20261123110000").await;
    // A row as the Gatehouse of that schema wrote it: its hash the plain SHA-256 of its columns.
    let columns = json!({
        "seq": 1, "at": "2026-11-23T09:00:00.000Z", "kind": "request_received",
        "server": "everything", "source": "user", "mcp_method_name": "tools/call",
        "gen_ai_tool_name": "echo", "jsonrpc_request_id": null, "correlation": null,
        "decision": null, "error_type": null, "network_transport": null, "duration_ms": null,
        "detail": json!({"arguments": {"message": "written before the index"}}).to_string(),
        "prev_hash": GENESIS,
    });
    sqlx::query(
        "INSERT INTO audit_log (seq, at, kind, server, source, mcp_method_name, \
         gen_ai_tool_name, detail, prev_hash, hash) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(columns["at"].as_str())
    .bind(columns["kind"].as_str())
    .bind(columns["server"].as_str())
    .bind(columns["source"].as_str())
    .bind(columns["mcp_method_name"].as_str())
    .bind(columns["gen_ai_tool_name"].as_str())
    .bind(columns["detail"].as_str())
    .bind(GENESIS)
    .bind(gatehouse_host::canonical::sha256(&columns))
    .execute(&pool)
    .await
    .expect("a row of the older schema");
    pool.close().await;

    let host = open_host(dir.path(), false).await;
    host.audit()
        .append(call("everything", "echo", "written after the index"))
        .await
        .expect("append");
    assert_eq!(
        seqs(&host.audit().search("written", None).await.expect("search")),
        [3, 1],
        "the migration indexes the rows already there; a search indexes the new ones first \
         (row 2 is where keying starts)"
    );
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 3 },
        "the index lives beside audit_log and changes none of its hashed columns, and the old \
         unkeyed row verifies as before, up to the keyed anchor"
    );
    host.shutdown().await;
}

/// The last row the search index holds.
async fn indexed_through(host: &gatehouse_host::Host) -> i64 {
    sqlx::query_scalar("SELECT through_seq FROM audit_search_position WHERE id = 1")
        .fetch_one(host.store().pool())
        .await
        .expect("the search position")
}

#[tokio::test]
async fn a_search_finds_what_another_process_just_appended_and_idle_writers_index_their_rows() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = open_host(dir.path(), false).await;
    let cli = open_host(dir.path(), false).await;
    cli.audit()
        .append(call("everything", "echo", "from the other process"))
        .await
        .expect("append");
    assert_eq!(
        seqs(
            &app.audit()
                .search("other process", None)
                .await
                .expect("search")
        ),
        [1],
        "a search indexes every committed row first, whoever appended it"
    );

    app.audit()
        .append(call("everything", "echo", "left for the idle writer"))
        .await
        .expect("append");
    assert_eq!(indexed_through(&app).await, 1, "appending does not index");
    support::wait::until(
        "an idle writer indexes the rows it appended",
        std::time::Duration::from_secs(10),
        || async {
            match indexed_through(&app).await {
                through if through >= 2 => Ok(()),
                through => Err(through),
            }
        },
    )
    .await;
    app.shutdown().await;
    cli.shutdown().await;
}

#[tokio::test]
async fn pruning_rows_not_yet_indexed_keeps_the_index_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    log.append_all(
        (0..3)
            .map(|i| call("everything", "echo", &format!("old {i}")))
            .collect(),
    )
    .await
    .expect("append");
    support::wait::next_millisecond().await;
    let new = log
        .append_all(vec![call("everything", "echo", "new row")])
        .await
        .expect("append");
    assert_eq!(indexed_through(&host).await, 0, "nothing indexed yet");
    let report = log.prune_before(&new[0].at).await.expect("prune");
    assert_eq!(report.dropped, 3);

    assert_eq!(seqs(&log.search("row", None).await.expect("search")), [4]);
    assert!(
        log.search("old", None).await.expect("search").is_empty(),
        "pruned rows are not found"
    );
    sqlx::query("INSERT INTO audit_search (audit_search) VALUES ('integrity-check')")
        .execute(host.store().pool())
        .await
        .expect("the index matches the rows it holds");
    assert_eq!(
        log.verify().await.expect("verify"),
        VerifyReport::Intact { rows: 2 },
        "the row kept and the anchor"
    );
    host.shutdown().await;
}

/// `log` exported in `format`, as text.
async fn exported(log: &AuditLog, format: ExportFormat) -> (u64, String) {
    let mut out = Vec::new();
    let count = log.export(format, &mut out).await.expect("export");
    (count, String::from_utf8(out).expect("UTF-8"))
}

#[tokio::test]
async fn jsonl_and_csv_exports_hold_every_row_as_listed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    log.append_all(vec![
        call("everything", "echo", "comma, \"quote\" and\nnewline"),
        AuditEvent {
            kind: AuditKind::CallFinished,
            duration_ms: Some(9),
            error_type: Some("tool_error".into()),
            ..call("memory", "echo", "plain")
        },
        call("everything", "add", "ünïcödé"),
    ])
    .await
    .expect("append");
    let mut listed = log.list(&AuditFilter::default()).await.expect("list");
    listed.reverse();

    let (count, jsonl) = exported(log, ExportFormat::Jsonl).await;
    assert_eq!(count, 3);
    let lines: Vec<AuditRow> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one row's JSON"))
        .collect();
    assert_eq!(lines, listed, "JSONL is `list`'s rows, oldest first");

    let (count, csv_text) = exported(log, ExportFormat::Csv).await;
    assert_eq!(count, 3);
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header, CSV_HEADER);
    let records: Vec<csv::StringRecord> = reader
        .records()
        .collect::<Result<_, _>>()
        .expect("every record parses");
    assert_eq!(
        records.len(),
        3,
        "one record per row, newlines inside quoted"
    );
    for (record, row) in records.iter().zip(&listed) {
        let json = serde_json::to_value(row).expect("JSON");
        for (cell, key) in record.iter().zip(CSV_HEADER) {
            let expected = match &json[key] {
                Value::Null => String::new(),
                Value::String(text) => text.clone(),
                // Numbers, and `detail` as its JSON text.
                other => other.to_string(),
            };
            assert_eq!(cell, expected, "column {key} of row {}", row.seq);
        }
    }
    host.shutdown().await;
}

#[tokio::test]
async fn an_export_of_5000_rows_is_complete_and_in_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    let log = host.audit();
    for batch in 0..50 {
        let events = (0..100)
            .map(|i| call("everything", "echo", &format!("row {}", batch * 100 + i)))
            .collect();
        log.append_all(events).await.expect("append");
    }
    let (count, jsonl) = exported(log, ExportFormat::Jsonl).await;
    assert_eq!(count, 5000, "every row, across pages of 1,000");
    let mut previous = GENESIS.to_owned();
    for (i, line) in jsonl.lines().enumerate() {
        let row: AuditRow = serde_json::from_str(line).expect("a row");
        assert_eq!(
            row.seq,
            i64::try_from(i).unwrap_or(i64::MAX) + 1,
            "oldest first"
        );
        assert_eq!(
            row.prev_hash, previous,
            "no row skipped or repeated at a page edge"
        );
        previous = row.hash;
    }
    let (count, csv_text) = exported(log, ExportFormat::Csv).await;
    assert_eq!(count, 5000);
    let records = csv::Reader::from_reader(csv_text.as_bytes())
        .records()
        .count();
    assert_eq!(records, 5000, "one CSV record per row");
    host.shutdown().await;
}
