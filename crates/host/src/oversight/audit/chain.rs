//! The hash chain and the writer. A row's `hash` is computed over the RFC 8785 canonical JSON
//! (JCS) of an object holding every other column under its column name (`detail` as the stored
//! JSON text), `prev_hash` included, so changing any stored byte of a row, or removing a row,
//! breaks the chain from there on:
//!
//! - a keyed row (its `key_id` names the key) holds the hex HMAC-SHA256 of that JSON under the
//!   data directory's key ([`super::key`]), so only a holder of the key can write a row that
//!   checks;
//! - an unkeyed row (no `key_id`: written before keying began, or while the OS keyring was
//!   unavailable) holds its plain hex SHA-256, which anyone can recompute. Its JSON has no
//!   `key_id` member, so chains written before keying existed verify as they always did.
//!
//! Appending runs in one `BEGIN IMMEDIATE` transaction: it takes SQLite's write lock before
//! reading the last row, so writers in several processes (the app and CLI processes on one
//! database) queue on the store's busy timeout and each extends the chain the previous one left.
//! This process's appends are written by [`super::writer`]; [`append_linked`] is for the one
//! append made in another transaction, a pruning's anchor.

use serde::Serialize;
use sqlx::Row;
use sqlx::SqliteConnection;
use sqlx::sqlite::SqliteRow;

use super::event::{AuditEvent, AuditRow};
use super::key::AuditKey;
use super::key_source::Keying;
use crate::error::{HostError, Result};

/// The `prev_hash` of the first row.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The table's columns, in the order [`StoredRow::from_row`] reads them.
pub(crate) const COLUMNS: &str = "seq, at, kind, server, source, mcp_method_name, \
    gen_ai_tool_name, jsonrpc_request_id, correlation, decision, error_type, network_transport, \
    duration_ms, detail, prev_hash, hash, key_id";

/// How many rows are read at a time when the whole log is read (verifying, exporting).
pub(crate) const PAGE: i64 = 1000;

/// A row exactly as stored; its hash is computed from these values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct StoredRow {
    pub seq: i64,
    pub at: String,
    pub kind: String,
    pub server: Option<String>,
    pub source: Option<String>,
    pub mcp_method_name: Option<String>,
    pub gen_ai_tool_name: Option<String>,
    pub jsonrpc_request_id: Option<String>,
    pub correlation: Option<String>,
    pub decision: Option<String>,
    pub error_type: Option<String>,
    pub network_transport: Option<String>,
    pub duration_ms: Option<i64>,
    pub detail: String,
    pub prev_hash: String,
    #[serde(skip)]
    pub hash: String,
    /// The id of the key this row is keyed with; `None` for an unkeyed row (and then left out
    /// of the JSON, as before keying existed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
}

impl StoredRow {
    /// The row to store for `event` (already redacted) at `seq`, after `prev_hash`, keyed as
    /// `keying` says.
    pub fn new(
        event: &AuditEvent,
        detail: String,
        (seq, at, prev_hash): (i64, &str, &str),
        keying: &Keying,
    ) -> Self {
        let mut row = StoredRow {
            seq,
            at: at.to_owned(),
            kind: event.kind.as_str().to_owned(),
            server: event.server.clone(),
            source: event.source.clone(),
            mcp_method_name: event.method.clone(),
            gen_ai_tool_name: event.tool.clone(),
            jsonrpc_request_id: event.request_id.clone(),
            correlation: event.correlation.clone(),
            decision: event.decision.clone(),
            error_type: event.error_type.clone(),
            network_transport: event.transport.clone(),
            duration_ms: event
                .duration_ms
                .map(|d| i64::try_from(d).unwrap_or(i64::MAX)),
            detail,
            prev_hash: prev_hash.to_owned(),
            hash: String::new(),
            key_id: None,
        };
        match keying {
            Keying::Keyed(key) => {
                row.key_id = Some(key.id().to_owned());
                row.hash = row.mac(key);
            }
            Keying::Unkeyed(_) => row.hash = row.content_hash(),
        }
        row
    }

    pub fn from_row(row: &SqliteRow) -> Result<Self> {
        Ok(StoredRow {
            seq: row.try_get("seq")?,
            at: row.try_get("at")?,
            kind: row.try_get("kind")?,
            server: row.try_get("server")?,
            source: row.try_get("source")?,
            mcp_method_name: row.try_get("mcp_method_name")?,
            gen_ai_tool_name: row.try_get("gen_ai_tool_name")?,
            jsonrpc_request_id: row.try_get("jsonrpc_request_id")?,
            correlation: row.try_get("correlation")?,
            decision: row.try_get("decision")?,
            error_type: row.try_get("error_type")?,
            network_transport: row.try_get("network_transport")?,
            duration_ms: row.try_get("duration_ms")?,
            detail: row.try_get("detail")?,
            prev_hash: row.try_get("prev_hash")?,
            hash: row.try_get("hash")?,
            key_id: row.try_get("key_id")?,
        })
    }

    /// Hex SHA-256 of the canonical JSON of every column but `hash`: an unkeyed row's hash.
    pub fn content_hash(&self) -> String {
        use sha2::{Digest, Sha256};
        format!("{:x}", Sha256::digest(self.canonical()))
    }

    /// Hex HMAC-SHA256 under `key` of the same JSON: a keyed row's hash.
    pub fn mac(&self, key: &AuditKey) -> String {
        key.mac(&self.canonical())
    }

    /// Whether the stored `hash` is this row's hash under `key` (compared in constant time).
    pub fn mac_checks(&self, key: &AuditKey) -> bool {
        key.verifies(&self.canonical(), &self.hash)
    }

    /// The RFC 8785 canonical JSON of every column but `hash` (`key_id` only when set), as
    /// `serde_jcs` writes it of this struct, without its general machinery: the fields are
    /// strings, integers and nulls, whose JSON `serde_json` writes exactly as RFC 8785 does
    /// (§3.2.2.2: the same escapes, lowercase hex), so writing them in the order RFC 8785 sorts
    /// their names gives the same bytes (tested against `serde_jcs`). An integer past 2^53,
    /// which RFC 8785 writes as the double it rounds to, leaves the row to `serde_jcs`.
    pub fn canonical(&self) -> Vec<u8> {
        const EXACT: i64 = 1 << 53;
        let exact = |n: i64| (-EXACT..=EXACT).contains(&n);
        if !exact(self.seq) || !self.duration_ms.is_none_or(exact) {
            return serde_jcs::to_vec(self).unwrap_or_default();
        }
        let hashed = Hashed {
            at: &self.at,
            correlation: self.correlation.as_deref(),
            decision: self.decision.as_deref(),
            detail: &self.detail,
            duration_ms: self.duration_ms,
            error_type: self.error_type.as_deref(),
            gen_ai_tool_name: self.gen_ai_tool_name.as_deref(),
            jsonrpc_request_id: self.jsonrpc_request_id.as_deref(),
            key_id: self.key_id.as_deref(),
            kind: &self.kind,
            mcp_method_name: self.mcp_method_name.as_deref(),
            network_transport: self.network_transport.as_deref(),
            prev_hash: &self.prev_hash,
            seq: self.seq,
            server: self.server.as_deref(),
            source: self.source.as_deref(),
        };
        serde_json::to_vec(&hashed).unwrap_or_default()
    }

    /// The row as listed, with `detail` parsed back.
    pub fn into_audit_row(self) -> Result<AuditRow> {
        let detail = serde_json::from_str(&self.detail).map_err(|e| {
            HostError::Corrupt(format!("audit row {} has invalid detail: {e}", self.seq))
        })?;
        Ok(AuditRow {
            seq: self.seq,
            at: self.at,
            event: AuditEvent {
                kind: self.kind.parse()?,
                server: self.server,
                source: self.source,
                method: self.mcp_method_name,
                tool: self.gen_ai_tool_name,
                request_id: self.jsonrpc_request_id,
                correlation: self.correlation,
                decision: self.decision,
                error_type: self.error_type,
                transport: self.network_transport,
                duration_ms: self.duration_ms.and_then(|d| u64::try_from(d).ok()),
                detail,
            },
            hash: self.hash,
            prev_hash: self.prev_hash,
            key_id: self.key_id,
        })
    }
}

/// A row's hashed columns in the order RFC 8785 sorts their names (by UTF-16 code units; all
/// are ASCII here).
#[derive(Serialize)]
struct Hashed<'a> {
    at: &'a str,
    correlation: Option<&'a str>,
    decision: Option<&'a str>,
    detail: &'a str,
    duration_ms: Option<i64>,
    error_type: Option<&'a str>,
    gen_ai_tool_name: Option<&'a str>,
    jsonrpc_request_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    key_id: Option<&'a str>,
    kind: &'a str,
    mcp_method_name: Option<&'a str>,
    network_transport: Option<&'a str>,
    prev_hash: &'a str,
    seq: i64,
    server: Option<&'a str>,
    source: Option<&'a str>,
}

/// "row N is missing" or "rows N to M are missing".
pub(crate) fn missing(from: i64, to: i64) -> String {
    if from == to {
        format!("row {from} is missing")
    } else {
        format!("rows {from} to {to} are missing")
    }
}

/// Appends `prepared` events as rows `seq + 1`, `seq + 2`, …, the first linking to `prev_hash`
/// (the last row's, or that of the last row pruned in this very transaction).
pub(crate) async fn append_linked(
    tx: &mut SqliteConnection,
    (mut seq, mut prev_hash): (i64, String),
    prepared: Vec<(AuditEvent, String)>,
    keying: &Keying,
) -> Result<Vec<AuditRow>> {
    let at: String = sqlx::query_scalar("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')")
        .fetch_one(&mut *tx)
        .await?;
    let mut written = Vec::with_capacity(prepared.len());
    for (event, detail) in prepared {
        seq += 1;
        let row = StoredRow::new(&event, detail, (seq, &at, &prev_hash), keying);
        insert(&mut *tx, &row).await?;
        prev_hash.clone_from(&row.hash);
        written.push(AuditRow {
            seq,
            at: row.at,
            event,
            hash: row.hash,
            prev_hash: row.prev_hash,
            key_id: row.key_id,
        });
    }
    Ok(written)
}

/// The `seq` and `hash` the next row links to: the last row's, or 0 and [`GENESIS`].
pub(crate) async fn last_link(conn: &mut SqliteConnection) -> Result<(i64, String)> {
    let last = sqlx::query("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1")
        .fetch_optional(conn)
        .await?;
    match last {
        Some(row) => Ok((row.try_get::<i64, _>("seq")?, row.try_get("hash")?)),
        None => Ok((0, GENESIS.to_owned())),
    }
}

/// At most [`PAGE`] rows after `seq` `after`, oldest first: the whole log is read a page at a
/// time, in bounded memory, by following the last `seq` of each page. Readers that must see one
/// state of the log (verifying, exporting, pruning) call it within one transaction.
pub(crate) async fn page_after(conn: &mut SqliteConnection, after: i64) -> Result<Vec<StoredRow>> {
    let sql = format!("SELECT {COLUMNS} FROM audit_log WHERE seq > ? ORDER BY seq LIMIT {PAGE}");
    let rows = sqlx::query(&sql).bind(after).fetch_all(conn).await?;
    rows.iter().map(StoredRow::from_row).collect()
}

async fn insert(tx: &mut SqliteConnection, row: &StoredRow) -> Result<()> {
    let sql = format!(
        "INSERT INTO audit_log ({COLUMNS}) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    );
    sqlx::query(&sql)
        .bind(row.seq)
        .bind(&row.at)
        .bind(&row.kind)
        .bind(&row.server)
        .bind(&row.source)
        .bind(&row.mcp_method_name)
        .bind(&row.gen_ai_tool_name)
        .bind(&row.jsonrpc_request_id)
        .bind(&row.correlation)
        .bind(&row.decision)
        .bind(&row.error_type)
        .bind(&row.network_transport)
        .bind(row.duration_ms)
        .bind(&row.detail)
        .bind(&row.prev_hash)
        .bind(&row.hash)
        .bind(&row.key_id)
        .execute(tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oversight::audit::event::AuditKind;

    fn row(detail: &str, prev: &str) -> StoredRow {
        let event = AuditEvent {
            kind: AuditKind::CallStarted,
            tool: Some("echo".into()),
            ..Default::default()
        };
        let unkeyed = Keying::Unkeyed("test".into());
        StoredRow::new(
            &event,
            detail.into(),
            (1, "2026-11-23T09:00:00.000Z", prev),
            &unkeyed,
        )
    }

    #[test]
    fn the_hash_covers_every_column_and_the_link() {
        let base = row("{}", GENESIS);
        assert_eq!(base.hash.len(), 64, "hex SHA-256");
        assert_eq!(base.hash, base.content_hash(), "the hash is reproducible");
        assert_ne!(
            row("{\"a\":1}", GENESIS).hash,
            base.hash,
            "a changed detail must change the hash"
        );
        assert_ne!(
            row("{}", &"1".repeat(64)).hash,
            base.hash,
            "the link is hashed, so rows cannot be re-chained unnoticed"
        );
        let mut moved = base.clone();
        moved.seq = 2;
        assert_ne!(moved.content_hash(), base.hash, "the position is hashed");
    }

    #[test]
    fn the_hash_is_over_canonical_json() {
        let base = row("{}", GENESIS);
        let canonical = serde_jcs::to_string(&base).unwrap_or_default();
        assert!(
            canonical.starts_with("{\"at\":\"2026-11-23T09:00:00.000Z\",\"correlation\":null"),
            "keys sorted, no whitespace, nulls kept (RFC 8785): {canonical}"
        );
        assert!(
            !canonical.contains("\"hash\""),
            "a hash cannot cover itself"
        );
    }

    /// Every kind of text a row may hold (quotes, backslashes, every control character, DEL,
    /// the line separators ECMAScript once escaped, accents, emoji), every column set and unset,
    /// keyed and not: the canonical JSON written here is byte for byte `serde_jcs`'s, so rows
    /// hashed before and after it verify alike.
    #[test]
    fn the_canonical_json_is_serde_jcs_byte_for_byte() {
        let controls: String = (0u8..0x20).map(char::from).collect();
        let texts = [
            String::new(),
            "plain".to_owned(),
            "quote \" backslash \\ slash /".to_owned(),
            controls,
            "\u{7f} del, \u{2028} \u{2029} separators".to_owned(),
            "é ü ß 中文 😀 \u{10FFFF}".to_owned(),
            r#"{"arguments":{"path":"C:\\x","n":-1.5e3}}"#.to_owned(),
        ];
        for (i, text) in texts.iter().enumerate() {
            let set = |on: bool| on.then(|| text.clone());
            for on in [false, true] {
                let row = StoredRow {
                    seq: i64::try_from(i).unwrap_or(0) * 1_000_000_007 + 1,
                    at: text.clone(),
                    kind: text.clone(),
                    server: set(on),
                    source: set(!on),
                    mcp_method_name: set(on),
                    gen_ai_tool_name: set(!on),
                    jsonrpc_request_id: set(on),
                    correlation: set(!on),
                    decision: set(on),
                    error_type: set(!on),
                    network_transport: set(on),
                    // Past 2^53 on even texts (left to `serde_jcs`), within it on odd ones.
                    duration_ms: on.then_some(if i % 2 == 0 { i64::MAX - 3 } else { 86_400_000 }),
                    detail: text.clone(),
                    prev_hash: text.clone(),
                    hash: "not hashed".to_owned(),
                    key_id: set(on),
                };
                let reference = serde_jcs::to_vec(&row).expect("serde_jcs");
                assert_eq!(
                    String::from_utf8_lossy(&row.canonical()),
                    String::from_utf8_lossy(&reference),
                    "text {i}, columns set: {on}"
                );
            }
        }
    }
}
