-- Server configurations. `spec` holds the transport-specific settings as JSON
-- (stdio: command/args/env/cwd; http: url/transport/headers).
CREATE TABLE servers (
    id         TEXT PRIMARY KEY NOT NULL,
    name       TEXT NOT NULL UNIQUE COLLATE NOCASE,
    enabled    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    kind       TEXT NOT NULL CHECK (kind IN ('stdio', 'http')),
    spec       TEXT NOT NULL CHECK (json_valid(spec)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
