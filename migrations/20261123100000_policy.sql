-- The policy: allow/ask/deny rules in layers (global, per server, per tool, per tool argument),
-- each server's "trust read-only hints" setting, and every tool definition a server has shown,
-- so that a grant made for one definition is void once the tool changes.
CREATE TABLE policy_rules (
    id              TEXT PRIMARY KEY,
    server_id       TEXT REFERENCES servers(id) ON DELETE CASCADE,
    tool            TEXT,
    pointer         TEXT,
    pattern_kind    TEXT CHECK (pattern_kind IN ('glob', 'regex')),
    pattern         TEXT,
    outside         INTEGER NOT NULL DEFAULT 0,
    effect          TEXT NOT NULL CHECK (effect IN ('allow', 'ask', 'deny')),
    definition_hash TEXT,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX policy_rules_by_server ON policy_rules (server_id, tool);

CREATE TABLE server_policy (
    server_id       TEXT PRIMARY KEY REFERENCES servers(id) ON DELETE CASCADE,
    trust_read_only INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE tool_definitions (
    server_id  TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    tool       TEXT NOT NULL,
    hash       TEXT NOT NULL,
    definition TEXT NOT NULL,
    first_seen TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_seen  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (server_id, tool, hash)
);
