-- A rule can be for one client of the gateway. The rule's `caller` (added with its source, and
-- unused until now) names the client: the name the agent was given (`gatehouse mcp --client
-- NAME`), which the gateway's requests carry as their caller. A rule for a client is a rule for
-- the gateway's requests, so a row that names a client with another source (or none), or a
-- blank client, is refused whoever writes it. Rules made before this change name no client and
-- keep applying to every caller of their source, as before.
CREATE TRIGGER policy_rules_client_insert
BEFORE INSERT ON policy_rules
WHEN NEW.caller IS NOT NULL AND (NEW.source IS NOT 'gateway' OR trim(NEW.caller) = '')
BEGIN
    SELECT RAISE(ABORT, 'a rule for a client must be for the source gateway and name the client');
END;

CREATE TRIGGER policy_rules_client_update
BEFORE UPDATE OF caller, source ON policy_rules
WHEN NEW.caller IS NOT NULL AND (NEW.source IS NOT 'gateway' OR trim(NEW.caller) = '')
BEGIN
    SELECT RAISE(ABORT, 'a rule for a client must be for the source gateway and name the client');
END;

