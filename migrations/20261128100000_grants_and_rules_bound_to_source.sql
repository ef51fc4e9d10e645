-- A grant answers only the question it was given for, and a rule can be for one source.
--
-- Grants: the source that asked (`user`, `server`, `app`, `model`, `gateway`) and, for a source
-- that has several callers (the gateway's clients), which one (`caller`, none for the others);
-- the rule whose "ask" the person answered (none for a default, a hint or a changed
-- definition); and the SHA-256 of the canonical arguments the person allowed, or none for a
-- grant the person made for any arguments. Grants made before this change were made for a
-- person's own calls as far as their source goes ('user'), so none of them covers an app's or
-- another source's call any more.
ALTER TABLE grants ADD COLUMN source TEXT NOT NULL DEFAULT 'user'
    CHECK (source IN ('user', 'server', 'app', 'model', 'gateway'));
ALTER TABLE grants ADD COLUMN caller TEXT;
ALTER TABLE grants ADD COLUMN rule_id TEXT;
ALTER TABLE grants ADD COLUMN arguments_digest TEXT;

-- Rules: an optional source (none: every source), so "always allow" answered for an app's
-- call allows that tool for apps only; and the caller within that source, for sources that
-- have several (kept for the gateway's clients; no rule names one yet).
ALTER TABLE policy_rules ADD COLUMN source TEXT
    CHECK (source IS NULL OR source IN ('user', 'server', 'app', 'model', 'gateway'));
ALTER TABLE policy_rules ADD COLUMN caller TEXT;
