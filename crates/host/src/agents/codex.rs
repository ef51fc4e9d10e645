//! Codex: `~/.codex/config.toml` (`$CODEX_HOME`) and a trusted project's `.codex/config.toml`,
//! one `[mcp_servers.NAME]` table per server: `command`, `args`, `env`, `env_vars` (names passed
//! through), `cwd`; or `url` (Streamable HTTP) with `bearer_token_env_var`, `http_headers`,
//! `env_http_headers`; `enabled = false` switches one off, `enabled_tools`/`disabled_tools`
//! filter its tools. Read with the `toml` crate.
//! Documented at <https://developers.openai.com/codex/mcp> ("Configure with config.toml"); the
//! same path on every OS.

use std::path::{Path, PathBuf};

use super::entry::Dialect;
use super::model::{FileError, RemoteTransport};
use super::places::Places;
use super::read::parse_toml;
use super::section::{Section, servers_under};

pub const DIALECT: Dialect = Dialect {
    known: &[
        "startup_timeout_sec",
        "startup_timeout_ms",
        "tool_timeout_sec",
    ],
    url_fields: &[("url", Some(RemoteTransport::StreamableHttp))],
    typed: false,
    enabled_field: true,
    include_tools: Some("enabled_tools"),
    exclude_tools: Some("disabled_tools"),
    codex: true,
    ..Dialect::BASE
};

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    vec![places.codex_home.join("config.toml")]
}

pub fn project_files(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join(".codex").join("config.toml")]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    Ok(vec![servers_under(
        &parse_toml(text)?,
        "mcp_servers",
        &DIALECT,
    )?])
}
