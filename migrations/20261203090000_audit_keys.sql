-- The audit log's lookup columns indexed off the appending path.
--
-- Every index on audit_log was paid by every append: each commit wrote a page of each index
-- (at, server, tool, kind) as a WAL frame beside the row's own, about half of a commit's cost,
-- twice per gated call. The columns rows are looked up by now live in `audit_keys` as well, one
-- row per audit_log row, which carries the indexes instead, and two more that audit_log could
-- not afford (source and decision: a listing by a source or decision that few rows have no
-- longer reads the whole table). It is filled after the fact, like the
-- search index: each process's audit writer adds the rows after the last one it holds when it
-- is idle or has appended a few thousand (crates/host/src/oversight/audit/indexer.rs), and a
-- pruning adds them all first. It holds the rows up to `MAX(seq)` and no others, so a reader
-- finds a row either through it or among the rows after its last (few, and read by seq).
--
-- It is a lookup aid, not evidence: the hash chain covers audit_log alone. Readers find
-- candidate rows through it and check every condition again on audit_log's own columns, so a
-- tampered `audit_keys` can make a lookup miss rows (a listing, or `verify` finding no
-- retention anchor and reporting the chain broken), never return a row that does not match.
CREATE TABLE audit_keys (
    seq              INTEGER PRIMARY KEY,
    at               TEXT NOT NULL,
    kind             TEXT NOT NULL,
    server           TEXT,
    gen_ai_tool_name TEXT,
    source           TEXT,
    decision         TEXT
);

INSERT INTO audit_keys (seq, at, kind, server, gen_ai_tool_name, source, decision)
SELECT seq, at, kind, server, gen_ai_tool_name, source, decision FROM audit_log;

CREATE INDEX audit_keys_at ON audit_keys (at);
CREATE INDEX audit_keys_server ON audit_keys (server, seq);
CREATE INDEX audit_keys_tool ON audit_keys (gen_ai_tool_name, seq);
CREATE INDEX audit_keys_kind ON audit_keys (kind, seq);
CREATE INDEX audit_keys_source ON audit_keys (source, seq);
CREATE INDEX audit_keys_decision ON audit_keys (decision, seq);

DROP INDEX audit_log_at;
DROP INDEX audit_log_server;
DROP INDEX audit_log_tool;
DROP INDEX audit_log_kind;

-- A pruned row leaves the lookup table in the same transaction.
CREATE TRIGGER audit_log_keys_delete AFTER DELETE ON audit_log
BEGIN
    DELETE FROM audit_keys WHERE seq = old.seq;
END;
