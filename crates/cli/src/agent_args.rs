//! What `import` and `connect` take from their command line alike: the agent, by its id, and
//! `--project DIR`, made absolute.

use std::path::{Path, PathBuf};

use gatehouse_host::HostError;
use gatehouse_host::agents::Agent;

/// The agent named `name` among `agents`; otherwise the error `unknown` words from the list of
/// their names.
pub fn agent_named(
    name: &str,
    agents: impl Iterator<Item = Agent> + Clone,
    unknown: impl FnOnce(&str) -> String,
) -> Result<Agent, HostError> {
    agents.clone().find(|a| a.id() == name).ok_or_else(|| {
        let known: Vec<&str> = agents.map(Agent::id).collect();
        HostError::Validation(unknown(&known.join(", ")))
    })
}

/// `--project DIR` as an absolute path; an error when it is not a directory.
pub fn project_dir(project: Option<&Path>) -> Result<Option<PathBuf>, HostError> {
    let Some(dir) = project else {
        return Ok(None);
    };
    if !dir.is_dir() {
        return Err(HostError::Validation(format!(
            "--project {}: not a directory",
            dir.display()
        )));
    }
    std::path::absolute(dir)
        .map(Some)
        .map_err(|e| HostError::Validation(format!("--project: {e}")))
}
