//! Rewriting Codex's `config.toml` through `toml_edit`'s document: the imported
//! `[mcp_servers.NAME]` tables and those that already go through Gatehouse are taken out,
//! `[mcp_servers.gatehouse]` (`command`, `args`) is put in (in place of an earlier one, else
//! at the end), and the rest of the file, its comments included, is left as it was. Text in,
//! text out: no I/O. The format: <https://developers.openai.com/codex/mcp>.

use toml_edit::{Array, DocumentMut, Item, Table, value};

use super::gateway_entry::{ENTRY_NAME, GatewayLaunch};
use crate::agents::model::FileError;
use crate::agents::read::{parse_toml, plain};

/// The file's new text: `remove` and `replace` are entry names under `[mcp_servers]`.
pub fn rewrite_toml(
    text: &str,
    remove: &[String],
    replace: &[String],
    launch: &GatewayLaunch,
) -> Result<String, FileError> {
    let mut doc: DocumentMut = match text.parse() {
        Ok(doc) => doc,
        // The reader's message names the line and column.
        Err(_) => {
            return Err(parse_toml(text)
                .err()
                .unwrap_or_else(|| plain("it is not valid TOML".into())));
        }
    };
    let top = doc.as_table_mut();
    if !top.contains_key("mcp_servers") {
        let mut servers = Table::new();
        servers.set_implicit(true);
        top.insert("mcp_servers", Item::Table(servers));
    }
    let servers = top
        .get_mut("mcp_servers")
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| plain("`mcp_servers` is not a table".into()))?;
    for name in remove.iter().chain(replace) {
        if name != ENTRY_NAME {
            servers.remove(name);
        }
    }
    let mut args = Array::new();
    args.extend(launch.args.iter().map(String::as_str));
    let is_ours = |item: &Item| {
        let command = item.get("command").and_then(Item::as_str);
        let existing: Option<Vec<&str>> = item
            .get("args")
            .and_then(Item::as_array)
            .map(|a| a.iter().filter_map(|v| v.as_str()).collect());
        let table_keys = item.as_table_like().map_or(0, |t| t.len());
        command == Some(launch.command.as_str())
            && existing.as_deref()
                == Some(
                    launch
                        .args
                        .iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .as_slice(),
                )
            && table_keys == 2
    };
    match servers.get_mut(ENTRY_NAME) {
        Some(item) if is_ours(item) => {}
        Some(item) => {
            let earlier = replace.iter().chain(remove).any(|n| n == ENTRY_NAME);
            if !earlier {
                return Err(plain(format!(
                    "it already has a server named `{ENTRY_NAME}` that does not go through Gatehouse; rename it (or import it) first"
                )));
            }
            let mut table = Table::new();
            if let Some(old) = item.as_table() {
                // Where it was, with the comments above it.
                table.set_position(old.position());
                table.decor_mut().clone_from(old.decor());
            }
            table.insert("command", value(launch.command.as_str()));
            table.insert("args", value(args));
            *item = Item::Table(table);
        }
        None => {
            let mut table = Table::new();
            table.insert("command", value(launch.command.as_str()));
            table.insert("args", value(args));
            servers.insert(ENTRY_NAME, Item::Table(table));
        }
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Agent;
    use std::path::Path;

    #[test]
    fn comments_survive_and_twice_is_once() {
        let text = "# mine\nmodel = \"m\"\n\n[mcp_servers.a]\ncommand = \"a\"\n\n# kept\n[mcp_servers.b]\ncommand = \"b\" # why\n";
        let launch = GatewayLaunch::new(Path::new("/opt/gatehouse"), None, Agent::Codex);
        let out = rewrite_toml(text, &["a".into()], &[], &launch).expect("rewritten");
        assert!(out.starts_with("# mine\nmodel = \"m\"\n"), "{out}");
        assert!(
            out.contains("# kept\n[mcp_servers.b]\ncommand = \"b\" # why\n"),
            "{out}"
        );
        assert!(!out.contains("[mcp_servers.a]"), "{out}");
        assert!(out.contains("[mcp_servers.gatehouse]\ncommand = \"/opt/gatehouse\"\nargs = [\"mcp\", \"--client\", \"codex\"]\n"), "{out}");
        assert_eq!(
            rewrite_toml(&out, &["a".into()], &[], &launch).expect("same"),
            out
        );
        let empty = rewrite_toml("", &[], &[], &launch).expect("rewritten");
        assert!(empty.contains("[mcp_servers.gatehouse]"), "{empty}");
        let bad = rewrite_toml("a = [1\n", &[], &[], &launch).expect_err("refused");
        assert_eq!(bad.line, Some(1));
    }
}
