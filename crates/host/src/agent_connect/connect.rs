//! `gatehouse connect AGENT` on a [`Host`]: [`preview`] reads the agent's file, works out the
//! new text (imported entries out, Gatehouse's entry in) and its diff (secrets masked), and names the plaintext
//! secrets left in the entries kept; [`apply`] keeps the original in the data directory,
//! writes the new text only if the file still holds what the preview read, records the
//! connect, and makes sure a gateway client named after the agent exists with a profile of the
//! servers imported from it. Nothing is written when any step before the file's write fails.

use std::path::PathBuf;

use serde::Serialize;

use super::backup::{hash, replace_if_unchanged, save_backup, write_atomic};
use super::diff::unified;
use super::gateway_entry::{ENTRY_NAME, GatewayLaunch};
use super::json_rewrite::{Edit, rewrite_json};
use super::masking::{document_secrets, mask, ordered, secret_values};
use super::record::{NewConnection, insert};
use super::sealed::BackupKey;
use super::target::{Target, choose, parse_error, same_file};
use crate::agent_import::record::{Imported, imported};
use crate::agents::discover::parse;
use crate::agents::model::Agent;
use crate::agents::places::Places;
use crate::agents::plaintext::plaintext_secrets;
use crate::agents::through::{DEFAULT_GATEWAY_PORT, through_gatehouse};
use crate::error::{HostError, Result};
use crate::gateway::profiles::{ProfileChange, ServerSwitch};
use crate::host::Host;

/// What to connect.
#[derive(Debug, Clone)]
pub struct ConnectRequest {
    pub agent: Agent,
    pub places: Places,
    pub project: Option<PathBuf>,
    pub launch: GatewayLaunch,
}

/// A plaintext secret left in an entry Gatehouse did not import: its server and env or header
/// name, never its value.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretLeft {
    pub server: String,
    pub name: String,
}

/// The change a connect would make, as previewed.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename = "ConnectPlan", rename_all = "camelCase")]
pub struct Plan {
    #[serde(skip)]
    pub agent: Agent,
    pub file: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The unified diff of the file, its plaintext secrets masked.
    pub diff: String,
    /// The imported entries taken out.
    pub removed: Vec<String>,
    /// Earlier entries that went through Gatehouse, replaced by the new one.
    pub replaced: Vec<String>,
    /// The entries left as they were.
    pub kept: Vec<String>,
    pub plaintext_secrets_left: Vec<SecretLeft>,
    #[serde(skip)]
    pub original: String,
    #[serde(skip)]
    pub new_text: String,
    #[serde(skip)]
    imported: Vec<Imported>,
}

impl Plan {
    /// The file already reads as a connect would write it.
    pub fn unchanged(&self) -> bool {
        self.original == self.new_text
    }
}

/// What [`apply`] did.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    pub backup: PathBuf,
    /// The gateway client was added by this connect.
    pub client_added: bool,
    pub client: String,
    /// The servers its profile switched on.
    pub servers: Vec<String>,
}

/// Works out the connect without writing anything.
pub async fn preview(host: &Host, request: &ConnectRequest) -> Result<Plan> {
    let agent = request.agent;
    let imported = imported(host, agent).await?;
    let target = choose(
        agent,
        &request.places,
        request.project.as_deref(),
        &imported,
    )?;
    let names: Vec<&str> = target.servers.iter().map(|s| s.name.as_str()).collect();
    let removed: Vec<String> = imported
        .iter()
        .filter(|i| same_file(&i.file, &target.path) && i.section == target.section)
        .map(|i| i.entry.clone())
        .filter(|entry| names.contains(&entry.as_str()))
        .collect();
    let replaced: Vec<String> = target
        .servers
        .iter()
        .filter(|s| through_gatehouse(s, &[DEFAULT_GATEWAY_PORT]) && !removed.contains(&s.name))
        .map(|s| s.name.clone())
        .collect();
    let new_text = rewrite(agent, &target, &removed, &replaced, &request.launch)?;
    let gone = |name: &str| removed.iter().chain(&replaced).any(|n| n == name);
    let kept: Vec<String> = target
        .servers
        .iter()
        .map(|s| s.name.clone())
        .chain(target.skipped.iter().map(|s| s.name.clone()))
        .filter(|n| !gone(n) && n != ENTRY_NAME)
        .collect();
    let plaintext_secrets_left =
        secrets_left(agent, &target, &new_text, &kept, request.project.as_deref())?;
    // The secrets of the original's entries (the kept ones among them) masked.
    // And every other secret-looking value of the file: the diff's context may show any part.
    let document = match agent {
        Agent::Codex => crate::agents::read::parse_toml(&target.text).ok(),
        _ => crate::agents::read::parse_jsonc(&target.text).ok(),
    };
    let mut values = secret_values(&target.servers);
    values.extend(document.as_ref().map(document_secrets).unwrap_or_default());
    let diff = mask(
        &unified(&target.path.display().to_string(), &target.text, &new_text),
        &ordered(values),
    );
    Ok(Plan {
        agent,
        file: target.path,
        section: target.section,
        diff,
        removed,
        replaced,
        kept,
        plaintext_secrets_left,
        original: target.text,
        new_text,
        imported,
    })
}

fn rewrite(
    agent: Agent,
    target: &Target,
    removed: &[String],
    replaced: &[String],
    launch: &GatewayLaunch,
) -> Result<String> {
    let result = match agent {
        Agent::Codex => super::toml_rewrite::rewrite_toml(&target.text, removed, replaced, launch),
        _ => rewrite_json(
            &target.text,
            &Edit {
                agent,
                section: target.section.as_deref(),
                remove: removed,
                replace: replaced,
                launch,
            },
        ),
    };
    result.map_err(|e| parse_error(&target.path, &e))
}

/// The plaintext secrets in the entries the new text keeps (read back from the new text).
fn secrets_left(
    agent: Agent,
    target: &Target,
    new_text: &str,
    kept: &[String],
    project: Option<&std::path::Path>,
) -> Result<Vec<SecretLeft>> {
    let sections =
        parse(agent, target.scope, new_text, project).map_err(|e| parse_error(&target.path, &e))?;
    let mut left = Vec::new();
    for section in sections.iter().filter(|s| s.section == target.section) {
        for server in section.servers.iter().filter(|s| kept.contains(&s.name)) {
            left.extend(
                plaintext_secrets(server)
                    .into_iter()
                    .map(|found| SecretLeft {
                        server: server.name.clone(),
                        name: found.name,
                    }),
            );
        }
    }
    Ok(left)
}

/// Writes the previewed change: the original kept in the data directory first, then the new
/// text (only if the file still holds what the preview read), then the record and the client.
pub async fn apply(host: &Host, plan: &Plan) -> Result<Applied> {
    if plan.unchanged() {
        return Err(HostError::Validation(format!(
            "{} already goes through Gatehouse; nothing to change",
            plan.file.display()
        )));
    }
    let original_hash = hash(plan.original.as_bytes());
    let now = super::backup::current_bytes(&plan.file)?.unwrap_or_default();
    if hash(&now) != original_hash {
        return Err(changed_since_preview(plan));
    }
    // The original holds the secrets import took out: it is kept sealed (no keyring: no connect).
    let sealed = BackupKey::of(host).await?.seal(plan.original.as_bytes())?;
    let backup = save_backup(host.data_dir(), plan.agent.id(), &sealed)?;
    let written = replace_if_unchanged(
        &plan.file,
        &original_hash,
        plan.new_text.as_bytes(),
        "changed since the preview was made (another program wrote it); run the connect again to see the new preview, and",
    );
    if let Err(error) = written {
        let _ = std::fs::remove_file(&backup);
        return Err(error);
    }
    let written_hash = hash(plan.new_text.as_bytes());
    let recorded = insert(
        host.store().pool(),
        &NewConnection {
            agent: plan.agent,
            file: &plan.file,
            section: plan.section.as_deref(),
            backup: &backup,
            original_hash: &original_hash,
            written_hash: &written_hash,
        },
    )
    .await;
    if let Err(error) = recorded {
        // Without the record there is no undo: the original goes back.
        let _ = write_atomic(&plan.file, plan.original.as_bytes());
        return Err(error);
    }
    let (client_added, servers) = client_for(host, plan).await?;
    Ok(Applied {
        backup,
        client_added,
        client: plan.agent.id().to_owned(),
        servers,
    })
}

fn changed_since_preview(plan: &Plan) -> HostError {
    HostError::Validation(format!(
        "{} changed since the preview was made (another program wrote it); nothing was written: run the connect again to see the new preview",
        plan.file.display()
    ))
}

/// The gateway client named after the agent (added when missing), its profile switched on for
/// the servers imported from the agent; a client added now sees only those (all servers, as the
/// default profile says, when none was imported from it yet).
async fn client_for(host: &Host, plan: &Plan) -> Result<(bool, Vec<String>)> {
    let name = plan.agent.id();
    let added = match host.clients().get(name).await {
        Ok(_) => false,
        Err(HostError::NotFound(_)) => {
            host.clients().add(name).await?;
            true
        }
        Err(error) => return Err(error),
    };
    let mut on: Vec<String> = plan
        .imported
        .iter()
        .map(|i| i.server_name.clone())
        .collect();
    on.sort();
    on.dedup();
    let mut change = ProfileChange::default();
    change.servers.extend(on.iter().map(|server| ServerSwitch {
        server: server.clone(),
        on: true,
    }));
    // A client added now sees only those; with none imported yet, the default profile.
    if added && !on.is_empty() {
        for view in host.list_servers().await? {
            if !on.contains(&view.config.name) {
                change.servers.push(ServerSwitch {
                    server: view.config.name.clone(),
                    on: false,
                });
            }
        }
    }
    if !change.is_empty() {
        host.client_profiles().set(Some(name), &change).await?;
    }
    Ok((added, on))
}
