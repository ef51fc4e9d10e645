//! VS Code: the user profile's `mcp.json` and a workspace's `.vscode/mcp.json`, JSON with
//! comments: `servers` (each with `type` `stdio`, `http` or `sse`; `command`, `args`, `env`,
//! `envFile`, `cwd`; or `url` and `headers`) and `inputs` (`promptString` values asked of the
//! person, `password: true` for a secret one, used as `${input:ID}`); `${env:NAME}` and
//! `${workspaceFolder}` expand in values.
//! Documented at <https://code.visualstudio.com/docs/copilot/reference/mcp-configuration>;
//! the profile is `$XDG_CONFIG_HOME/Code/User/` on Linux, `~/Library/Application
//! Support/Code/User/` on macOS, `%APPDATA%\Code\User\` on Windows (Insiders: `Code -
//! Insiders`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::entry::Dialect;
use super::model::{FileError, Input};
use super::places::Places;
use super::read::{parse_jsonc, plain};
use super::section::{Section, servers_under};

pub const DIALECT: Dialect = Dialect {
    known: &["dev"],
    ..Dialect::BASE
};

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    ["Code", "Code - Insiders"]
        .iter()
        .map(|app| places.config_dir.join(app).join("User").join("mcp.json"))
        .collect()
}

pub fn project_files(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join(".vscode").join("mcp.json")]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    let value = parse_jsonc(text)?;
    let mut section = servers_under(&value, "servers", &DIALECT)?;
    section.inputs = inputs(&value)?;
    Ok(vec![section])
}

fn inputs(value: &Value) -> Result<Vec<Input>, FileError> {
    let Some(list) = value.get("inputs") else {
        return Ok(Vec::new());
    };
    let Some(list) = list.as_array() else {
        return Err(plain("`inputs` is not a list".into()));
    };
    let mut inputs = Vec::new();
    for item in list {
        // An input without an id cannot be referred to: nothing uses it.
        let Some(id) = item.get("id").and_then(Value::as_str) else {
            continue;
        };
        inputs.push(Input {
            id: id.to_owned(),
            description: item
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            password: item.get("password").and_then(Value::as_bool) == Some(true),
        });
    }
    Ok(inputs)
}
