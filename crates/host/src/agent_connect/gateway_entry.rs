//! The one entry `gatehouse connect` writes into an agent's config: the running `gatehouse`
//! binary, `--data-dir DIR` when one was chosen, then `mcp --client AGENT`, in the agent's own
//! stdio shape. Each shape is the agent's documented one:
//! - Claude Code `mcpServers.NAME {type: "stdio", command, args}`:
//!   <https://code.claude.com/docs/en/mcp>
//! - Claude Desktop `mcpServers.NAME {command, args}`:
//!   <https://modelcontextprotocol.io/docs/develop/connect-local-servers>
//! - Cursor `mcpServers.NAME {command, args}`: <https://cursor.com/docs/context/mcp>
//! - VS Code `servers.NAME {type: "stdio", command, args}`:
//!   <https://code.visualstudio.com/docs/copilot/reference/mcp-configuration>
//! - Codex `[mcp_servers.NAME] command, args`: <https://developers.openai.com/codex/mcp>
//! - Gemini CLI `mcpServers.NAME {command, args}`:
//!   <https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md>
//! - Windsurf `mcpServers.NAME {command, args}`: <https://docs.windsurf.com/windsurf/cascade/mcp>
//! - Zed `context_servers.NAME {source: "custom", command, args}`: <https://zed.dev/docs/ai/mcp>

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::agents::Agent;

/// The name of the entry Gatehouse writes.
pub const ENTRY_NAME: &str = "gatehouse";

/// How the agent starts Gatehouse's gateway: `COMMAND ARGS…`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayLaunch {
    pub command: String,
    pub args: Vec<String>,
}

impl GatewayLaunch {
    /// `EXE [--data-dir DIR] mcp --client AGENT_ID`.
    pub fn new(exe: &Path, data_dir: Option<&Path>, agent: Agent) -> GatewayLaunch {
        let mut args = Vec::new();
        if let Some(dir) = data_dir {
            args.push("--data-dir".to_owned());
            args.push(dir.display().to_string());
        }
        args.extend(["mcp", "--client", agent.id()].map(str::to_owned));
        GatewayLaunch {
            command: exe.display().to_string(),
            args,
        }
    }

    /// The running binary (`std::env::current_exe`), with the data directory given on the
    /// command line or in `GATEHOUSE_DATA_DIR`.
    pub fn current(data_dir: Option<&Path>, agent: Agent) -> std::io::Result<GatewayLaunch> {
        let exe = std::env::current_exe()?;
        let from_env = std::env::var_os("GATEHOUSE_DATA_DIR")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from);
        let dir = data_dir.map(Path::to_path_buf).or(from_env);
        let dir = dir.map(|d| std::path::absolute(&d).unwrap_or(d));
        Ok(GatewayLaunch::new(&exe, dir.as_deref(), agent))
    }

    /// The entry as the agent's JSON format writes it (`None` for Codex, which is TOML, and the
    /// registry, which is not an agent).
    pub fn json_entry(&self, agent: Agent) -> Option<Value> {
        let (command, args) = (&self.command, &self.args);
        match agent {
            Agent::ClaudeCode | Agent::Vscode => {
                Some(json!({ "type": "stdio", "command": command, "args": args }))
            }
            Agent::ClaudeDesktop | Agent::Cursor | Agent::Gemini | Agent::Windsurf => {
                Some(json!({ "command": command, "args": args }))
            }
            Agent::Zed => Some(json!({ "source": "custom", "command": command, "args": args })),
            Agent::Codex | Agent::Registry => None,
        }
    }
}

/// The key of the servers object in the agent's JSON file.
pub fn servers_key(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Vscode => Some("servers"),
        Agent::Zed => Some("context_servers"),
        Agent::ClaudeCode
        | Agent::ClaudeDesktop
        | Agent::Cursor
        | Agent::Gemini
        | Agent::Windsurf => Some("mcpServers"),
        Agent::Codex => Some("mcp_servers"),
        Agent::Registry => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_dir_goes_before_the_subcommand() {
        let launch = GatewayLaunch::new(
            Path::new("/opt/gh/gatehouse"),
            Some(Path::new("/d")),
            Agent::Cursor,
        );
        assert_eq!(
            launch.args,
            ["--data-dir", "/d", "mcp", "--client", "cursor"]
        );
        let plain = GatewayLaunch::new(Path::new("/opt/gh/gatehouse"), None, Agent::Zed);
        assert_eq!(plain.args, ["mcp", "--client", "zed"]);
        assert_eq!(
            plain.json_entry(Agent::Zed),
            Some(
                json!({"source": "custom", "command": "/opt/gh/gatehouse", "args": ["mcp", "--client", "zed"]})
            )
        );
    }
}
