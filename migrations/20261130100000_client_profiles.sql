-- What each gateway client is served: its profile. A profile is a JSON object of settings
-- (servers and tools on or off, resources and prompts on or off, limits), each one set or left
-- to the default profile; the default's settings left unset are Gatehouse's own (everything on).
-- `clients.profile` holds a client's own settings (NULL: none, the default profile alone);
-- `gateway_default_profile` the default's. No secrets are kept here.
ALTER TABLE clients ADD COLUMN profile TEXT;

CREATE TABLE gateway_default_profile (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    profile TEXT NOT NULL
);
INSERT INTO gateway_default_profile (id, profile) VALUES (1, '{}');

-- A counter every change to a profile moves on (in the changing transaction, through these
-- triggers), whichever process makes it, so the running engine tells its agents within a second.
CREATE TABLE gateway_profile_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO gateway_profile_changes (id, n) VALUES (1, 0);

CREATE TRIGGER client_profile_changed AFTER UPDATE OF profile ON clients
BEGIN UPDATE gateway_profile_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER client_profile_removed AFTER DELETE ON clients
BEGIN UPDATE gateway_profile_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER client_profile_added AFTER INSERT ON clients
BEGIN UPDATE gateway_profile_changes SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER default_profile_changed AFTER UPDATE ON gateway_default_profile
BEGIN UPDATE gateway_profile_changes SET n = n + 1 WHERE id = 1; END;
