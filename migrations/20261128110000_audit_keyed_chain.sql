-- A keyed audit chain (see crates/host/src/audit/key.rs and chain.rs).
--
-- `key_id` names the key a row is keyed with: its `hash` is then the HMAC-SHA256, under that
-- key, of the row's canonical JSON (`key_id` included). Rows written before keying began, or
-- while the OS keyring was unavailable, have no `key_id` and keep their plain SHA-256, so old
-- chains verify as before.
ALTER TABLE audit_log ADD COLUMN key_id TEXT;

-- The data directory's id, chosen at random once: the OS keyring entries holding the chain's
-- key and its head checkpoint are named by it, so two data directories never share a key.
-- It is no secret; a changed id only points at a key that cannot check the rows.
CREATE TABLE audit_chain (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    data_dir_id TEXT NOT NULL
);
INSERT INTO audit_chain (id, data_dir_id) VALUES (1, lower(hex(randomblob(16))));
