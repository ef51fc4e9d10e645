//! A file's servers object (`mcpServers`, `servers`, `context_servers`, `[mcp_servers]`) read
//! entry by entry: each entry becomes a server or is skipped with its reason, never dropped.

use serde_json::Value;

use super::entry::{Dialect, kind, parse_entry};
use super::model::{FileError, Input, ServerEntry, Skipped};
use super::read::plain;

/// What one file (or one section of it) holds.
#[derive(Debug, Default)]
pub struct Section {
    /// Where in the file, when not at the format's usual place.
    pub section: Option<String>,
    pub servers: Vec<ServerEntry>,
    pub skipped: Vec<Skipped>,
    pub inputs: Vec<Input>,
}

/// The servers under `key` of the file's top-level object; no such key is no servers. `value`
/// must be an object; a servers section that is not one is a file error.
pub fn servers_under(value: &Value, key: &str, dialect: &Dialect) -> Result<Section, FileError> {
    let Some(top) = value.as_object() else {
        return Err(plain(format!(
            "its top level is {}, not an object",
            kind(value)
        )));
    };
    match top.get(key) {
        None | Some(Value::Null) => Ok(Section::default()),
        Some(servers) => read_servers(servers, key, dialect),
    }
}

/// Every entry of a `{ "NAME": { … } }` object.
pub fn read_servers(servers: &Value, key: &str, dialect: &Dialect) -> Result<Section, FileError> {
    let Some(map) = servers.as_object() else {
        return Err(plain(format!(
            "`{key}` is {}, not an object",
            kind(servers)
        )));
    };
    let mut section = Section::default();
    for (name, entry) in map {
        match parse_entry(name, entry, dialect) {
            Ok(server) => section.servers.push(server),
            Err(reason) => section.skipped.push(Skipped {
                name: name.clone(),
                reason,
            }),
        }
    }
    Ok(section)
}
