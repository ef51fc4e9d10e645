-- Tool calls that run as tasks (the 2025-11-25 tasks utility and the io.modelcontextprotocol/tasks
-- extension), kept so their status can be shown and polling can resume after a crash or a
-- restart. Only the status is kept, never the result. `recorder_pid` is the process that polls
-- the task: a stdio server's tasks live in that process's own child, so only it can follow them.
CREATE TABLE tasks (
    server_id      TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    task_id        TEXT NOT NULL,
    tool           TEXT NOT NULL,
    status         TEXT NOT NULL,
    status_message TEXT,
    poll_ms        INTEGER,
    recorder_pid   INTEGER NOT NULL,
    started_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (server_id, task_id)
);
CREATE INDEX tasks_unfinished ON tasks (server_id) WHERE status NOT IN ('completed', 'failed', 'cancelled');
