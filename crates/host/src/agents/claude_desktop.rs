//! Claude Desktop: `claude_desktop_config.json` in its config directory (`mcpServers`, each a
//! `command` with `args` and `env`). Documented at
//! <https://modelcontextprotocol.io/docs/develop/connect-local-servers> (macOS
//! `~/Library/Application Support/Claude/`, Windows `%APPDATA%\Claude\`); on Linux, where it
//! has no official build, the community builds use `$XDG_CONFIG_HOME/Claude/`.

use std::path::PathBuf;

use super::entry::Dialect;
use super::model::FileError;
use super::places::Places;
use super::read::parse_json;
use super::section::{Section, servers_under};

pub const DIALECT: Dialect = Dialect::BASE;

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    vec![
        places
            .config_dir
            .join("Claude")
            .join("claude_desktop_config.json"),
    ]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    Ok(vec![servers_under(
        &parse_json(text)?,
        "mcpServers",
        &DIALECT,
    )?])
}
