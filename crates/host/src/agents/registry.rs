//! The MCP registry's `server.json` (in a project directory): each of its `packages` (npm,
//! PyPI, OCI, NuGet, MCPB) becomes the stdio server its runtime would start, with its
//! `runtimeArguments`, `packageArguments` and `environmentVariables` (`isSecret` marks a secret
//! one; `value`/`default` give its value, else the person supplies it); each of its `remotes`
//! (`streamable-http` or `sse`, `url`, `headers` with `isSecret`) a remote server.
//! Documented at <https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/server-json/generic-server-json.md>
//! and <https://modelcontextprotocol.io/registry/remote-servers>.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::entry::kind;
use super::model::{
    FileError, Launch, Remote, RemoteTransport, ServerEntry, Setting, Skipped, Stdio,
};
use super::read::{parse_json, plain};
use super::section::Section;

pub fn project_files(dir: &Path) -> Vec<PathBuf> {
    vec![dir.join("server.json")]
}

pub fn parse(text: &str) -> Result<Vec<Section>, FileError> {
    let value = parse_json(text)?;
    let Some(top) = value.as_object() else {
        return Err(plain(format!(
            "its top level is {}, not an object",
            kind(&value)
        )));
    };
    let name = top
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| plain("it has no `name`".into()))?;
    let mut section = Section::default();
    let list = |key: &str| -> Result<Vec<Value>, FileError> {
        match top.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items.clone()),
            Some(other) => Err(plain(format!("`{key}` is {}, not a list", kind(other)))),
        }
    };
    for (i, package) in list("packages")?.iter().enumerate() {
        let kind = package
            .get("registryType")
            .and_then(Value::as_str)
            .unwrap_or("package");
        let entry_name = format!("{name} ({kind} #{})", i + 1);
        match stdio_package(package) {
            Ok(stdio) => section
                .servers
                .push(ServerEntry::new(entry_name, Launch::Stdio(stdio))),
            Err(reason) => section.skipped.push(Skipped {
                name: entry_name,
                reason,
            }),
        }
    }
    for (i, remote) in list("remotes")?.iter().enumerate() {
        let entry_name = format!("{name} (remote #{})", i + 1);
        match remote_entry(remote) {
            Ok(remote) => section
                .servers
                .push(ServerEntry::new(entry_name, Launch::Remote(remote))),
            Err(reason) => section.skipped.push(Skipped {
                name: entry_name,
                reason,
            }),
        }
    }
    Ok(vec![section])
}

fn stdio_package(package: &Value) -> Result<Stdio, String> {
    let text = |key: &str| package.get(key).and_then(Value::as_str);
    let registry = text("registryType").ok_or("it has no `registryType`")?;
    let identifier = text("identifier").ok_or("it has no `identifier`")?;
    let version = text("version");
    let transport = package
        .get("transport")
        .and_then(|t| t.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("stdio");
    if transport != "stdio" {
        return Err(format!(
            "the package serves `{transport}` on a URL once started; Gatehouse cannot start it and then reach it"
        ));
    }
    let (default_runtime, package_arg) = match registry {
        "npm" => (
            "npx",
            vec!["-y".to_owned(), versioned(identifier, version, "@")],
        ),
        "pypi" => ("uvx", vec![versioned(identifier, version, "==")]),
        "oci" => (
            "docker",
            vec![
                "run".into(),
                "-i".into(),
                "--rm".into(),
                versioned(identifier, version, ":"),
            ],
        ),
        "nuget" => (
            "dnx",
            vec![versioned(identifier, version, "@"), "--yes".into()],
        ),
        other => {
            return Err(format!(
                "a `{other}` package is installed by the agent, not started by a command"
            ));
        }
    };
    let mut args = arguments(package.get("runtimeArguments"))?;
    args.extend(package_arg);
    args.extend(arguments(package.get("packageArguments"))?);
    Ok(Stdio {
        command: text("runtimeHint").unwrap_or(default_runtime).to_owned(),
        args,
        env: settings(package.get("environmentVariables"))?,
        ..Default::default()
    })
}

fn remote_entry(remote: &Value) -> Result<Remote, String> {
    let transport = match remote.get("type").and_then(Value::as_str) {
        Some("streamable-http") => RemoteTransport::StreamableHttp,
        Some("sse") => RemoteTransport::Sse,
        Some(other) => {
            return Err(format!(
                "`type` is `{other}`, a transport Gatehouse does not know"
            ));
        }
        None => return Err("it has no `type`".into()),
    };
    let url = remote
        .get("url")
        .and_then(Value::as_str)
        .ok_or("it has no `url`")?;
    Ok(Remote {
        url: url.to_owned(),
        headers: settings(remote.get("headers"))?,
        transport: Some(transport),
        bearer_token_env_var: None,
        env_headers: Vec::new(),
    })
}

fn versioned(identifier: &str, version: Option<&str>, separator: &str) -> String {
    match version {
        Some(v) if !v.is_empty() => format!("{identifier}{separator}{v}"),
        _ => identifier.to_owned(),
    }
}

/// `[{ "type": "positional"|"named", "name", "value", "default", "valueHint" }]` as args; an
/// argument with no value keeps its hint in braces (`{port}`), as the registry writes variables.
fn arguments(list: Option<&Value>) -> Result<Vec<String>, String> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let items = list.as_array().ok_or("an arguments field is not a list")?;
    let mut args = Vec::new();
    for item in items {
        let text = |key: &str| item.get(key).and_then(Value::as_str);
        let value = text("value")
            .or(text("default"))
            .map(str::to_owned)
            .or_else(|| text("valueHint").map(|h| format!("{{{h}}}")));
        match text("type") {
            Some("named") => {
                args.push(
                    text("name")
                        .ok_or("a named argument has no `name`")?
                        .to_owned(),
                );
                args.extend(value);
            }
            _ => args.extend(value),
        }
    }
    Ok(args)
}

/// `[{ "name", "value"?, "default"?, "isSecret"? }]`.
fn settings(list: Option<&Value>) -> Result<Vec<Setting>, String> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let items = list
        .as_array()
        .ok_or("a variables or headers field is not a list")?;
    let mut out = Vec::new();
    for item in items {
        let text = |key: &str| item.get(key).and_then(Value::as_str);
        out.push(Setting {
            name: text("name")
                .ok_or("a variable or header has no `name`")?
                .to_owned(),
            value: text("value").or(text("default")).map(str::to_owned),
            marked_secret: item.get("isSecret").and_then(Value::as_bool) == Some(true),
        });
    }
    Ok(out)
}
