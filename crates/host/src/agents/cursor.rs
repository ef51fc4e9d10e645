//! Cursor: `~/.cursor/mcp.json` and a project's `.cursor/mcp.json` (`mcpServers`): a `command`
//! with `args`, `env` and `envFile`, or a `url` with `headers` (Cursor tries Streamable HTTP,
//! then SSE); `${env:NAME}` and `${userHome}`-style variables expand in values.
//! Documented at <https://cursor.com/docs/context/mcp> ("Configuration locations", "Config
//! interpolation"); the same paths on every OS (`%USERPROFILE%\.cursor\` on Windows).

use std::path::{Path, PathBuf};

use super::entry::Dialect;
use super::model::FileError;
use super::places::Places;
use super::read::parse_json;
use super::section::{Section, servers_under};

pub const DIALECT: Dialect = Dialect {
    known: &["auth"],
    ..Dialect::BASE
};

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    vec![places.home.join(".cursor").join("mcp.json")]
}

pub fn project_files(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join(".cursor").join("mcp.json")]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    Ok(vec![servers_under(
        &parse_json(text)?,
        "mcpServers",
        &DIALECT,
    )?])
}
