//! A made-up home holding every agent's config file at its real place (the fixtures of
//! tests/fixtures/agents/), and a project beside it: what the agents, import and connect tests
//! read and write.

use std::path::{Path, PathBuf};

use gatehouse_host::agents::places::Places;

/// A fixture's text.
pub fn fixture(name: &str) -> String {
    let path = super::fixtures().join("agents").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A made-up home under `root` with every fixture at its agent's real place, and a project
/// beside it (`root/project`, which the fixtures' `@PROJECT@` names).
pub fn made_up_home(root: &Path) -> (Places, PathBuf) {
    let home = root.join("home");
    let config = home.join(".config");
    let project = root.join("project");
    let put = |to: PathBuf, name: &str| {
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("create the directory");
        let text = fixture(name).replace("@PROJECT@", &project.display().to_string());
        std::fs::write(to, text).expect("write the fixture");
    };
    put(home.join(".claude.json"), "claude.json");
    put(project.join(".mcp.json"), "claude-project.mcp.json");
    put(
        config.join("Claude/claude_desktop_config.json"),
        "claude_desktop_config.json",
    );
    put(home.join(".cursor/mcp.json"), "cursor-mcp.json");
    put(config.join("Code/User/mcp.json"), "vscode-mcp.json");
    put(project.join(".vscode/mcp.json"), "vscode-project-mcp.json");
    put(home.join(".codex/config.toml"), "codex-config.toml");
    put(home.join(".gemini/settings.json"), "gemini-settings.json");
    put(
        home.join(".codeium/windsurf/mcp_config.json"),
        "windsurf-mcp_config.json",
    );
    put(config.join("zed/settings.json"), "zed-settings.json");
    put(project.join("server.json"), "server.json");
    let places = Places {
        codex_home: home.join(".codex"),
        home,
        config_dir: config,
    };
    (places, project)
}
