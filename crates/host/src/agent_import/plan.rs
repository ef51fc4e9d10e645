//! What an import would do, worked out before anything is written: every server of the agent's
//! files with the Gatehouse name it gets, how a clash with an existing server is resolved (skip,
//! rename or replace, as the person chose), every value that goes to the keyring (masked), and
//! every entry left out with the reason. A clash nobody resolved blocks the import. The plan
//! also keeps a digest of each file as read, so that the import refuses a file the agent changed
//! after the preview. Building it reads the agent's files and nothing else.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::agents::model::{Agent, ConfigFile, Scope};
use crate::agents::read::read_bounded;
use crate::agents::through::through_gatehouse;

use super::convert::{Context, Converted, convert};

/// How the person resolves a clash they did not resolve entry by entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnClash {
    Skip,
    /// A new name: the entry's, then `-AGENT`, then a number.
    Rename,
    Replace,
}

/// The person's choices.
#[derive(Debug, Clone, Default)]
pub struct Choices {
    /// Import only these entries (by the agent's name for them); empty: all.
    pub only: BTreeSet<String>,
    pub skip: BTreeSet<String>,
    pub replace: BTreeSet<String>,
    /// An entry's Gatehouse name.
    pub rename: BTreeMap<String, String>,
    pub on_clash: Option<OnClash>,
    /// Values of VS Code inputs, by id.
    pub inputs: BTreeMap<String, String>,
}

/// What Gatehouse has already: its servers' names (and ids), and what was imported before.
#[derive(Debug, Clone, Default)]
pub struct Existing {
    /// By lower-cased name: (name, id).
    pub servers: HashMap<String, (String, String)>,
    /// (file, section, entry) → the server's name.
    pub imported: HashMap<(PathBuf, Option<String>, String), String>,
}

/// The import, as the preview shows it.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportPlan {
    pub agent: Agent,
    pub files: Vec<PlanFile>,
    pub servers: Vec<PlannedServer>,
    pub skipped: Vec<LeftOut>,
    /// The values the agent asks the person for when it starts a server (VS Code `inputs`),
    /// which the import needs given.
    pub inputs: Vec<InputAsked>,
}

/// A VS Code input (`${input:ID}`) and whether the person gave its value.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InputAsked {
    pub id: String,
    pub description: Option<String>,
    /// The format marks it secret: its value goes to the keyring.
    pub password: bool,
    pub given: bool,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanFile {
    pub path: PathBuf,
    pub section: Option<String>,
    pub scope: Scope,
    /// SHA-256 of the file as read, hex.
    pub digest: Option<String>,
    /// Why it could not be read (with the line and column where the parser says).
    pub error: Option<String>,
}

/// What the import does with one server.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Action {
    Add,
    /// Replaces the existing server of that name (its configuration and secrets).
    Replace {
        server: String,
    },
    /// Its name is taken and the person has not said what to do.
    Unresolved {
        #[serde(rename = "clashesWith")]
        clashes_with: String,
    },
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedServer {
    pub file: PathBuf,
    pub section: Option<String>,
    /// The agent's name for it.
    pub entry: String,
    /// Its name in Gatehouse.
    pub name: String,
    pub action: Action,
    #[serde(flatten)]
    pub preview: super::preview::Preview,
    #[serde(skip)]
    pub converted: Converted,
}

/// An entry not imported, with the reason.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    pub file: PathBuf,
    pub entry: String,
    pub reason: String,
}

impl ImportPlan {
    /// The servers whose clash nobody resolved.
    pub fn unresolved(&self) -> Vec<&PlannedServer> {
        self.servers
            .iter()
            .filter(|s| matches!(s.action, Action::Unresolved { .. }))
            .collect()
    }
}

/// The plan for `files` (one agent's), given what Gatehouse has and the person's choices.
pub fn plan(
    agent: Agent,
    files: &[ConfigFile],
    existing: &Existing,
    choices: &Choices,
    cx: &Context<'_>,
    gateway_ports: &[u16],
) -> ImportPlan {
    let mut plan = ImportPlan {
        agent,
        files: Vec::new(),
        servers: Vec::new(),
        skipped: Vec::new(),
        inputs: Vec::new(),
    };
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for file in files.iter().filter(|f| f.agent == agent) {
        for input in &file.inputs {
            if plan.inputs.iter().all(|i| i.id != input.id) {
                plan.inputs.push(InputAsked {
                    id: input.id.clone(),
                    description: input.description.clone(),
                    password: input.password,
                    given: choices
                        .inputs
                        .contains_key(&super::convert::env_name(&input.id)),
                });
            }
        }
        plan.files.push(PlanFile {
            path: file.path.clone(),
            section: file.section.clone(),
            scope: file.scope,
            digest: digest_of(&file.path),
            error: file.error.as_ref().map(|e| match (e.line, e.column) {
                (Some(l), Some(c)) => format!("{} (line {l}, column {c})", e.message),
                _ => e.message.clone(),
            }),
        });
        let left_out = |entry: &str, reason: String| LeftOut {
            file: file.path.clone(),
            entry: entry.to_owned(),
            reason,
        };
        for skipped in &file.skipped {
            plan.skipped
                .push(left_out(&skipped.name, skipped.reason.clone()));
        }
        for entry in &file.servers {
            if !choices.only.is_empty() && !choices.only.contains(&entry.name) {
                continue;
            }
            if through_gatehouse(entry, gateway_ports) {
                plan.skipped.push(left_out(
                    &entry.name,
                    "it already goes through Gatehouse".into(),
                ));
                continue;
            }
            if choices.skip.contains(&entry.name) {
                plan.skipped
                    .push(left_out(&entry.name, "skipped, as you asked".into()));
                continue;
            }
            let key = (file.path.clone(), file.section.clone(), entry.name.clone());
            // Imported before: left alone unless the person names it with --replace, and then
            // it replaces the server it became (whatever its name now).
            if let Some(server) = existing.imported.get(&key) {
                if !choices.replace.contains(&entry.name) {
                    plan.skipped.push(left_out(
                        &entry.name,
                        format!("already imported as server `{server}` (give --replace {} to import it again)", entry.name),
                    ));
                    continue;
                }
                let action = Action::Replace {
                    server: server.clone(),
                };
                match convert(file, entry, server, cx) {
                    Ok(converted) => {
                        taken.insert(server.to_lowercase());
                        plan.servers
                            .push(planned(file, entry, server, action, converted));
                    }
                    Err(reason) => plan.skipped.push(left_out(&entry.name, reason)),
                }
                continue;
            }
            let wanted = choices
                .rename
                .get(&entry.name)
                .cloned()
                .unwrap_or_else(|| valid_name(&entry.name));
            let Some((name, action)) = resolve(
                &wanted,
                entry.name.as_str(),
                agent,
                existing,
                &taken,
                choices,
            ) else {
                plan.skipped.push(left_out(
                    &entry.name,
                    format!("a server named `{wanted}` exists; skipped, as you asked"),
                ));
                continue;
            };
            match convert(file, entry, &name, cx) {
                Ok(converted) => {
                    taken.insert(name.to_lowercase());
                    plan.servers
                        .push(planned(file, entry, &name, action, converted));
                }
                Err(reason) => plan.skipped.push(left_out(&entry.name, reason)),
            }
        }
    }
    plan
}

fn planned(
    file: &ConfigFile,
    entry: &crate::agents::model::ServerEntry,
    name: &str,
    action: Action,
    converted: Converted,
) -> PlannedServer {
    PlannedServer {
        file: file.path.clone(),
        section: file.section.clone(),
        entry: entry.name.clone(),
        preview: super::preview::of(&converted),
        name: name.to_owned(),
        action,
        converted,
    }
}

/// The name a server gets and what happens to a server of that name; `None`: skipped.
fn resolve(
    wanted: &str,
    entry: &str,
    agent: Agent,
    existing: &Existing,
    taken: &BTreeSet<String>,
    choices: &Choices,
) -> Option<(String, Action)> {
    let is_taken = |n: &str| {
        taken.contains(&n.to_lowercase()) || existing.servers.contains_key(&n.to_lowercase())
    };
    if !is_taken(wanted) {
        return Some((wanted.to_owned(), Action::Add));
    }
    let existing_name = existing
        .servers
        .get(&wanted.to_lowercase())
        .map(|(n, _)| n.clone());
    let in_plan = taken.contains(&wanted.to_lowercase());
    let choice = if choices.replace.contains(entry) {
        Some(OnClash::Replace)
    } else {
        choices.on_clash
    };
    match (choice, existing_name) {
        (Some(OnClash::Replace), Some(server)) if !in_plan => {
            Some((wanted.to_owned(), Action::Replace { server }))
        }
        (Some(OnClash::Skip), _) => None,
        (Some(OnClash::Rename), _) | (Some(OnClash::Replace), _) => {
            let mut candidate = format!("{wanted}-{}", agent.id());
            let mut n = 2;
            while is_taken(&candidate) {
                candidate = format!("{wanted}-{}-{n}", agent.id());
                n += 1;
            }
            Some((candidate, Action::Add))
        }
        (None, existing) => Some((
            wanted.to_owned(),
            Action::Unresolved {
                clashes_with: existing.unwrap_or_else(|| wanted.to_owned()),
            },
        )),
    }
}

/// The entry's name as a valid Gatehouse server name: characters other than letters, digits,
/// `-`, `_` and `.` become `-` (one for a run of them, none at the end), and it starts with a
/// letter or digit.
pub fn valid_name(raw: &str) -> String {
    let replaced: String = raw
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let mut collapsed = String::with_capacity(replaced.len());
    for c in replaced.chars() {
        if !(c == '-' && collapsed.ends_with('-')) {
            collapsed.push(c);
        }
    }
    let trimmed = collapsed
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim_end_matches('-');
    let name: String = trimmed.chars().take(64).collect();
    if name.is_empty() {
        "server".into()
    } else {
        name
    }
}

/// SHA-256 of the file's bytes as they are now, hex; `None` if it cannot be read.
pub fn digest_of(path: &Path) -> Option<String> {
    let text = read_bounded(path).ok()??;
    Some(format!("{:x}", Sha256::digest(text.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::valid_name;

    #[test]
    fn an_entry_name_becomes_a_valid_server_name() {
        assert_eq!(valid_name("github"), "github");
        assert_eq!(valid_name("My Server (v2)"), "My-Server-v2");
        assert_eq!(
            valid_name("io.github.x/weather (npm #1)"),
            "io.github.x-weather-npm-1"
        );
        assert_eq!(valid_name("@scope/pkg"), "scope-pkg");
        assert_eq!(valid_name("!!!"), "server");
    }
}
