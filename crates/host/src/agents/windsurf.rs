//! Windsurf (Cascade): `~/.codeium/windsurf/mcp_config.json` (`mcpServers`): a `command` with
//! `args` and `env`, or a remote server's `serverUrl` (or `url`) with `headers`; `disabled` and
//! `disabledTools` switch a server or its tools off; `${env:NAME}` expands in values.
//! Documented at <https://docs.windsurf.com/windsurf/cascade/mcp> ("mcp_config.json"); the
//! same path on every OS (`%USERPROFILE%\.codeium\windsurf\` on Windows).

use std::path::PathBuf;

use super::entry::Dialect;
use super::model::FileError;
use super::places::Places;
use super::read::parse_json;
use super::section::{Section, servers_under};

pub const DIALECT: Dialect = Dialect {
    url_fields: &[("serverUrl", None), ("url", None)],
    typed: false,
    disabled_field: true,
    exclude_tools: Some("disabledTools"),
    ..Dialect::BASE
};

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    vec![
        places
            .home
            .join(".codeium")
            .join("windsurf")
            .join("mcp_config.json"),
    ]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    Ok(vec![servers_under(
        &parse_json(text)?,
        "mcpServers",
        &DIALECT,
    )?])
}
