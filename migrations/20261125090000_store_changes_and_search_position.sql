-- A counter of changes to what decides requests: the servers' configurations, the policy's
-- rules and the read-only trust settings. Every process that changes one of them moves it on
-- (in the changing transaction, through these triggers), so a process that keeps what it read
-- of them can tell, with one read of one row, whether that is still current: the app sees a
-- rule the CLI just added on the very next request.
CREATE TABLE store_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO store_changes (id, n) VALUES (1, 0);

CREATE TRIGGER servers_added AFTER INSERT ON servers
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER servers_changed AFTER UPDATE ON servers
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER servers_removed AFTER DELETE ON servers
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;

CREATE TRIGGER policy_rules_added AFTER INSERT ON policy_rules
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER policy_rules_changed AFTER UPDATE ON policy_rules
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER policy_rules_removed AFTER DELETE ON policy_rules
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;

CREATE TRIGGER server_policy_added AFTER INSERT ON server_policy
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER server_policy_changed AFTER UPDATE ON server_policy
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER server_policy_removed AFTER DELETE ON server_policy
BEGIN UPDATE store_changes SET n = n + 1 WHERE id = 1; END;

-- The audit log's search index is brought up to date off the appending path: appending a row
-- no longer indexes it in the same transaction (an FTS5 segment per commit cost more than the
-- rest of the append). `audit_search_position` records the last row indexed; whoever searches
-- first indexes the rows after it, and each process's audit writer does so when it is idle or
-- has written a few thousand rows. Rows already in the log were indexed by the old trigger.
DROP TRIGGER audit_log_search;
CREATE TABLE audit_search_position (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    through_seq INTEGER NOT NULL
);
INSERT INTO audit_search_position (id, through_seq)
VALUES (1, COALESCE((SELECT MAX(seq) FROM audit_log), 0));

-- A pruned row leaves the index only if it was in it: an external-content FTS5 table must
-- never be told to delete a row it does not hold.
DROP TRIGGER audit_log_search_delete;
CREATE TRIGGER audit_log_search_delete AFTER DELETE ON audit_log
WHEN old.seq <= (SELECT through_seq FROM audit_search_position WHERE id = 1)
BEGIN
    INSERT INTO audit_search (audit_search, rowid, server, gen_ai_tool_name, source, decision,
                              mcp_method_name, detail)
    VALUES ('delete', old.seq, old.server, old.gen_ai_tool_name, old.source, old.decision,
            old.mcp_method_name, old.detail);
END;
