//! One server entry of an `mcpServers`-style object, read into the neutral model. The agents'
//! formats share `command`/`args`/`env`/`cwd` and `url`/`headers`, and differ in how they say the
//! transport and that a server is off; [`Dialect`] holds those differences (each agent's own
//! file says where its documentation says so).

use serde_json::{Map, Value};

use super::model::{Launch, Remote, RemoteTransport, ServerEntry, Setting, Stdio};

/// How one agent's format writes what differs between agents.
#[derive(Debug, Clone, Copy)]
pub struct Dialect {
    /// Fields beyond the shared ones that the agent documents and Gatehouse reads or ignores
    /// knowingly (not warned about).
    pub known: &'static [&'static str],
    /// The field holding the remote URL, with the transport it implies (`None`: the `type`
    /// field says, or the agent chooses).
    pub url_fields: &'static [(&'static str, Option<RemoteTransport>)],
    /// `type` is read (`stdio`, `http`, `sse`, ...).
    pub typed: bool,
    /// `disabled: true` switches the server off.
    pub disabled_field: bool,
    /// `enabled: false` switches the server off.
    pub enabled_field: bool,
    /// Field names for include/exclude tool lists.
    pub include_tools: Option<&'static str>,
    pub exclude_tools: Option<&'static str>,
    /// Gemini's `trust`.
    pub trust: bool,
    /// Codex's names: `http_headers`, `env_http_headers`, `bearer_token_env_var`, `env_vars`.
    pub codex: bool,
}

impl Dialect {
    pub const BASE: Dialect = Dialect {
        known: &[],
        url_fields: &[("url", None)],
        typed: true,
        disabled_field: false,
        enabled_field: false,
        include_tools: None,
        exclude_tools: None,
        trust: false,
        codex: false,
    };
}

const SHARED: &[&str] = &[
    "command", "args", "env", "cwd", "headers", "type", "envFile",
];

/// The entry, or the reason Gatehouse cannot represent it (the entry is then listed as skipped).
pub fn parse_entry(name: &str, value: &Value, dialect: &Dialect) -> Result<ServerEntry, String> {
    let Some(object) = value.as_object() else {
        return Err(format!("its entry is {}, not an object", kind(value)));
    };
    let mut warnings = Vec::new();
    let declared_type = match object.get("type") {
        Some(t) if dialect.typed => Some(
            t.as_str()
                .ok_or_else(|| format!("`type` is {}, not text", kind(t)))?
                .to_ascii_lowercase(),
        ),
        _ => None,
    };
    let url_field = dialect
        .url_fields
        .iter()
        .find(|(field, _)| object.contains_key(*field));
    let command = object.get("command");
    let launch = match (command, url_field) {
        (Some(_), Some((field, _))) => {
            return Err(format!("it has both a `command` and a `{field}`"));
        }
        (None, None) => return Err("it has neither a `command` nor a URL".into()),
        (Some(command), None) => {
            if let Some(t) = declared_type.as_deref()
                && t != "stdio"
                && t != "local"
            {
                return Err(format!("`type` is `{t}` but it has a `command` and no URL"));
            }
            Launch::Stdio(stdio(object, command, dialect, &mut warnings)?)
        }
        (None, Some((field, implied))) => {
            let transport = match declared_type.as_deref() {
                None => *implied,
                Some("http" | "streamable-http" | "streamablehttp" | "streamable_http") => {
                    Some(RemoteTransport::StreamableHttp)
                }
                Some("sse") => Some(RemoteTransport::Sse),
                Some(other) => {
                    return Err(format!(
                        "`type` is `{other}`, a transport Gatehouse does not know"
                    ));
                }
            };
            Launch::Remote(remote(object, field, transport, dialect, &mut warnings)?)
        }
    };
    let mut entry = ServerEntry::new(name.to_owned(), launch);
    entry.warnings = warnings;
    if dialect.disabled_field
        && let Some(disabled) = object.get("disabled")
    {
        entry.disabled = flag(disabled, "disabled")?;
    }
    if dialect.enabled_field
        && let Some(enabled) = object.get("enabled")
    {
        entry.disabled = !flag(enabled, "enabled")?;
    }
    if let Some(field) = dialect.include_tools
        && let Some(list) = object.get(field)
    {
        entry.include_tools = Some(strings(list, field)?);
    }
    if let Some(field) = dialect.exclude_tools
        && let Some(list) = object.get(field)
    {
        entry.exclude_tools = Some(strings(list, field)?);
    }
    if dialect.trust
        && let Some(trust) = object.get("trust")
    {
        entry.trust = Some(flag(trust, "trust")?);
    }
    let read: Vec<&str> = SHARED
        .iter()
        .chain(dialect.known)
        .chain(dialect.url_fields.iter().map(|(f, _)| f))
        .chain(dialect.include_tools.iter())
        .chain(dialect.exclude_tools.iter())
        .copied()
        .chain(dialect.disabled_field.then_some("disabled"))
        .chain(dialect.enabled_field.then_some("enabled"))
        .chain(dialect.trust.then_some("trust"))
        .chain(
            if dialect.codex {
                &[
                    "http_headers",
                    "env_http_headers",
                    "bearer_token_env_var",
                    "env_vars",
                ][..]
            } else {
                &[]
            }
            .iter()
            .copied(),
        )
        .collect();
    for (key, value) in object {
        if !read.contains(&key.as_str()) {
            entry
                .warnings
                .push(format!("unknown field `{key}` (kept, not used)"));
            entry.unknown.insert(key.clone(), value.clone());
        }
    }
    Ok(entry)
}

fn stdio(
    object: &Map<String, Value>,
    command: &Value,
    dialect: &Dialect,
    warnings: &mut Vec<String>,
) -> Result<Stdio, String> {
    let command = command
        .as_str()
        .ok_or_else(|| format!("`command` is {}, not text", kind(command)))?;
    if command.trim().is_empty() {
        return Err("`command` is empty".into());
    }
    Ok(Stdio {
        command: command.to_owned(),
        args: match object.get("args") {
            Some(args) => strings(args, "args")?,
            None => Vec::new(),
        },
        env: match object.get("env") {
            Some(env) => settings(env, "env", warnings)?,
            None => Vec::new(),
        },
        cwd: optional_text(object, "cwd")?,
        env_file: optional_text(object, "envFile")?,
        env_passed: match object.get("env_vars") {
            Some(list) if dialect.codex => strings(list, "env_vars")?,
            _ => Vec::new(),
        },
    })
}

fn remote(
    object: &Map<String, Value>,
    field: &str,
    transport: Option<RemoteTransport>,
    dialect: &Dialect,
    warnings: &mut Vec<String>,
) -> Result<Remote, String> {
    let url = object
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("`{field}` is not text"))?;
    if url::Url::parse(url).is_err() && super::references::find(url).is_empty() {
        return Err(format!("`{field}` is not a URL"));
    }
    let header_field = if dialect.codex {
        "http_headers"
    } else {
        "headers"
    };
    let mut env_headers = Vec::new();
    if dialect.codex
        && let Some(map) = object.get("env_http_headers")
    {
        for setting in settings(map, "env_http_headers", warnings)? {
            env_headers.push((setting.name, setting.value.unwrap_or_default()));
        }
    }
    Ok(Remote {
        url: url.to_owned(),
        headers: match object.get(header_field) {
            Some(h) => settings(h, header_field, warnings)?,
            None => Vec::new(),
        },
        transport,
        bearer_token_env_var: if dialect.codex {
            optional_text(object, "bearer_token_env_var")?
        } else {
            None
        },
        env_headers,
    })
}

/// A `{ "NAME": "value" }` object; numbers and booleans are taken as their text, with a warning.
pub fn settings(
    value: &Value,
    field: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<Setting>, String> {
    let Some(map) = value.as_object() else {
        return Err(format!("`{field}` is {}, not an object", kind(value)));
    };
    let mut out = Vec::new();
    for (name, v) in map {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => {
                warnings.push(format!("`{field}.{name}` is a number, taken as text"));
                n.to_string()
            }
            Value::Bool(b) => {
                warnings.push(format!("`{field}.{name}` is true/false, taken as text"));
                b.to_string()
            }
            other => return Err(format!("`{field}.{name}` is {}, not text", kind(other))),
        };
        out.push(Setting::plain(name.clone(), text));
    }
    Ok(out)
}

pub fn strings(value: &Value, field: &str) -> Result<Vec<String>, String> {
    let Some(list) = value.as_array() else {
        return Err(format!("`{field}` is {}, not a list", kind(value)));
    };
    list.iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(format!("`{field}[{i}]` is {}, not text", kind(other))),
        })
        .collect()
}

fn optional_text(object: &Map<String, Value>, field: &str) -> Result<Option<String>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("`{field}` is {}, not text", kind(other))),
    }
}

fn flag(value: &Value, field: &str) -> Result<bool, String> {
    value
        .as_bool()
        .ok_or_else(|| format!("`{field}` is {}, not true or false", kind(value)))
}

pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
