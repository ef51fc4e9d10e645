-- The gateway's clients: the agents the person named, each reaching the Streamable HTTP
-- endpoint with a bearer token of its own. The token itself lives only in the OS keyring
-- (account `client/<name>/token`); this table records that one exists: `token_serial` moves on
-- each time a token is created (NULL when the client has none), so a running engine can tell,
-- with one read, that the token it holds in memory was revoked or replaced.
CREATE TABLE clients (
    name             TEXT PRIMARY KEY NOT NULL,
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_seen        TEXT,
    token_serial     INTEGER,
    token_created_at TEXT
);

-- Whether the running engine serves the gateway over HTTP on the loopback interface, and on
-- which port. Off until the person turns it on.
CREATE TABLE gateway_http (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    enabled INTEGER NOT NULL DEFAULT 0,
    port    INTEGER NOT NULL DEFAULT 47821 CHECK (port BETWEEN 1 AND 65535)
);
INSERT INTO gateway_http (id, enabled, port) VALUES (1, 0, 47821);
