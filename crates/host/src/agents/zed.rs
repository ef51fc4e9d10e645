//! Zed: its `settings.json` (JSON with comments, read with `jsonc-parser`) and a project's
//! `.zed/settings.json`, `context_servers`: a custom server's `command` with `args` and `env`
//! (older files: `command: { path, args, env }`), or a remote one's `url` with `headers`;
//! `enabled: false` switches one off. A server an extension provides (`source: "extension"`)
//! is started by that extension, so it is listed as skipped.
//! Documented at <https://zed.dev/docs/ai/mcp> and <https://zed.dev/docs/configuring-zed>
//! (`~/.config/zed/settings.json` on Linux and macOS, `$XDG_CONFIG_HOME/zed/` when set;
//! `%APPDATA%\Zed\settings.json` on Windows).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::entry::{Dialect, parse_entry};
use super::model::{FileError, RemoteTransport, Skipped};
use super::places::Places;
use super::read::{parse_jsonc, plain};
use super::section::Section;

pub const DIALECT: Dialect = Dialect {
    known: &["source", "settings"],
    url_fields: &[("url", Some(RemoteTransport::StreamableHttp))],
    typed: false,
    enabled_field: true,
    ..Dialect::BASE
};

pub fn user_files(places: &Places) -> Vec<PathBuf> {
    if cfg!(target_os = "macos") {
        vec![
            places
                .home
                .join(".config")
                .join("zed")
                .join("settings.json"),
        ]
    } else if cfg!(windows) {
        vec![places.config_dir.join("Zed").join("settings.json")]
    } else {
        vec![places.config_dir.join("zed").join("settings.json")]
    }
}

pub fn project_files(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join(".zed").join("settings.json")]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    let value = parse_jsonc(text)?;
    let mut section = Section::default();
    let Some(top) = value.as_object() else {
        return Err(plain("its top level is not an object".into()));
    };
    let Some(servers) = top.get("context_servers") else {
        return Ok(vec![section]);
    };
    let Some(servers) = servers.as_object() else {
        return Err(plain("`context_servers` is not an object".into()));
    };
    for (name, entry) in servers {
        if entry.get("source").and_then(Value::as_str) == Some("extension") {
            section.skipped.push(Skipped {
                name: name.clone(),
                reason: "a Zed extension provides it (its command is the extension's)".into(),
            });
            continue;
        }
        match parse_entry(name, &flatten_command(entry), &DIALECT) {
            Ok(server) => section.servers.push(server),
            Err(reason) => section.skipped.push(Skipped {
                name: name.clone(),
                reason,
            }),
        }
    }
    Ok(vec![section])
}

/// The older `command: { path, args, env }` form, as the newer flat one.
fn flatten_command(entry: &Value) -> Value {
    let Some(object) = entry.as_object() else {
        return entry.clone();
    };
    let Some(Value::Object(command)) = object.get("command") else {
        return entry.clone();
    };
    let mut flat: Map<String, Value> = object.clone();
    flat.remove("command");
    for (from, to) in [("path", "command"), ("args", "args"), ("env", "env")] {
        if let Some(v) = command.get(from) {
            flat.insert(to.to_owned(), v.clone());
        }
    }
    for (key, v) in command {
        if !matches!(key.as_str(), "path" | "args" | "env") {
            flat.insert(format!("command.{key}"), v.clone());
        }
    }
    Value::Object(flat)
}
