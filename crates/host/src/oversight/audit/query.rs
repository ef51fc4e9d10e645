//! Listing the audit log: the newest rows first, narrowed by time range, server, tool, source,
//! decision, outcome (`ok`, `error` or one `error.type`) and gateway client, a page at a time (`limit`, at
//! most [`MAX_LIMIT`], and `offset`).

use serde::{Deserialize, Serialize};

use super::chain::{COLUMNS, StoredRow};
use super::event::AuditRow;
use super::keys;
use super::log::AuditLog;
use crate::error::{HostError, Result};

/// How many rows a listing returns when no limit is given.
pub const DEFAULT_LIMIT: u32 = 100;

/// The most rows one listing returns, whatever limit is asked for.
pub const MAX_LIMIT: u32 = 10_000;

/// Which rows to list. Empty fields do not narrow.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AuditFilter {
    /// Rows written at or after this time: RFC 3339 (`2026-11-23T09:00:00Z`, an offset such as
    /// `+01:00`, or fractional seconds), or a date (`2026-11-23`, midnight UTC).
    pub since: Option<String>,
    /// Rows written before this time, in the same forms as `since`.
    pub until: Option<String>,
    /// The server's name, exactly.
    pub server: Option<String>,
    /// The tool's name (`gen_ai.tool.name`), exactly.
    pub tool: Option<String>,
    /// `user`, `server`, `app`, `model` or `gateway`.
    pub source: Option<String>,
    /// A gateway client's name: the rows of its requests (each names it in `detail.caller`).
    pub client: Option<String>,
    /// The decision of decision rows: `allow`, `deny`, `ask`, …, exactly.
    pub decision: Option<String>,
    /// How a row ended: `ok` (a finished call without an error), `error` (any `error.type`), or
    /// one `error.type` exactly (such as `tool_error`).
    pub outcome: Option<String>,
    /// At most this many rows (default 100, at most 10 000).
    pub limit: Option<u32>,
    /// Skip this many of the matching rows first (default 0), for the next page.
    pub offset: Option<u32>,
}

/// SQL conditions joined with `AND`, and the values their placeholders take, in order.
#[derive(Default)]
struct Conditions {
    clauses: Vec<&'static str>,
    values: Vec<String>,
}

impl Conditions {
    fn push(&mut self, clause: &'static str, value: Option<String>) {
        self.clauses.push(clause);
        self.values.extend(value);
    }

    /// The conditions, each in parentheses; `1 = 1` when there are none.
    fn sql(&self) -> String {
        let mut sql = String::from("1 = 1");
        for clause in &self.clauses {
            sql.push_str(" AND (");
            sql.push_str(clause);
            sql.push(')');
        }
        sql
    }
}

impl AuditLog {
    /// The rows that match `filter`, newest first.
    pub async fn list(&self, filter: &AuditFilter) -> Result<Vec<AuditRow>> {
        // Conditions on `audit_keys`' columns narrow the candidates through its indexes, and
        // are checked again on `audit_log`'s, as every other condition is.
        let mut shared: Vec<(&'static str, String)> = Vec::new();
        if let Some(text) = &filter.since {
            shared.push(("at >= ?", self.normalise_time(text).await?));
        }
        if let Some(text) = &filter.until {
            shared.push(("at < ?", self.normalise_time(text).await?));
        }
        for (value, clause) in [
            (&filter.server, "server = ?"),
            (&filter.tool, "gen_ai_tool_name = ?"),
            (&filter.source, "source = ?"),
            (&filter.decision, "decision = ?"),
        ] {
            if let Some(value) = value {
                shared.push((clause, value.clone()));
            }
        }
        let mut keyed = Conditions::default();
        let mut clauses = Conditions::default();
        for (clause, value) in shared {
            keyed.push(clause, Some(value.clone()));
            clauses.push(clause, Some(value));
        }
        if let Some(client) = &filter.client {
            keyed.push("source = 'gateway'", None);
            // `detail` may be a summary that is not JSON: json_extract would fail on it.
            clauses.push(
                "source = 'gateway' AND CASE WHEN json_valid(detail) THEN json_extract(detail, '$.caller') END = ?",
                Some(client.clone()),
            );
        }
        match filter.outcome.as_deref() {
            None => {}
            Some("ok") => {
                keyed.push("kind = 'call_finished'", None);
                clauses.push("kind = 'call_finished' AND error_type IS NULL", None);
            }
            Some("error") => clauses.push("error_type IS NOT NULL", None),
            Some(error_type) => clauses.push("error_type = ?", Some(error_type.to_owned())),
        }
        // With nothing to look up by, reading the table newest first is quickest.
        let from = if keyed.clauses.is_empty() {
            "audit_log".to_owned()
        } else {
            keys::rows_where(&keyed.sql())
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM {from} WHERE {} ORDER BY seq DESC LIMIT ? OFFSET ?",
            clauses.sql()
        );
        let mut query = sqlx::query(&sql);
        for value in keyed.values.iter().chain(&clauses.values) {
            query = query.bind(value);
        }
        let limit = filter.limit.unwrap_or(DEFAULT_LIMIT).min(MAX_LIMIT);
        let offset = filter.offset.unwrap_or(0);
        let rows = query
            .bind(i64::from(limit))
            .bind(i64::from(offset))
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| StoredRow::from_row(row)?.into_audit_row())
            .collect()
    }

    /// `text` as the stored form of a time (UTC, milliseconds), so that it compares as text.
    pub(super) async fn normalise_time(&self, text: &str) -> Result<String> {
        let parsed: Option<String> = sqlx::query_scalar("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ?)")
            .bind(text.trim())
            .fetch_one(&self.pool)
            .await?;
        parsed.ok_or_else(|| {
            HostError::Validation(format!(
                "`{text}` is not a time: use RFC 3339, such as 2026-11-23T09:00:00Z"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn since_accepts_rfc_3339_forms_and_refuses_anything_else() {
        let pool = sqlx::sqlite::SqlitePoolOptions::new()
            .connect("sqlite::memory:")
            .await
            .expect("in-memory database");
        let log = AuditLog::new(pool);
        for (given, stored) in [
            ("2026-11-23T09:00:00Z", "2026-11-23T09:00:00.000Z"),
            ("2026-11-23T10:00:00.5+01:00", "2026-11-23T09:00:00.500Z"),
            ("2026-11-23", "2026-11-23T00:00:00.000Z"),
        ] {
            assert_eq!(
                log.normalise_time(given).await.ok().as_deref(),
                Some(stored),
                "`{given}` must compare as the stored UTC text, or --since misses rows"
            );
        }
        assert!(matches!(
            log.normalise_time("yesterday").await,
            Err(HostError::Validation(_))
        ));
    }
}
