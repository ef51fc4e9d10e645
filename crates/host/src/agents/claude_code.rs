//! Claude Code: the person's servers in `~/.claude.json` (`mcpServers`, user scope), a project's
//! own in the same file under `projects[PATH].mcpServers` (local scope), and a project's
//! shared `.mcp.json` (`mcpServers`). Entries: `command`/`args`/`env`, or `type` `http`/`sse`
//! with `url` and `headers`; `${VAR}` and `${VAR:-default}` expand in `command`, `args`, `env`,
//! `url` and `headers`.
//! Documented at <https://code.claude.com/docs/en/mcp> ("MCP installation scopes",
//! "Environment variable expansion in .mcp.json"); the same paths on every OS.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::entry::Dialect;
use super::model::FileError;
use super::places::Places;
use super::read::parse_json;
use super::section::{Section, read_servers, servers_under};

pub const DIALECT: Dialect = Dialect::BASE;

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    vec![places.home.join(".claude.json")]
}

pub fn project_files(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join(".mcp.json")]
}

/// `~/.claude.json`: the user section, then each project's own servers (only `project`'s, when
/// one is given).
pub fn parse_user(text: &str, project: Option<&Path>) -> Result<Vec<Section>, FileError> {
    let value = parse_json(text)?;
    let mut sections = vec![servers_under(&value, "mcpServers", &DIALECT)?];
    if let Some(projects) = value.get("projects").and_then(Value::as_object) {
        for (path, settings) in projects {
            if project.is_some_and(|p| !same_dir(p, Path::new(path))) {
                continue;
            }
            let Some(servers) = settings.get("mcpServers") else {
                continue;
            };
            if servers.as_object().is_some_and(|m| m.is_empty()) {
                continue;
            }
            // The path as a JSON string, so that connect reads it back whatever it holds.
            let quoted = serde_json::to_string(path).unwrap_or_else(|_| format!("{path:?}"));
            let key = format!("projects[{quoted}].mcpServers");
            let mut section = read_servers(servers, &key, &DIALECT)?;
            section.section = Some(key);
            sections.push(section);
        }
    }
    Ok(sections)
}

pub fn parse_project(text: &str) -> Result<Vec<Section>, FileError> {
    Ok(vec![servers_under(
        &parse_json(text)?,
        "mcpServers",
        &DIALECT,
    )?])
}

fn same_dir(a: &Path, b: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    canonical(a) == canonical(b)
}
