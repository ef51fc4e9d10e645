//! The indexes kept off the appending path brought up to date: the lookup table `audit_keys`
//! ([`super::keys`]) and the `audit_search` FTS5 index. The rows appended after the last one
//! each holds are added in transactions of at most [`CHUNK`] rows each; the search index's
//! position is recorded in `audit_search_position`, the lookup table's is its last row.
//!
//! Appending does not index (an FTS5 segment per commit cost more than the rest of an append,
//! and the lookup columns' indexes about half of it): each process's audit writer catches up
//! when it is idle or has written [`BACKLOG`] rows, and a search catches up first, so it finds
//! every row committed before it began (a listing needs no catching up: it also reads the rows
//! after the lookup table's last). Rows are indexed whoever wrote them; the immediate
//! transaction makes processes take turns.

use rusqlite::{Connection, TransactionBehavior};

use super::keys;

/// The most rows indexed in one transaction.
pub const CHUNK: i64 = 2000;

/// Rows a writer appends before it indexes them even while busy.
pub const BACKLOG: usize = 5000;

/// Indexes every row not yet indexed; returns how many it added to the search index.
pub(crate) fn catch_up(connection: &mut Connection) -> rusqlite::Result<usize> {
    let mut indexed = 0;
    loop {
        let tx = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let keyed = tx.prepare_cached(keys::CATCH_UP)?.execute([CHUNK])?;
        let from: i64 = tx.query_row(
            "SELECT through_seq FROM audit_search_position WHERE id = 1",
            [],
            |row| row.get(0),
        )?;
        let through: Option<i64> = tx.query_row(
            "SELECT MAX(seq) FROM (SELECT seq FROM audit_log WHERE seq > ?1 ORDER BY seq LIMIT ?2)",
            [from, CHUNK],
            |row| row.get(0),
        )?;
        let added = match through {
            Some(through) => {
                let added = tx.execute(
                    "INSERT INTO audit_search (rowid, server, gen_ai_tool_name, source, decision, \
                     mcp_method_name, detail) \
                     SELECT seq, server, gen_ai_tool_name, source, decision, mcp_method_name, \
                     detail FROM audit_log WHERE seq > ?1 AND seq <= ?2",
                    [from, through],
                )?;
                tx.execute(
                    "UPDATE audit_search_position SET through_seq = ?1 WHERE id = 1",
                    [through],
                )?;
                added
            }
            None => 0,
        };
        tx.commit()?;
        indexed += added;
        if keyed == 0 && through.is_none() {
            return Ok(indexed);
        }
    }
}
