-- Full-text search over the audit log: an FTS5 index of each row's server, tool, source,
-- decision, method and (already redacted) detail text.
--
-- It is an external-content table over audit_log (`content_rowid` is `seq`): the index holds
-- only the tokens, the text stays in audit_log, and the hash chain (which covers audit_log's
-- columns only) is untouched by it. Rows are only ever inserted (triggers refuse UPDATE and
-- DELETE), so one AFTER INSERT trigger keeps the index in step, in the appending transaction.
CREATE VIRTUAL TABLE audit_search USING fts5 (
    server,
    gen_ai_tool_name,
    source,
    decision,
    mcp_method_name,
    detail,
    content = 'audit_log',
    content_rowid = 'seq'
);

CREATE TRIGGER audit_log_search AFTER INSERT ON audit_log
BEGIN
    INSERT INTO audit_search (rowid, server, gen_ai_tool_name, source, decision,
                              mcp_method_name, detail)
    VALUES (new.seq, new.server, new.gen_ai_tool_name, new.source, new.decision,
            new.mcp_method_name, new.detail);
END;

-- The rows written before this migration.
INSERT INTO audit_search (audit_search) VALUES ('rebuild');
