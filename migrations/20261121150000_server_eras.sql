-- The protocol era each server was last found to speak, so that later connections skip the
-- server/discover probe. `spec` is the configuration the finding holds for; a changed
-- configuration is probed again.
CREATE TABLE server_eras (
    server_id  TEXT PRIMARY KEY NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    spec       TEXT NOT NULL,
    era        TEXT NOT NULL CHECK (era IN ('legacy', 'modern')),
    checked_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
