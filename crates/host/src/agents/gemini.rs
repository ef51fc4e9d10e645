//! Gemini CLI: `~/.gemini/settings.json` and a project's `.gemini/settings.json` (`mcpServers`):
//! a `command` with `args`, `env`, `cwd`; or `httpUrl` (Streamable HTTP) or `url` (SSE) with
//! `headers`; `includeTools`/`excludeTools` filter its tools, `trust: true` skips confirmations;
//! the top-level `mcp.excluded` (and `mcp.allowed`) lists switch servers off. `$VAR` and
//! `${VAR}` expand in values. Comments are tolerated, as Gemini CLI strips them.
//! Documented at <https://geminicli.com/docs/tools/mcp-server/> ("Configuration structure")
//! and <https://geminicli.com/docs/cli/configuration> (the settings files); the same paths on
//! every OS.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::entry::Dialect;
use super::model::{FileError, RemoteTransport};
use super::places::Places;
use super::read::parse_jsonc;
use super::section::{Section, servers_under};

pub const DIALECT: Dialect = Dialect {
    known: &["timeout", "description"],
    url_fields: &[
        ("httpUrl", Some(RemoteTransport::StreamableHttp)),
        ("url", Some(RemoteTransport::Sse)),
    ],
    include_tools: Some("includeTools"),
    exclude_tools: Some("excludeTools"),
    trust: true,
    ..Dialect::BASE
};

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    vec![places.home.join(".gemini").join("settings.json")]
}

pub fn project_files(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join(".gemini").join("settings.json")]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    let value = parse_jsonc(text)?;
    let mut section = servers_under(&value, "mcpServers", &DIALECT)?;
    let names = |key: &str| -> Option<Vec<String>> {
        value.get("mcp")?.get(key)?.as_array().map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
    };
    let excluded = names("excluded").unwrap_or_default();
    let allowed = names("allowed");
    for server in &mut section.servers {
        if excluded.contains(&server.name)
            || allowed.as_ref().is_some_and(|a| !a.contains(&server.name))
        {
            server.disabled = true;
        }
    }
    Ok(vec![section])
}
