//! The IPC commands of the Policies page: the rules (with stale marks), adding and removing
//! one, each server's default and "trust read-only hints" setting, and the definitions kept of
//! each tool.

use std::sync::Arc;

use gatehouse_host::policy::{ArgumentMatch, Effect, Rule, RuleView, ToolDefinitionRecord};
use gatehouse_host::{Host, HostError, Source};
use serde::{Deserialize, Serialize};
use tauri::State;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// A server's own policy settings.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ServerPolicyView {
    pub server_id: String,
    pub server: String,
    /// Whether a tool's `readOnlyHint` may allow it without asking.
    pub trust_read_only: bool,
}

/// A rule to add. No server: a global default; a server alone: its default; a tool: a rule
/// for that tool (made for the tool's current definition); with `argument`: an argument rule;
/// with `client`: for that client of the gateway alone.
#[derive(Debug, Clone, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct RuleInput {
    /// The server's id or name.
    pub server: Option<String>,
    pub tool: Option<String>,
    pub argument: Option<ArgumentMatch>,
    pub decision: Effect,
    /// Only for requests from this source; none: every source.
    #[serde(default)]
    pub source: Option<Source>,
    /// Only for requests from this client of the gateway (the source is then `gateway`; none
    /// given means `gateway`, another is refused); none or blank: every caller.
    #[serde(default)]
    pub client: Option<String>,
}

/// Every rule, with its server's name and whether it is stale.
#[tauri::command]
#[specta::specta]
pub async fn policy_rules(host: HostState<'_>) -> Result<Vec<RuleView>, IpcError> {
    Ok(host.rules().await?)
}

/// Every server with its read-only trust setting, in the registry's order.
#[tauri::command]
#[specta::specta]
pub async fn policy_servers(host: HostState<'_>) -> Result<Vec<ServerPolicyView>, IpcError> {
    let mut views = Vec::new();
    for config in host.server_configs().await? {
        views.push(ServerPolicyView {
            trust_read_only: host.policy().trusts_read_only(&config.id).await?,
            server_id: config.id,
            server: config.name,
        });
    }
    Ok(views)
}

/// Checks and adds a rule; a rule for a tool records the definition last seen of it, and is
/// refused while none has been seen (connect the server so its tools are listed).
#[tauri::command]
#[specta::specta]
pub async fn policy_add_rule(host: HostState<'_>, rule: RuleInput) -> Result<Rule, IpcError> {
    Ok(add_rule(&host, rule).await?)
}

async fn add_rule(host: &Host, input: RuleInput) -> Result<Rule, HostError> {
    let server = match &input.server {
        Some(server) => Some(host.server(server).await?.config),
        None => None,
    };
    let tool = input
        .tool
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    let definition_hash = match (&server, &tool) {
        (Some(config), Some(tool)) => {
            let latest = host.policy().latest_definition(&config.id, tool).await?;
            match latest {
                Some((hash, _)) => Some(hash),
                None => {
                    return Err(HostError::Validation(format!(
                        "{} has not shown a tool named `{tool}`: connect the server so its \
                         tools are listed, then add the rule",
                        config.name
                    )));
                }
            }
        }
        _ => None,
    };
    let client = input
        .client
        .map(|c| c.trim().to_owned())
        .filter(|c| !c.is_empty());
    let source = match (&client, input.source) {
        (Some(_), None) => Some(Source::Gateway),
        (_, source) => source,
    };
    host.add_rule(Rule {
        id: String::new(),
        server: server.map(|s| s.id),
        tool,
        argument: input.argument,
        effect: input.decision,
        definition_hash,
        source,
        client,
    })
    .await
}

/// Deletes a rule.
#[tauri::command]
#[specta::specta]
pub async fn policy_remove_rule(host: HostState<'_>, id: String) -> Result<(), IpcError> {
    Ok(host.remove_rule(&id).await?)
}

/// Sets a server's default (the rule for the server without a tool), replacing any it had;
/// `None` removes it, so the global default applies.
#[tauri::command]
#[specta::specta]
pub async fn policy_set_server_default(
    host: HostState<'_>,
    server: String,
    decision: Option<Effect>,
) -> Result<(), IpcError> {
    let config = host.server(&server).await?.config;
    for rule in host.policy().rules_for(&config.id).await? {
        // The default for every source; a server rule for one source stays.
        let default = rule.tool.is_none() && rule.source.is_none();
        if rule.server.as_deref() == Some(config.id.as_str()) && default {
            host.remove_rule(&rule.id).await?;
        }
    }
    if let Some(decision) = decision {
        host.add_rule(Rule {
            id: String::new(),
            server: Some(config.id),
            tool: None,
            argument: None,
            effect: decision,
            definition_hash: None,
            source: None,
            client: None,
        })
        .await?;
    }
    Ok(())
}

/// Trusts (or stops trusting) a server's read-only hints.
#[tauri::command]
#[specta::specta]
pub async fn policy_set_trust_read_only(
    host: HostState<'_>,
    server: String,
    trust: bool,
) -> Result<(), IpcError> {
    Ok(host.set_trust_read_only(&server, trust).await?)
}

/// Every definition kept of a server's tools (or of one tool), the most recently seen first
/// within each tool.
#[tauri::command]
#[specta::specta]
pub async fn policy_definition_history(
    host: HostState<'_>,
    server: String,
    tool: Option<String>,
) -> Result<Vec<ToolDefinitionRecord>, IpcError> {
    Ok(host.definition_history(&server, tool.as_deref()).await?)
}
