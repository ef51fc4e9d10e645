//! Exporting the audit log: every row, oldest first, read a page at a time (so a log of
//! millions of rows is exported in bounded memory) and written to any [`Write`]r as
//!
//! - JSONL: one [`AuditRow`] JSON object per line, the shape `list` gives (camelCase keys,
//!   `detail` as JSON);
//! - CSV: a header row naming the same fields, then one record per row; `detail` is its stored
//!   JSON text and an absent value an empty cell. Quoting is the `csv` crate's (RFC 4180).
//!
//! The export reads one state of the log, in one read transaction: rows appended (or pruned)
//! meanwhile are left for the next export. Everything exported was redacted when it was written.

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::chain::{self, StoredRow};
use super::event::AuditRow;
use super::log::AuditLog;
use crate::error::{HostError, Result};

/// The CSV header: the JSON keys of an [`AuditRow`], in its order.
pub const CSV_HEADER: [&str; 17] = [
    "seq",
    "at",
    "kind",
    "server",
    "source",
    "method",
    "tool",
    "requestId",
    "correlation",
    "decision",
    "errorType",
    "transport",
    "durationMs",
    "detail",
    "hash",
    "prevHash",
    "keyId",
];

/// How rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Jsonl,
    Csv,
}

impl AuditLog {
    /// Writes every row to `writer` in `format`, oldest first, and returns how many. The
    /// writer is flushed at the end; an error writing is [`HostError::Io`].
    pub async fn export<W: Write>(&self, format: ExportFormat, writer: W) -> Result<u64> {
        // One read transaction: a pruning that commits meanwhile is not seen half done.
        let mut tx = self.pool.begin().await?;
        let last: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM audit_log")
            .fetch_one(&mut *tx)
            .await?;
        let mut sink = match format {
            ExportFormat::Jsonl => Sink::Jsonl(writer),
            ExportFormat::Csv => {
                let mut csv = csv::Writer::from_writer(writer);
                csv.write_record(CSV_HEADER).map_err(csv_error)?;
                Sink::Csv(Box::new(csv))
            }
        };
        let mut written = 0;
        let mut after = i64::MIN;
        'pages: loop {
            let page = chain::page_after(&mut tx, after).await?;
            if page.is_empty() {
                break;
            }
            for row in page {
                if row.seq > last {
                    break 'pages;
                }
                after = row.seq;
                sink.write(row)?;
                written += 1;
            }
        }
        sink.flush()?;
        tx.commit().await?;
        Ok(written)
    }
}

/// Where rows go, in one format.
enum Sink<W: Write> {
    Jsonl(W),
    Csv(Box<csv::Writer<W>>),
}

impl<W: Write> Sink<W> {
    fn write(&mut self, row: StoredRow) -> Result<()> {
        match self {
            Sink::Jsonl(out) => {
                let row: AuditRow = row.into_audit_row()?;
                serde_json::to_writer(&mut *out, &row).map_err(|e| match e.io_error_kind() {
                    Some(kind) => write_error(std::io::Error::new(kind, e)),
                    None => HostError::Corrupt(format!("cannot encode an audit row: {e}")),
                })?;
                out.write_all(b"\n").map_err(write_error)
            }
            Sink::Csv(out) => out.write_record(csv_record(&row)).map_err(csv_error),
        }
    }

    fn flush(&mut self) -> Result<()> {
        match self {
            Sink::Jsonl(out) => out.flush().map_err(write_error),
            Sink::Csv(out) => out.flush().map_err(write_error),
        }
    }
}

/// A row's CSV record, in [`CSV_HEADER`]'s order.
fn csv_record(row: &StoredRow) -> [String; 17] {
    let text = |field: &Option<String>| field.clone().unwrap_or_default();
    [
        row.seq.to_string(),
        row.at.clone(),
        row.kind.clone(),
        text(&row.server),
        text(&row.source),
        text(&row.mcp_method_name),
        text(&row.gen_ai_tool_name),
        text(&row.jsonrpc_request_id),
        text(&row.correlation),
        text(&row.decision),
        text(&row.error_type),
        text(&row.network_transport),
        row.duration_ms.map(|d| d.to_string()).unwrap_or_default(),
        row.detail.clone(),
        row.hash.clone(),
        row.prev_hash.clone(),
        text(&row.key_id),
    ]
}

fn write_error(source: std::io::Error) -> HostError {
    HostError::io("cannot write the audit export", source)
}

fn csv_error(error: csv::Error) -> HostError {
    match error.into_kind() {
        csv::ErrorKind::Io(source) => write_error(source),
        other => HostError::Corrupt(format!("cannot encode an audit row as CSV: {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oversight::audit::event::{AuditEvent, AuditKind};

    #[test]
    fn the_csv_header_names_the_json_keys_in_order() {
        let row = AuditRow {
            seq: 1,
            at: "2026-11-23T09:00:00.000Z".into(),
            event: AuditEvent {
                kind: AuditKind::Decision,
                ..Default::default()
            },
            hash: "a".into(),
            prev_hash: "b".into(),
            key_id: None,
        };
        let json = serde_json::to_value(&row).unwrap_or_default();
        let keys: Vec<&str> = json
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys, CSV_HEADER,
            "a CSV column must mean what the JSON key of the same name means"
        );
    }
}
