//! What `gatehouse agents` (and later the window) may show of the files found: per agent its
//! files, per file its servers with their kind, command or URL, whether they go through
//! Gatehouse, warnings, skipped entries, and the plaintext secrets by name and place only. No
//! value of an env variable, header or unknown field is in it; a secret-looking argument is
//! shown as `[secret]`, a URL without its user info and query values. This is the stable shape
//! of `gatehouse agents --json` (docs/gateway.md, "Bring your agents").

use std::path::PathBuf;

use serde::Serialize;

use super::model::{Agent, ConfigFile, Input, Launch, RemoteTransport, Scope, ServerEntry};
use super::plaintext::{SecretFound, SecretPlace, plaintext_secrets};
use super::references::Reference;
use super::secrets::classify;
use super::through::through_gatehouse;

#[derive(Debug, Serialize)]
pub struct Listing {
    pub agents: Vec<AgentListing>,
}

#[derive(Debug, Serialize)]
pub struct AgentListing {
    pub agent: Agent,
    pub title: &'static str,
    pub files: Vec<FileListing>,
}

#[derive(Debug, Serialize)]
pub struct FileListing {
    pub path: PathBuf,
    pub scope: Scope,
    pub section: Option<String>,
    pub error: Option<ErrorListing>,
    pub servers: Vec<ServerListing>,
    pub skipped: Vec<SkippedListing>,
    pub inputs: Vec<InputListing>,
}

#[derive(Debug, Serialize)]
pub struct ErrorListing {
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

#[derive(Debug, Serialize)]
pub struct SkippedListing {
    pub name: String,
    pub reason: String,
}

#[derive(Debug, Serialize)]
pub struct InputListing {
    pub id: String,
    pub password: bool,
}

#[derive(Debug, Serialize)]
pub struct ServerListing {
    pub name: String,
    /// `stdio`, `streamable-http`, `sse`, or `http` (a URL whose transport the agent chooses).
    pub kind: &'static str,
    pub command: Option<String>,
    pub args: Vec<String>,
    pub url: Option<String>,
    /// Names only.
    pub env: Vec<String>,
    /// Names only.
    pub headers: Vec<String>,
    pub bearer_token_env_var: Option<String>,
    pub through_gatehouse: bool,
    pub disabled: bool,
    pub include_tools: Option<Vec<String>>,
    pub exclude_tools: Option<Vec<String>>,
    pub trust: Option<bool>,
    pub references: Vec<ReferenceListing>,
    pub warnings: Vec<String>,
    pub plaintext_secrets: Vec<SecretFound>,
}

/// A reference by kind and name; its default, which may be a literal secret, is not shown.
#[derive(Debug, Serialize)]
pub struct ReferenceListing {
    pub kind: &'static str,
    pub name: String,
    pub has_default: bool,
}

/// The files, grouped by agent (agents with no file found are left out).
pub fn listing(files: &[ConfigFile], gateway_ports: &[u16]) -> Listing {
    let mut agents: Vec<AgentListing> = Vec::new();
    for file in files {
        let listed = file_listing(file, gateway_ports);
        match agents.iter_mut().find(|a| a.agent == file.agent) {
            Some(agent) => agent.files.push(listed),
            None => agents.push(AgentListing {
                agent: file.agent,
                title: file.agent.title(),
                files: vec![listed],
            }),
        }
    }
    Listing { agents }
}

fn file_listing(file: &ConfigFile, gateway_ports: &[u16]) -> FileListing {
    FileListing {
        path: file.path.clone(),
        scope: file.scope,
        section: file.section.clone(),
        error: file.error.as_ref().map(|e| ErrorListing {
            message: e.message.clone(),
            line: e.line,
            column: e.column,
        }),
        servers: file
            .servers
            .iter()
            .map(|s| server_listing(s, gateway_ports))
            .collect(),
        skipped: file
            .skipped
            .iter()
            .map(|s| SkippedListing {
                name: s.name.clone(),
                reason: s.reason.clone(),
            })
            .collect(),
        inputs: file.inputs.iter().map(input_listing).collect(),
    }
}

fn input_listing(input: &Input) -> InputListing {
    InputListing {
        id: input.id.clone(),
        password: input.password,
    }
}

fn server_listing(entry: &ServerEntry, gateway_ports: &[u16]) -> ServerListing {
    let secrets = plaintext_secrets(entry);
    let secret_arg = |i: usize| {
        secrets
            .iter()
            .any(|s| s.place == SecretPlace::Arg && s.name == format!("args[{i}]"))
    };
    let (kind, command, args, url, env, headers, bearer) = match &entry.launch {
        Launch::Stdio(stdio) => (
            "stdio",
            Some(stdio.command.clone()),
            stdio
                .args
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    if secret_arg(i) {
                        "[secret]".to_owned()
                    } else {
                        a.clone()
                    }
                })
                .collect(),
            None,
            stdio.env.iter().map(|s| s.name.clone()).collect(),
            Vec::new(),
            None,
        ),
        Launch::Remote(remote) => (
            match remote.transport {
                Some(RemoteTransport::StreamableHttp) => "streamable-http",
                Some(RemoteTransport::Sse) => "sse",
                None => "http",
            },
            None,
            Vec::new(),
            Some(shown_url(&remote.url)),
            Vec::new(),
            remote
                .headers
                .iter()
                .map(|s| s.name.clone())
                .chain(remote.env_headers.iter().map(|(name, _)| name.clone()))
                .collect(),
            remote.bearer_token_env_var.clone(),
        ),
    };
    ServerListing {
        name: entry.name.clone(),
        kind,
        command,
        args,
        url,
        env,
        headers,
        bearer_token_env_var: bearer,
        through_gatehouse: through_gatehouse(entry, gateway_ports),
        disabled: entry.disabled,
        include_tools: entry.include_tools.clone(),
        exclude_tools: entry.exclude_tools.clone(),
        trust: entry.trust,
        references: entry
            .references()
            .into_iter()
            .map(|r| match r {
                Reference::Env { name, default } => ReferenceListing {
                    kind: "env",
                    name,
                    has_default: default.is_some(),
                },
                Reference::Input { id } => ReferenceListing {
                    kind: "input",
                    name: id,
                    has_default: false,
                },
                Reference::Predefined { name } => ReferenceListing {
                    kind: "predefined",
                    name,
                    has_default: false,
                },
            })
            .collect(),
        warnings: entry.warnings.clone(),
        plaintext_secrets: secrets,
    }
}

/// A URL as shown: no user info, query parameter names kept and values left out.
fn shown_url(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(url) => {
            let mut shown = format!("{}://", url.scheme());
            shown.push_str(url.host_str().unwrap_or(""));
            if let Some(port) = url.port() {
                shown.push_str(&format!(":{port}"));
            }
            shown.push_str(url.path());
            let names: Vec<String> = url.query_pairs().map(|(k, _)| format!("{k}=…")).collect();
            if !names.is_empty() {
                shown.push('?');
                shown.push_str(&names.join("&"));
            }
            shown
        }
        // A URL made of `${…}` references: shown unless its literal part looks secret.
        Err(_) if classify(None, raw, false).is_none() => raw.to_owned(),
        Err(_) => "[not shown: it holds a secret]".to_owned(),
    }
}
