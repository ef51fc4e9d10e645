//! Carrying out an import plan the person confirmed, all or nothing: refused when a clash is
//! unresolved, when an agent's file changed since the preview, or when a secret is to be kept
//! and the keyring cannot be reached; then the new servers are added (their secrets to the
//! keyring first, see `Registry::add`), the replaced ones updated, and each recorded with the
//! entry it came from; a new stdio server gets the stored default stop graces, a replaced one
//! keeps its own. If adding one fails, the servers this import added are removed again.
//! Replacements come last, once every add succeeded; a replacement that fails removes this
//! import's adds, and the replacements before it stay done (the error names them).

use serde::Serialize;

use crate::error::{HostError, Result};
use crate::host::Host;
use crate::store::secrets::{SecretKey, SecretKind};
use crate::{ServerInput, ServerSpec, StopGrace};

use super::plan::{Action, ImportPlan, PlannedServer, digest_of};
use super::record;

/// One server the import wrote.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Written {
    pub name: String,
    pub entry: String,
    pub server_id: String,
    pub replaced: bool,
    pub secrets: usize,
}

/// `input` with `grace` as its stop grace, if it is a stdio server.
fn with_stop_grace(mut input: ServerInput, grace: StopGrace) -> ServerInput {
    if let ServerSpec::Stdio { stop, .. } = &mut input.spec {
        *stop = grace;
    }
    input
}

/// Writes what `plan` says.
pub async fn apply(host: &Host, plan: &ImportPlan) -> Result<Vec<Written>> {
    refuse_unresolved(plan)?;
    refuse_changed(plan)?;
    if plan.servers.iter().any(|s| !s.converted.secrets.is_empty()) {
        probe_keyring(host).await?;
    }
    let (adds, replaces): (Vec<&PlannedServer>, Vec<&PlannedServer>) = plan
        .servers
        .iter()
        .partition(|s| matches!(s.action, Action::Add));
    let mut written = Vec::new();
    // Agents' configs say nothing of stop graces: a new server gets the stored default, a
    // replaced one keeps its own.
    let default_grace = host.default_stop_grace().await?;
    for server in adds {
        let input = with_stop_grace(server.converted.input.clone(), default_grace);
        match host.add_server(input).await {
            Ok(view) => written.push(done(server, view.config.id, false)),
            Err(e) => {
                undo_adds(host, &written).await;
                return Err(e);
            }
        }
        if let Err(e) = record_one(host, plan, server, &written).await {
            undo_adds(host, &written).await;
            return Err(e);
        }
    }
    for server in replaces {
        let Action::Replace { server: existing } = &server.action else {
            continue;
        };
        let grace = match host.registry().get(existing).await.map(|c| c.spec) {
            Ok(ServerSpec::Stdio { stop, .. }) => stop,
            _ => default_grace,
        };
        let input = with_stop_grace(server.converted.input.clone(), grace);
        match host.update_server(existing, input).await {
            Ok(view) => {
                written.push(done(server, view.config.id, true));
                if let Err(e) = record_one(host, plan, server, &written).await {
                    undo_adds(host, &written).await;
                    return Err(e);
                }
            }
            Err(e) => {
                let replaced: Vec<&str> = written
                    .iter()
                    .filter(|w| w.replaced)
                    .map(|w| w.name.as_str())
                    .collect();
                undo_adds(host, &written).await;
                return Err(HostError::Validation(format!(
                    "replacing `{existing}` failed ({e}); nothing was added{}",
                    if replaced.is_empty() {
                        String::new()
                    } else {
                        format!(", but {} were already replaced", replaced.join(", "))
                    }
                )));
            }
        }
    }
    Ok(written)
}

/// Records the server just written (the last of `written`) with the entry it came from.
async fn record_one(
    host: &Host,
    plan: &ImportPlan,
    server: &PlannedServer,
    written: &[Written],
) -> Result<()> {
    let Some(w) = written.last() else {
        return Ok(());
    };
    record::record(
        host.store().pool(),
        &w.server_id,
        plan.agent,
        &server.file,
        server.section.as_deref(),
        &server.entry,
    )
    .await
}

fn done(server: &PlannedServer, server_id: String, replaced: bool) -> Written {
    Written {
        name: server.name.clone(),
        entry: server.entry.clone(),
        server_id,
        replaced,
        secrets: server.converted.secrets.len(),
    }
}

async fn undo_adds(host: &Host, written: &[Written]) {
    for w in written.iter().filter(|w| !w.replaced) {
        if let Err(e) = host.remove_server(&w.server_id).await {
            tracing::warn!(server = %w.name, error = %e, "could not remove a server of an import that failed");
        }
    }
}

fn refuse_unresolved(plan: &ImportPlan) -> Result<()> {
    let unresolved: Vec<String> = plan
        .unresolved()
        .iter()
        .map(|s| format!("`{}`", s.name))
        .collect();
    if unresolved.is_empty() {
        return Ok(());
    }
    Err(HostError::Validation(format!(
        "servers named {} exist already; say what to do with each (--skip NAME, --rename NAME=NEW, --replace NAME, or --on-clash skip|rename|replace); nothing was imported",
        unresolved.join(", ")
    )))
}

/// Refused when a file the plan read is no longer what it read.
fn refuse_changed(plan: &ImportPlan) -> Result<()> {
    for file in &plan.files {
        let used = plan.servers.iter().any(|s| s.file == file.path);
        if used && digest_of(&file.path) != file.digest {
            return Err(HostError::Validation(format!(
                "{} changed since the preview; run the import again to see what it holds now; nothing was imported",
                file.path.display()
            )));
        }
    }
    Ok(())
}

/// Whether the keyring answers, before anything is written.
async fn probe_keyring(host: &Host) -> Result<()> {
    let probe = SecretKey::Value {
        server_id: format!("import-probe-{}", uuid::Uuid::new_v4()),
        kind: SecretKind::Env,
        name: "PROBE".into(),
    };
    host.registry().secrets().get(&probe).await.map(|_| ())
}
