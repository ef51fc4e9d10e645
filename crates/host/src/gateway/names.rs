//! How the gateway names a server's tools for an agent: `SERVER__TOOL`, deterministic, and
//! always a valid MCP tool name (`[A-Za-z0-9_.-]`, 1 to 128 characters; 2025-11-25
//! server/tools, "Tool names"). A name that cannot be made valid is left out of the list with a
//! warning, never sent broken. An exposed name is routed back by the longest server name it
//! starts with, so a server called `a` and one called `a__b` do not take each other's tools.

/// Between the server's name and the tool's.
pub const SEPARATOR: &str = "__";
/// The longest tool name a client is given.
pub const MAX_NAME: usize = 128;

/// Whether `name` is a tool name every client accepts.
pub fn valid(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// The name a client sees for `tool` of `server`, or `None` when it cannot be a valid name.
pub fn exposed(server: &str, tool: &str) -> Option<String> {
    let name = format!("{server}{SEPARATOR}{tool}");
    valid(&name).then_some(name)
}

/// The server (one of `servers`) and tool an exposed name stands for.
pub fn route<'a>(
    name: &str,
    servers: impl IntoIterator<Item = &'a str>,
) -> Option<(&'a str, String)> {
    servers
        .into_iter()
        .filter(|server| {
            name.strip_prefix(server)
                .and_then(|rest| rest.strip_prefix(SEPARATOR))
                .is_some_and(|tool| !tool.is_empty())
        })
        .max_by_key(|server| server.len())
        .map(|server| (server, name[server.len() + SEPARATOR.len()..].to_owned()))
}

/// The exposed name of `item` of `server`, when it is valid and routes back to it (`servers`:
/// every enabled server's name); otherwise `None`, with a warning in the engine's log.
pub fn routed(server: &str, item: &str, servers: &[String]) -> Option<String> {
    let name = exposed(server, item).filter(|name| {
        route(name, servers.iter().map(String::as_str)) == Some((server, item.to_owned()))
    });
    if name.is_none() {
        tracing::warn!(
            "the gateway leaves out `{item}` of `{server}`: its name cannot be given to an agent unambiguously"
        );
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_valid_or_left_out() {
        assert_eq!(exposed("fs", "read_file").as_deref(), Some("fs__read_file"));
        assert_eq!(exposed("my server", "x"), None, "a space is not allowed");
        assert_eq!(exposed("fs", "lire/écrire"), None);
        assert_eq!(exposed("fs", &"t".repeat(MAX_NAME)), None, "too long");
        assert!(valid(&"t".repeat(MAX_NAME)));
    }

    #[test]
    fn the_longest_server_name_wins_the_route() {
        let servers = ["a", "a__b", "c"];
        assert_eq!(route("a__b__t", servers), Some(("a__b", "t".to_owned())));
        assert_eq!(route("a__x", servers), Some(("a", "x".to_owned())));
        assert_eq!(route("c__", servers), None, "no tool name");
        assert_eq!(route("d__t", servers), None, "no such server");
        assert_eq!(route("ct", servers), None);
    }
}
