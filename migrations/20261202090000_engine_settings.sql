-- The engine's settings, one row, set from the Settings page or `gatehouse settings set` and
-- followed by a running engine (crates/host/src/store/engine_settings.rs): how long a request
-- waits for a person's answer, the stop graces a new stdio server gets, how often live
-- connections are checked, and how many days of the audit log are kept (NULL: all of it).
-- The ranges are checked here too, so no process can store a value the engine would refuse.
CREATE TABLE engine_settings (
    id                    INTEGER PRIMARY KEY CHECK (id = 1),
    approval_timeout_secs INTEGER NOT NULL DEFAULT 300
        CHECK (approval_timeout_secs BETWEEN 1 AND 86400),
    stop_stdin_ms         INTEGER NOT NULL DEFAULT 2000
        CHECK (stop_stdin_ms BETWEEN 0 AND 600000),
    stop_term_ms          INTEGER NOT NULL DEFAULT 3000
        CHECK (stop_term_ms BETWEEN 0 AND 600000),
    health_every_secs     INTEGER NOT NULL DEFAULT 30
        CHECK (health_every_secs BETWEEN 1 AND 3600),
    audit_retention_days  INTEGER
        CHECK (audit_retention_days IS NULL OR audit_retention_days BETWEEN 1 AND 36500)
);
INSERT INTO engine_settings (id) VALUES (1);
