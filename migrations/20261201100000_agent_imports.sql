-- Which Gatehouse server came from which entry of which agent's config file
-- (`gatehouse import AGENT`), so that `gatehouse connect AGENT` removes exactly those entries
-- from the agent's file and gives the agent's client a profile of them. No values: names only.
CREATE TABLE agent_imports (
    server_id   TEXT PRIMARY KEY NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    agent       TEXT NOT NULL,
    file        TEXT NOT NULL,
    section     TEXT,
    entry       TEXT NOT NULL,
    imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX agent_imports_by_agent ON agent_imports (agent, file);
