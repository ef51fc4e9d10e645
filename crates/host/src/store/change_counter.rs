//! The store's change counter (`store_changes`), moved on by triggers in the very transaction
//! of any change to a server, a policy rule or a trust setting, whichever process makes it:
//! read over rusqlite by what keeps something those decide (the gate's policy snapshots, the
//! audit writer's guarded appends). The engine's follower reads it through the `sqlx` pool.

/// The counter as `connection` sees it (inside its transaction, when one is open).
pub(crate) fn read(connection: &rusqlite::Connection) -> rusqlite::Result<i64> {
    connection
        .prepare_cached("SELECT n FROM store_changes WHERE id = 1")
        .and_then(|mut statement| statement.query_row([], |row| row.get(0)))
}
