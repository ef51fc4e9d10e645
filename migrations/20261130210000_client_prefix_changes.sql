-- A client's naming choice changing (`gatehouse clients profile NAME --prefix on|off`) moves the
-- profile change counter too, so the running engine re-reads what the client is served and
-- tells its agents their lists changed (their names did).
CREATE TRIGGER client_prefix_changed AFTER UPDATE OF prefix ON clients
BEGIN UPDATE gateway_profile_changes SET n = n + 1 WHERE id = 1; END;
