-- The audit log: an append-only record of what happened (requests, decisions, tool calls and
-- their outcomes, connections, policy changes). Column names follow the OpenTelemetry semantic
-- conventions for MCP where one exists (mcp.method.name, gen_ai.tool.name, jsonrpc.request.id,
-- error.type, network.transport).
--
-- Each row carries the previous row's hash (`prev_hash`; 64 zeros for the first) and its own
-- `hash`: hex SHA-256 of the RFC 8785 canonical JSON of every other column. `seq` is the chain
-- order, assigned by the writer as the last seq + 1. `detail` is JSON text, already redacted.
CREATE TABLE audit_log (
    seq                INTEGER PRIMARY KEY,
    at                 TEXT NOT NULL,
    kind               TEXT NOT NULL,
    server             TEXT,
    source             TEXT,
    mcp_method_name    TEXT,
    gen_ai_tool_name   TEXT,
    jsonrpc_request_id TEXT,
    correlation        TEXT,
    decision           TEXT,
    error_type         TEXT,
    network_transport  TEXT,
    duration_ms        INTEGER,
    detail             TEXT NOT NULL,
    prev_hash          TEXT NOT NULL,
    hash               TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_server ON audit_log (server, seq);
CREATE INDEX audit_log_tool ON audit_log (gen_ai_tool_name, seq);

-- The engine never changes or removes a row. The triggers stop accidents and casual edits; a
-- deliberate edit (dropping them, or writing the file) is what the hash chain detects.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: its rows cannot be changed');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: its rows cannot be deleted');
END;
