-- Standing grants made from an approval: "allow for this session" (valid in the Gatehouse
-- process that made it, which is recorded with its pid so a grant of a process that is gone can
-- be cleared) and "allow for a time" (valid in every process until it expires). Each is tied to
-- the tool's definition hash: a changed tool is not covered.
CREATE TABLE grants (
    id              TEXT PRIMARY KEY,
    server_id       TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    tool            TEXT NOT NULL,
    definition_hash TEXT,
    scope           TEXT NOT NULL CHECK (scope IN ('session', 'timed')),
    instance        TEXT,
    pid             INTEGER,
    expires_at      TEXT,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX grants_by_tool ON grants (server_id, tool);
