//! Finding the agents' config files on this machine (the person's own, and a project's under
//! the directory given) and reading each into the neutral model. A missing file is absent from
//! the list; one that cannot be read or parsed is listed with its error and nothing else.

use std::path::{Path, PathBuf};

use super::model::{Agent, ConfigFile, FileError, Scope};
use super::places::Places;
use super::read::read_bounded;
use super::section::Section;
use super::{claude_code, claude_desktop, codex, cursor, gemini, registry, vscode, windsurf, zed};

/// Every config file found, agent by agent (in [`Agent::ALL`]'s order), the person's files
/// before the project's.
pub fn discover(places: &Places, project: Option<&Path>) -> Vec<ConfigFile> {
    let mut found = Vec::new();
    for agent in Agent::ALL {
        for path in user_files(agent, places) {
            found.extend(read_file(agent, &path, Scope::User, project));
        }
        if let Some(dir) = project {
            for path in project_files(agent, dir) {
                found.extend(read_file(agent, &path, Scope::Project, project));
            }
        }
    }
    found
}

/// Where the agent keeps the person's own servers on this OS.
pub fn user_files(agent: Agent, places: &Places) -> Vec<PathBuf> {
    match agent {
        Agent::ClaudeCode => claude_code::user_files(places),
        Agent::ClaudeDesktop => claude_desktop::user_files(places),
        Agent::Cursor => cursor::user_files(places),
        Agent::Vscode => vscode::user_files(places),
        Agent::Codex => codex::user_files(places),
        Agent::Gemini => gemini::user_files(places),
        Agent::Windsurf => windsurf::user_files(places),
        Agent::Zed => zed::user_files(places),
        Agent::Registry => Vec::new(),
    }
}

/// Where the agent keeps a project's servers, under the project's directory.
pub fn project_files(agent: Agent, dir: &Path) -> Vec<PathBuf> {
    match agent {
        Agent::ClaudeCode => claude_code::project_files(dir),
        Agent::Cursor => cursor::project_files(dir),
        Agent::Vscode => vscode::project_files(dir),
        Agent::Codex => codex::project_files(dir),
        Agent::Gemini => gemini::project_files(dir),
        Agent::Zed => zed::project_files(dir),
        Agent::Registry => registry::project_files(dir),
        Agent::ClaudeDesktop | Agent::Windsurf => Vec::new(),
    }
}

/// Parses one file's text as `agent` writes it.
pub fn parse(
    agent: Agent,
    scope: Scope,
    text: &str,
    project: Option<&Path>,
) -> Result<Vec<Section>, FileError> {
    match (agent, scope) {
        (Agent::ClaudeCode, Scope::User) => claude_code::parse_user(text, project),
        (Agent::ClaudeCode, Scope::Project) => claude_code::parse_project(text),
        (Agent::ClaudeDesktop, _) => claude_desktop::parse(text),
        (Agent::Cursor, _) => cursor::parse(text),
        (Agent::Vscode, _) => vscode::parse(text),
        (Agent::Codex, _) => codex::parse(text),
        (Agent::Gemini, _) => gemini::parse(text),
        (Agent::Windsurf, _) => windsurf::parse(text),
        (Agent::Zed, _) => zed::parse(text),
        (Agent::Registry, _) => registry::parse(text),
    }
}

fn read_file(agent: Agent, path: &Path, scope: Scope, project: Option<&Path>) -> Vec<ConfigFile> {
    let file = |section: Section, scope: Scope, error: Option<FileError>| ConfigFile {
        agent,
        path: path.to_path_buf(),
        scope,
        section: section.section,
        servers: section.servers,
        skipped: section.skipped,
        inputs: section.inputs,
        error,
    };
    let text = match read_bounded(path) {
        Ok(Some(text)) => text,
        Ok(None) => return Vec::new(),
        Err(error) => return vec![file(Section::default(), scope, Some(error))],
    };
    match parse(agent, scope, &text, project) {
        Ok(sections) => sections
            .into_iter()
            .enumerate()
            // Claude Code's per-project sections of `~/.claude.json` are project-scoped.
            .map(|(i, s)| file(s, if i > 0 { Scope::Project } else { scope }, None))
            .collect(),
        Err(error) => vec![file(Section::default(), scope, Some(error))],
    }
}
