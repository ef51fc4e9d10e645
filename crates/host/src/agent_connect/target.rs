//! Which file (and section) of an agent `gatehouse connect` rewrites: the person's file, or
//! with a project directory the project's (for Claude Code also the project's section of
//! `~/.claude.json`); of those that exist, the one the import took servers from, else the
//! first. Read and parsed here, so a file that does not parse is refused with its line and
//! column before anything else happens.

use std::path::{Path, PathBuf};

use super::backup::read_config;
use crate::agent_import::record::Imported;
use crate::agents::discover::{parse, project_files, user_files};
use crate::agents::model::{Agent, FileError, Scope, ServerEntry, Skipped};
use crate::agents::places::Places;
use crate::error::{HostError, Result};

/// The servers object a connect rewrites, as read now.
#[derive(Debug, Clone)]
pub struct Target {
    pub path: PathBuf,
    pub scope: Scope,
    pub section: Option<String>,
    /// The file's text, as read for the preview.
    pub text: String,
    pub servers: Vec<ServerEntry>,
    pub skipped: Vec<Skipped>,
}

/// The file and section to rewrite for `agent`.
pub fn choose(
    agent: Agent,
    places: &Places,
    project: Option<&Path>,
    imported: &[Imported],
) -> Result<Target> {
    if agent == Agent::Registry {
        return Err(HostError::Validation(
            "the MCP registry's server.json is not an agent's config: there is nothing to connect"
                .into(),
        ));
    }
    let mut places_to_look: Vec<(PathBuf, Scope)> = Vec::new();
    match project {
        Some(dir) => {
            places_to_look.extend(
                project_files(agent, dir)
                    .into_iter()
                    .map(|p| (p, Scope::Project)),
            );
            if agent == Agent::ClaudeCode {
                places_to_look.extend(
                    user_files(agent, places)
                        .into_iter()
                        .map(|p| (p, Scope::User)),
                );
            }
        }
        None => places_to_look.extend(
            user_files(agent, places)
                .into_iter()
                .map(|p| (p, Scope::User)),
        ),
    }
    if places_to_look.is_empty() {
        return Err(HostError::Validation(format!(
            "{} keeps no project files; connect it without --project",
            agent.title()
        )));
    }
    let mut found = Vec::new();
    for (path, scope) in &places_to_look {
        if !path.exists() {
            continue;
        }
        let text = read_config(path)?;
        let sections = parse(agent, *scope, &text, project).map_err(|e| parse_error(path, &e))?;
        for (i, section) in sections.into_iter().enumerate() {
            // `~/.claude.json` with a project: only that project's section; without: only the
            // person's own.
            let wanted = match (agent, *scope, project) {
                (Agent::ClaudeCode, Scope::User, Some(_)) => i > 0,
                _ => i == 0,
            };
            if wanted {
                found.push(Target {
                    path: path.clone(),
                    scope: *scope,
                    section: section.section,
                    text: text.clone(),
                    servers: section.servers,
                    skipped: section.skipped,
                });
            }
        }
    }
    let from_import = found.iter().position(|t| {
        imported
            .iter()
            .any(|i| same_file(&i.file, &t.path) && i.section == t.section)
    });
    match from_import.or(if found.is_empty() { None } else { Some(0) }) {
        Some(i) => Ok(found.swap_remove(i)),
        None => Err(HostError::NotFound(format!(
            "no {} config found (looked for {}): nothing to connect",
            agent.title(),
            places_to_look
                .iter()
                .map(|(p, _)| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

pub fn same_file(a: &Path, b: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    a == b || canonical(a) == canonical(b)
}

pub fn parse_error(path: &Path, error: &FileError) -> HostError {
    let at = match (error.line, error.column) {
        (Some(line), Some(column)) => format!(":{line}:{column}"),
        _ => String::new(),
    };
    HostError::Validation(format!("{}{at}: {}", path.display(), error.message))
}
