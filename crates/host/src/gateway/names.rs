//! How the gateway names a server's tools for an agent: `SERVER__TOOL`, deterministic, and
//! always a valid MCP tool name (`[A-Za-z0-9_.-]`, 1 to 128 characters; 2025-11-25
//! server/tools, "Tool names"). A name that cannot be made valid is left out of the list with a
//! warning, never sent broken. An exposed name is routed back by the longest server name it
//! starts with, so a server called `a` and one called `a__b` do not take each other's tools.
//!
//! A client whose prefix is off (`gatehouse clients profile NAME --prefix off`) sees an item by
//! its own name where no other server offers the same name; the items whose names collide (and a
//! bare name that would equal another item's `SERVER__ITEM`) keep their prefix, so the choice is
//! deterministic and every exposed name routes back to one item ([`named`], [`route_named`]).

use std::collections::{HashMap, HashSet};

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

/// One item (tool or prompt) a server offers: the server's name and the item's.
pub type Item = (String, String);

/// The names a client sees for `items` (every enabled server's, `servers` being their names), in
/// the same order; `None` for an item left out. With `prefix`, every item is `SERVER__ITEM`;
/// without, an item whose name no other server offers is given bare, the others keep the prefix.
pub fn named(items: &[Item], servers: &[String], prefix: bool) -> Vec<Option<String>> {
    // How many servers offer each item name (counted once per server).
    let mut owners: HashMap<&str, (&str, usize)> = HashMap::with_capacity(items.len());
    for (server, item) in items {
        let owned = owners.entry(item.as_str()).or_insert((server.as_str(), 0));
        if owned.1 == 0 || owned.0 != server {
            *owned = (server.as_str(), owned.1 + 1);
        }
    }
    let bare: Vec<bool> = items
        .iter()
        .map(|(_, item)| {
            !prefix && valid(item) && owners.get(item.as_str()).map(|o| o.1) == Some(1)
        })
        .collect();
    let prefixed: Vec<Option<String>> = items
        .iter()
        .zip(&bare)
        .map(|((server, item), &bare)| {
            if bare {
                None
            } else {
                routed(server, item, servers)
            }
        })
        .collect();
    let taken: HashSet<&str> = prefixed.iter().flatten().map(String::as_str).collect();
    items
        .iter()
        .zip(bare)
        .zip(&prefixed)
        .map(|(((server, item), bare), own)| {
            if !bare {
                return own.clone();
            }
            // A bare name equal to another item's prefixed one keeps its own prefix.
            if taken.contains(item.as_str()) {
                return routed(server, item, servers);
            }
            Some(item.clone())
        })
        .collect()
}

/// The item (server, item name) that `name` stands for, among `items` named as [`named`] does.
pub fn route_named(name: &str, items: &[Item], servers: &[String], prefix: bool) -> Option<Item> {
    items
        .iter()
        .zip(named(items, servers, prefix))
        .find(|(_, exposed)| exposed.as_deref() == Some(name))
        .map(|(item, _)| item.clone())
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

    fn items(pairs: &[(&str, &str)]) -> Vec<Item> {
        pairs
            .iter()
            .map(|(s, i)| ((*s).to_owned(), (*i).to_owned()))
            .collect()
    }

    #[test]
    fn without_the_prefix_only_colliding_names_keep_it() {
        let servers = vec!["fs".to_owned(), "git".to_owned(), "mem".to_owned()];
        let items = items(&[
            ("fs", "read_file"),
            ("fs", "search"),
            ("git", "search"),
            ("git", "log"),
            ("mem", "a b"),
        ]);
        let off = named(&items, &servers, false);
        assert_eq!(
            off,
            [
                Some("read_file".into()),
                Some("fs__search".into()),
                Some("git__search".into()),
                Some("log".into()),
                None,
            ],
            "a name two servers offer keeps its prefix on both; an invalid one is left out"
        );
        let on = named(&items, &servers, true);
        assert_eq!(on[0].as_deref(), Some("fs__read_file"));
        assert_eq!(on[3].as_deref(), Some("git__log"));
        assert_eq!(named(&items, &servers, false), off, "deterministic");
    }

    #[test]
    fn a_bare_name_equal_to_a_prefixed_one_keeps_its_prefix() {
        let servers = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
        // `c` of b and of c collide, so b's is `b__c`; a's tool called `b__c` must not take it.
        let items = items(&[("a", "b__c"), ("b", "c"), ("c", "c")]);
        let off = named(&items, &servers, false);
        assert_eq!(
            off,
            [
                Some("a__b__c".into()),
                Some("b__c".into()),
                Some("c__c".into())
            ]
        );
        assert_eq!(
            route_named("b__c", &items, &servers, false),
            Some(("b".into(), "c".into()))
        );
    }

    #[test]
    fn bare_names_route_back_to_their_server() {
        let servers = vec!["fs".to_owned(), "git".to_owned()];
        let items = items(&[("fs", "read_file"), ("fs", "search"), ("git", "search")]);
        assert_eq!(
            route_named("read_file", &items, &servers, false),
            Some(("fs".into(), "read_file".into()))
        );
        assert_eq!(
            route_named("git__search", &items, &servers, false),
            Some(("git".into(), "search".into()))
        );
        assert_eq!(
            route_named("search", &items, &servers, false),
            None,
            "ambiguous"
        );
        assert_eq!(
            route_named("read_file", &items, &servers, true),
            None,
            "with the prefix on, a bare name is nobody's"
        );
        assert_eq!(
            route_named("fs__read_file", &items, &servers, true),
            Some(("fs".into(), "read_file".into()))
        );
    }
}
