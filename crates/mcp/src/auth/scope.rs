//! Which scopes to request (2025-11-25 basic/authorization, "Scope Selection Strategy"; 2026-07-28
//! basic/authorization, "Refresh Tokens" and "Step-Up Authorization Flow"): the challenge's
//! `scope` first, else the PRM `scopes_supported`, else none (the `scope` parameter is then
//! omitted); `offline_access` only when the authorization server lists it; a step-up requests
//! the union of what was requested before and what the new challenge asks for.

const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes of a first authorization.
pub fn initial(challenged: &[String], prm_supported: Option<&[String]>) -> Vec<String> {
    if !challenged.is_empty() {
        return dedup(challenged.iter().cloned());
    }
    dedup(prm_supported.unwrap_or_default().iter().cloned())
}

/// The scopes of a re-authorization after `insufficient_scope`: previous ∪ challenged, in
/// first-seen order.
pub fn union(previous: &[String], challenged: &[String]) -> Vec<String> {
    dedup(previous.iter().chain(challenged).cloned())
}

/// Adds `offline_access` (to be offered a refresh token) when the authorization server lists it
/// in its `scopes_supported` and some scope is requested at all: a request without scopes stays
/// without them.
pub fn with_offline_access(
    mut scopes: Vec<String>,
    as_supported: Option<&[String]>,
) -> Vec<String> {
    let offered = as_supported.is_some_and(|s| s.iter().any(|x| x == OFFLINE_ACCESS));
    if offered && !scopes.is_empty() && !scopes.iter().any(|s| s == OFFLINE_ACCESS) {
        scopes.push(OFFLINE_ACCESS.to_owned());
    }
    scopes
}

fn dedup(scopes: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for scope in scopes {
        if !scope.is_empty() && !out.contains(&scope) {
            out.push(scope);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_challenge_wins_over_scopes_supported() {
        assert_eq!(
            initial(&v(&["mcp:basic"]), Some(&v(&["mcp:profile"]))),
            v(&["mcp:basic"])
        );
    }

    #[test]
    fn without_a_challenge_all_of_scopes_supported_are_requested() {
        let supported = v(&["mcp:basic", "mcp:read", "mcp:write"]);
        assert_eq!(initial(&[], Some(&supported)), supported);
    }

    #[test]
    fn with_neither_no_scope_is_requested() {
        assert!(initial(&[], None).is_empty());
        assert!(initial(&[], Some(&[])).is_empty());
    }

    #[test]
    fn step_up_keeps_what_was_requested_before() {
        assert_eq!(
            union(&v(&["mcp:basic"]), &v(&["mcp:write", "mcp:basic"])),
            v(&["mcp:basic", "mcp:write"])
        );
    }

    #[test]
    fn offline_access_only_when_the_authorization_server_lists_it() {
        let advertised = v(&["mcp:basic", "offline_access"]);
        assert_eq!(
            with_offline_access(v(&["mcp:basic"]), Some(&advertised)),
            v(&["mcp:basic", "offline_access"])
        );
        assert_eq!(
            with_offline_access(v(&["mcp:basic"]), Some(&v(&["mcp:basic", "mcp:read"]))),
            v(&["mcp:basic"])
        );
        assert_eq!(
            with_offline_access(v(&["mcp:basic"]), None),
            v(&["mcp:basic"])
        );
        assert!(with_offline_access(Vec::new(), Some(&advertised)).is_empty());
        assert_eq!(
            with_offline_access(v(&["offline_access"]), Some(&advertised)),
            v(&["offline_access"])
        );
    }
}
