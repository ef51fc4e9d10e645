-- Each time `gatehouse connect AGENT` rewrote an agent's config file: where (file, and the
-- section of Claude Code's `~/.claude.json`), the backup of the original bytes in the data
-- directory, the hashes of the original and of what was written (`--undo` restores the backup
-- only while the file still holds what was written), and when it was undone. No values.
CREATE TABLE agent_connections (
    id            INTEGER PRIMARY KEY,
    agent         TEXT NOT NULL,
    file          TEXT NOT NULL,
    section       TEXT,
    backup        TEXT NOT NULL,
    original_hash TEXT NOT NULL,
    written_hash  TEXT NOT NULL,
    connected_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    undone_at     TEXT
);
CREATE INDEX agent_connections_by_agent ON agent_connections (agent, file);
