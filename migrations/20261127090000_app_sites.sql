-- The person's global lists of outside sites MCP App views may reach (SEP-1865 leaves a host
-- free to restrict what a view declares; the ext-apps host catalogue calls these the global
-- domain allow and block lists). A domain is on one list at most. A view's declared domain is
-- kept only if no `block` entry covers it and, when the `allow` list is not empty, an `allow`
-- entry covers it; an entry covers its domain and every subdomain.
CREATE TABLE app_sites (
    domain   TEXT PRIMARY KEY,
    list     TEXT NOT NULL CHECK (list IN ('allow', 'block')),
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
