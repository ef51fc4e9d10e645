//! The gateway's tools: every enabled server's tools under the names of [`super::names`]
//! (listed through the gate's listing, which keeps each definition in the policy's history), and
//! a call routed back to its server and made with [`Host::call_tool`], through the gate with
//! source `gateway` and the client as the caller. A client whose prefix is off sees bare names
//! where nothing collides (routed back by the tools each connection last listed, and by fresh
//! listings when the name is not among them).

use std::future::Future;
use std::sync::Arc;

use gatehouse_mcp::{CallOptions, Tool};
use serde_json::{Map, Value, json};

use super::profiles::{Profile, Served};
use super::relay::as_agents;
use super::visibility::{self, Hidden};
use super::{names, servers};
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::client_tasks::MadeBy;
use crate::oversight::gate::agent_relay::AgentAnswers;
use crate::oversight::gate::{CallOutcome, Source, ToolCall};
use crate::store::registry::model::ServerConfig;
use crate::vocabulary::status::Offer;

/// Every enabled server's tools that the client's profile shows, named for the agent (with or
/// without the server's prefix, as its settings say). A tool whose name cannot be made valid or
/// would route elsewhere is left out with a warning.
pub async fn list(host: &Host, client: &str, served: &Served) -> Result<Vec<Value>> {
    let prefix = served.prefix;
    let (servers, tools) = gather(host, client, &served.profile).await?;
    let items: Vec<names::Item> = tools
        .iter()
        .map(|(server, tool)| (server.clone(), tool.name.clone()))
        .collect();
    let mut listed = Vec::new();
    for ((server, tool), name) in tools.iter().zip(names::named(&items, &servers, prefix)) {
        let Some(name) = name else { continue };
        match serde_json::to_value(tool) {
            Ok(Value::Object(mut fields)) => {
                fields.insert("name".into(), json!(name));
                listed.push(Value::Object(fields));
            }
            _ => tracing::warn!("the gateway cannot encode `{}` of `{server}`", tool.name),
        }
    }
    Ok(listed)
}

/// The enabled servers' names, and the tools `profile` shows of those connected, by server in
/// name order.
async fn gather(
    host: &Host,
    client: &str,
    profile: &Profile,
) -> Result<(Vec<String>, Vec<(String, Tool)>)> {
    let enabled: Vec<String> = servers::enabled(host)
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut tools = Vec::new();
    for (server, connection) in servers::offering(host, Offer::Tools, client, profile).await? {
        match connection.list_tools().await {
            Ok(page) => tools.extend(
                page.items
                    .into_iter()
                    .filter(|t| profile.sees_tool(&server, &t.name))
                    .map(|t| (server.clone(), t)),
            ),
            Err(e) => tracing::warn!("the gateway leaves out the tools of `{server}`: {e}"),
        }
    }
    Ok((enabled, tools))
}

/// Calls the tool an agent named, as its client (`served.client`), when its profile shows it. `Ok(None)` when the
/// call was cancelled.
pub async fn call(
    host: &Arc<Host>,
    served: &Served,
    agent: Arc<dyn AgentAnswers>,
    name: &str,
    arguments: Option<Value>,
    options: CallOptions,
    cancel: impl Future<Output = ()>,
) -> Result<Option<Value>> {
    let client = served.client.as_str();
    // The configurations as the engine keeps them in memory (shared, not copied): to route
    // the name, and for the call itself; a name routed to none of them is looked for afresh (a
    // server just added elsewhere).
    let mut configs = host.server_configs_kept().await?;
    let routed = if served.prefix {
        let route = |configs: &[ServerConfig]| {
            names::route(name, servers::enabled_in(configs).map(|s| s.name.as_str()))
                .map(|(server, tool)| (server.to_owned(), tool))
        };
        match route(&configs) {
            Some(routed) => Some(routed),
            None => {
                configs = Arc::new(host.server_configs().await?);
                route(&configs)
            }
        }
    } else {
        // Bare names are the client's alone: routed by the tools it is shown, as each live
        // connection last listed them; a name not among them is looked for in fresh listings,
        // and then among every server's tools, so that a hidden tool is refused (below).
        match route_kept(host, &configs, &served.profile, name) {
            Some(routed) => Some(routed),
            None => match route_bare(host, client, &served.profile, name).await? {
                Some(routed) => Some(routed),
                None => route_bare(host, client, &Profile::default(), name).await?,
            },
        }
    };
    if let Some((server, _)) = &routed
        && !servers::enabled_in(&configs).any(|s| &s.name == server)
    {
        configs = Arc::new(host.server_configs().await?);
    }
    let routed = routed.and_then(|(server, tool)| {
        Some((
            servers::enabled_in(&configs).find(|s| s.name == server)?,
            tool,
        ))
    });
    let Some((config, tool)) = routed else {
        return Err(HostError::Validation(format!(
            "no tool `{name}`: tools are named SERVER{}TOOL after an enabled server, or by \
             their own name where the client's prefix is off and no other server has one so named",
            names::SEPARATOR
        )));
    };
    if !served.profile.sees_tool(&config.name, &tool) {
        let hidden = Hidden {
            server: &config.name,
            method: "tools/call",
            tool: Some(&tool),
            what: format!("tool `{name}`"),
            flag: if served.profile.sees_server(&config.name) {
                format!("--tool {}/{tool}", config.name)
            } else {
                format!("--server {}", config.name)
            },
            asked: json!({ "name": name }),
        };
        return Err(visibility::refuse(host, served, hidden).await);
    }
    let tool_name = tool.clone();
    let call = ToolCall {
        tool,
        arguments,
        source: Source::Gateway,
        caller: Some(client.to_owned()),
    };
    // The server's requests during the call may go to the agent (`gate::agent_relay`).
    let calling = host.call_tool_on(config, call, options, cancel);
    let outcome = as_agents(host, served, &config.id, agent, calling).await;
    match outcome? {
        CallOutcome::Cancelled => Ok(None),
        // A task the agent polls itself (the tasks extension), under the gateway's id; the
        // engine follows it too, so that its end is on record (`task_follow`).
        CallOutcome::Done(result) if result.is_task() => {
            let handle = Value::Object(result.extra);
            let made = MadeBy {
                server_id: &config.id,
                server: &config.name,
                tool: &tool_name,
            };
            let given = super::task_follow::adopt(host, client, &made, handle).await;
            given.map(Some).ok_or_else(|| {
                HostError::Protocol(format!("`{}` made a task without a `taskId`", config.name))
            })
        }
        CallOutcome::Done(result) => {
            let mut fields = Map::new();
            fields.insert(
                "content".into(),
                serde_json::to_value(&result.content).map_err(encode)?,
            );
            if let Some(structured) = result.structured_content {
                fields.insert("structuredContent".into(), structured);
            }
            fields.insert("isError".into(), json!(result.is_error));
            for (key, value) in result.extra {
                fields.entry(key).or_insert(value);
            }
            Ok(Some(Value::Object(fields)))
        }
    }
}

/// The server and tool a bare name stands for among the tools `profile` shows of the enabled
/// `configs`, as their live connections last listed them: no request to any server, so an
/// agent's call does not list every server's tools again.
fn route_kept(
    host: &Host,
    configs: &[ServerConfig],
    profile: &Profile,
    name: &str,
) -> Option<(String, String)> {
    let servers = servers::enabled_by_name(configs);
    let mut items: Vec<names::Item> = Vec::new();
    for config in servers.iter().filter(|c| profile.sees_server(&c.name)) {
        let mut listed = host.listed_tool_names(&config.id).unwrap_or_default();
        listed.retain(|tool| profile.sees_tool(&config.name, tool));
        listed.sort();
        items.extend(listed.into_iter().map(|tool| (config.name.clone(), tool)));
    }
    let enabled: Vec<String> = servers.iter().map(|c| c.name.clone()).collect();
    names::route_named(name, &items, &enabled, false)
}

/// The server and tool a bare name stands for among the tools `profile` shows, listed afresh.
async fn route_bare(
    host: &Host,
    client: &str,
    profile: &Profile,
    name: &str,
) -> Result<Option<(String, String)>> {
    let (enabled, tools) = gather(host, client, profile).await?;
    let items: Vec<names::Item> = tools.into_iter().map(|(s, t)| (s, t.name)).collect();
    Ok(names::route_named(name, &items, &enabled, false))
}

fn encode(e: serde_json::Error) -> HostError {
    HostError::Protocol(format!("cannot encode the result: {e}"))
}
