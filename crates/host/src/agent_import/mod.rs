//! Importing an agent's MCP servers into Gatehouse (`gatehouse import AGENT`, the window's
//! Import step): each entry of the agent's files ([`crate::agents`]) made into a Gatehouse
//! server ([`convert`]), secrets to the keyring and `${VAR}` kept as references, into a
//! [`plan`] the person previews ([`preview`], secrets [`mask`]ed) and confirms, carried out all
//! or nothing ([`apply`]) and recorded entry by entry ([`record`]) for `gatehouse connect`.

pub mod apply;
pub mod convert;
mod env_file;
pub mod mask;
pub mod plan;
pub mod preview;
pub mod record;

use std::collections::HashMap;
use std::path::Path;

use crate::agents::{Agent, Places, discover};
use crate::error::Result;
use crate::host::Host;

pub use apply::{Written, apply};
pub use convert::Context;
pub use plan::{Choices, ImportPlan, OnClash};
pub use record::{Imported, imported};

/// The plan for importing `agent`'s servers (its person's files, and the project's under
/// `project`), given this Gatehouse's servers and the person's choices.
pub async fn preview(
    host: &Host,
    places: &Places,
    agent: Agent,
    project: Option<&Path>,
    choices: &Choices,
    gateway_ports: &[u16],
) -> Result<ImportPlan> {
    let files: Vec<_> = discover(places, project)
        .into_iter()
        .filter(|f| f.agent == agent)
        // Claude Code's per-project sections of `~/.claude.json` only with their project: a
        // project's servers belong to it (and connect rewrites that section with --project).
        .filter(|f| project.is_some() || f.section.is_none())
        .collect();
    let mut existing = plan::Existing::default();
    for config in host.server_configs().await? {
        existing.servers.insert(
            config.name.to_lowercase(),
            (config.name.clone(), config.id.clone()),
        );
    }
    existing.imported = record::imported(host, agent)
        .await?
        .into_iter()
        .map(|i| ((i.file, i.section, i.entry), i.server_name))
        .collect::<HashMap<_, _>>();
    let cx = Context {
        home: &places.home,
        project,
        inputs: &choices.inputs,
    };
    Ok(plan::plan(
        agent,
        &files,
        &existing,
        choices,
        &cx,
        gateway_ports,
    ))
}
