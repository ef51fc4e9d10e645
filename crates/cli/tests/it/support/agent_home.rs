//! A made-up home (`HOME`, `XDG_CONFIG_HOME` set on each command) with each agent's fixture
//! (tests/fixtures/agents/) at that agent's real place, a project beside it and a data directory:
//! what the `agents`, `import` and `connect` tests run the CLI on.

use std::path::{Path, PathBuf};
use std::process::Output;

pub struct MadeUp {
    pub _root: tempfile::TempDir,
    pub home: PathBuf,
    pub project: PathBuf,
    pub data: PathBuf,
}

pub fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/agents")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn put(to: &Path, text: &str) {
    std::fs::create_dir_all(to.parent().expect("a parent")).expect("the directory is made");
    std::fs::write(to, text).expect("the file is written");
}

pub fn made_up_home() -> MadeUp {
    let root = tempfile::tempdir().expect("a temporary directory");
    let home = root.path().join("home");
    let project = root.path().join("project");
    let config = home.join(".config");
    let copy = |to: PathBuf, name: &str| {
        put(
            &to,
            &fixture(name).replace("@PROJECT@", &project.display().to_string()),
        );
    };
    copy(home.join(".claude.json"), "claude.json");
    copy(project.join(".mcp.json"), "claude-project.mcp.json");
    copy(
        config.join("Claude/claude_desktop_config.json"),
        "claude_desktop_config.json",
    );
    copy(home.join(".cursor/mcp.json"), "cursor-mcp.json");
    copy(config.join("Code/User/mcp.json"), "vscode-mcp.json");
    copy(project.join(".vscode/mcp.json"), "vscode-project-mcp.json");
    copy(home.join(".codex/config.toml"), "codex-config.toml");
    copy(home.join(".gemini/settings.json"), "gemini-settings.json");
    copy(
        home.join(".codeium/windsurf/mcp_config.json"),
        "windsurf-mcp_config.json",
    );
    copy(config.join("zed/settings.json"), "zed-settings.json");
    copy(project.join("server.json"), "server.json");
    MadeUp {
        data: root.path().join("data"),
        _root: root,
        home,
        project,
    }
}

impl MadeUp {
    /// `gatehouse SUBCOMMAND ARGS` on the made-up home (`HOME`, `XDG_CONFIG_HOME`) and its data
    /// directory.
    pub fn run(&self, subcommand: &str, args: &[&str]) -> Output {
        self.command(subcommand, args)
            .output()
            .expect("the binary runs")
    }

    /// The command [`MadeUp::run`] runs, to add to.
    pub fn command(&self, subcommand: &str, args: &[&str]) -> std::process::Command {
        let mut command = super::command(&self.data);
        command
            .arg(subcommand)
            .args(args)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env_remove("CODEX_HOME")
            .env_remove("APPDATA");
        command
    }
}
