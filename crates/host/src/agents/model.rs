//! The one neutral model every agent's config file is read into: the files found, each file's
//! servers (stdio or remote), what Gatehouse could not represent (skipped, with the reason) and
//! what it did not know (kept, warned about). Values are kept exactly as the file has them,
//! `${VAR}`-style references unresolved: import and connect (later) work from this model, and
//! [`super::listing`] makes from it what may be shown (names, never values).

use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value};

use super::references::Reference;

/// An agent whose MCP servers Gatehouse can read, or the MCP registry's `server.json`.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Agent {
    ClaudeCode,
    ClaudeDesktop,
    Cursor,
    Vscode,
    Codex,
    Gemini,
    Windsurf,
    Zed,
    Registry,
}

impl Agent {
    pub const ALL: [Agent; 9] = [
        Agent::ClaudeCode,
        Agent::ClaudeDesktop,
        Agent::Cursor,
        Agent::Vscode,
        Agent::Codex,
        Agent::Gemini,
        Agent::Windsurf,
        Agent::Zed,
        Agent::Registry,
    ];

    /// The name the CLI and `--json` use (`claude-code`, `vscode`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::ClaudeDesktop => "claude-desktop",
            Agent::Cursor => "cursor",
            Agent::Vscode => "vscode",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Windsurf => "windsurf",
            Agent::Zed => "zed",
            Agent::Registry => "registry",
        }
    }

    /// The name a person knows it by.
    pub fn title(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code",
            Agent::ClaudeDesktop => "Claude Desktop",
            Agent::Cursor => "Cursor",
            Agent::Vscode => "VS Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
            Agent::Windsurf => "Windsurf",
            Agent::Zed => "Zed",
            Agent::Registry => "MCP registry server.json",
        }
    }
}

/// Whether a file is the person's own (under the home directory) or a project's.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
// Named apart from the approvals' `Scope` where both cross IPC (a unit enum's JSON is the same).
#[serde(rename = "AgentFileScope", rename_all = "kebab-case")]
pub enum Scope {
    User,
    Project,
}

/// One config file found, or one section of it (Claude Code's `~/.claude.json` holds the
/// person's servers and, per project, `projects[PATH].mcpServers`).
#[derive(Debug, Clone)]
pub struct ConfigFile {
    pub agent: Agent,
    pub path: PathBuf,
    pub scope: Scope,
    /// Where in the file the servers are, when not at the format's usual place
    /// (`projects["/home/me/app"].mcpServers`).
    pub section: Option<String>,
    pub servers: Vec<ServerEntry>,
    pub skipped: Vec<Skipped>,
    /// VS Code's `inputs`: values the agent asks the person for when a server starts.
    pub inputs: Vec<Input>,
    /// The file could not be read or parsed: nothing of it is listed.
    pub error: Option<FileError>,
}

/// Why a file's servers could not be read: it does not parse (with the line and column), is too
/// large, is not UTF-8, or its servers' section is not what the format says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub message: String,
    /// 1-based, when the parser says where.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A server entry Gatehouse cannot represent, kept in the list with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub name: String,
    pub reason: String,
}

/// A VS Code input (`${input:ID}`), asked of the person when the server starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub id: String,
    pub description: Option<String>,
    /// `password: true`: the format marks the value secret.
    pub password: bool,
}

/// One server, as the agent configures it.
#[derive(Debug, Clone)]
pub struct ServerEntry {
    pub name: String,
    pub launch: Launch,
    /// The agent has it switched off (`disabled: true`, `enabled = false`, Gemini's
    /// `mcp.excluded`).
    pub disabled: bool,
    /// Only these of its tools are offered (Gemini `includeTools`, Codex `enabled_tools`).
    pub include_tools: Option<Vec<String>>,
    /// These of its tools are not offered (Gemini `excludeTools`, Codex `disabled_tools`,
    /// Windsurf `disabledTools`).
    pub exclude_tools: Option<Vec<String>>,
    /// Gemini's `trust`: its calls are not confirmed with the person.
    pub trust: Option<bool>,
    /// Fields Gatehouse does not know, kept as the file has them.
    pub unknown: Map<String, Value>,
    /// What else is worth saying about it (a value coerced to text, a field ignored).
    pub warnings: Vec<String>,
}

impl ServerEntry {
    pub fn new(name: String, launch: Launch) -> Self {
        ServerEntry {
            name,
            launch,
            disabled: false,
            include_tools: None,
            exclude_tools: None,
            trust: None,
            unknown: Map::new(),
            warnings: Vec::new(),
        }
    }

    /// Every `${…}` reference in its command, args, env, cwd, URL and headers.
    pub fn references(&self) -> Vec<Reference> {
        let mut found = Vec::new();
        let mut scan = |text: &str| found.extend(super::references::find(text));
        match &self.launch {
            Launch::Stdio(stdio) => {
                scan(&stdio.command);
                stdio.args.iter().for_each(|a| scan(a));
                stdio
                    .env
                    .iter()
                    .flat_map(|s| &s.value)
                    .for_each(|v| scan(v));
                if let Some(cwd) = &stdio.cwd {
                    scan(cwd);
                }
                if let Some(file) = &stdio.env_file {
                    scan(file);
                }
            }
            Launch::Remote(remote) => {
                scan(&remote.url);
                remote
                    .headers
                    .iter()
                    .flat_map(|s| &s.value)
                    .for_each(|v| scan(v));
            }
        }
        found
    }
}

/// How the agent reaches the server.
#[derive(Debug, Clone)]
pub enum Launch {
    Stdio(Stdio),
    Remote(Remote),
}

/// A server the agent starts as a process and speaks to on its stdin/stdout.
#[derive(Debug, Clone, Default)]
pub struct Stdio {
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<Setting>,
    pub cwd: Option<String>,
    /// A file of `NAME=value` lines the agent loads into the server's environment (VS Code and
    /// Cursor `envFile`); not read here.
    pub env_file: Option<String>,
    /// Names of the agent's own environment variables passed through (Codex `env_vars`).
    pub env_passed: Vec<String>,
}

/// A server the agent reaches over HTTP.
#[derive(Debug, Clone)]
pub struct Remote {
    pub url: String,
    pub headers: Vec<Setting>,
    /// As the format says; `None` when it leaves the choice to the agent (Cursor and Windsurf
    /// try Streamable HTTP, then SSE).
    pub transport: Option<RemoteTransport>,
    /// Codex `bearer_token_env_var`: the agent sends `Authorization: Bearer $VAR`.
    pub bearer_token_env_var: Option<String>,
    /// Codex `env_http_headers`: a header whose value is the named environment variable's.
    pub env_headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RemoteTransport {
    StreamableHttp,
    Sse,
}

/// An env variable or an HTTP header, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub name: String,
    /// `None`: the file names it without a value (a registry `server.json` variable the person
    /// supplies).
    pub value: Option<String>,
    /// The format marks it secret (registry `isSecret`).
    pub marked_secret: bool,
}

impl Setting {
    pub fn plain(name: impl Into<String>, value: impl Into<String>) -> Self {
        Setting {
            name: name.into(),
            value: Some(value.into()),
            marked_secret: false,
        }
    }
}
