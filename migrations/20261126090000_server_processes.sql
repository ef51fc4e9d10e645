-- The process group of every stdio server a Gatehouse process has running, so that the next
-- process to open the database stops the groups a host that died left behind (the start-up
-- sweep). A row goes when its group is gone. `leader_start` and `host_start` are process start
-- times (clock ticks since boot, /proc/<pid>/stat field 22) that tell a process from a later
-- one given the same id; `boot_id` tells this boot from an earlier one. NULL where unknown.
CREATE TABLE server_processes (
    pgid         INTEGER NOT NULL,
    server_id    TEXT NOT NULL,
    leader_start INTEGER,
    host_pid     INTEGER NOT NULL,
    host_start   INTEGER,
    boot_id      TEXT,
    started_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (host_pid, pgid)
);
