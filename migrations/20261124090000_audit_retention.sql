-- Retention: `gatehouse audit prune` drops the audit rows older than a cutoff, oldest first,
-- and appends a `retention` row (the anchor) recording the seq and hash of the last row it
-- dropped, so the chain still verifies from there (see crates/host/src/audit/retention.rs).
--
-- The table still refuses deletes, except of the rows a pruning transaction has declared in
-- `audit_prune`: it inserts the last seq it drops, deletes, and removes its row again before
-- committing, so the table is empty outside that transaction. Like the other triggers, this
-- stops accidents; the hash chain is what detects a deliberate removal.
CREATE TABLE audit_prune (
    through_seq INTEGER NOT NULL
);

DROP TRIGGER audit_log_no_delete;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
WHEN old.seq > COALESCE((SELECT MAX(through_seq) FROM audit_prune), 0)
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: its rows cannot be deleted');
END;

-- A dropped row leaves the full-text index in the same transaction (an external-content FTS5
-- table is told the old values to remove).
CREATE TRIGGER audit_log_search_delete AFTER DELETE ON audit_log
BEGIN
    INSERT INTO audit_search (audit_search, rowid, server, gen_ai_tool_name, source, decision,
                              mcp_method_name, detail)
    VALUES ('delete', old.seq, old.server, old.gen_ai_tool_name, old.source, old.decision,
            old.mcp_method_name, old.detail);
END;

-- `verify` looks up the anchor that accounts for the first remaining row by kind.
CREATE INDEX audit_log_kind ON audit_log (kind, seq);
