//! The gateway's tools: every enabled server's tools under the names of [`super::names`]
//! (listed through the gate's listing, which keeps each definition in the policy's history), and
//! a call routed back to its server and made with [`Host::call_tool`], through the gate with
//! source `gateway` and the client as the caller. A client whose prefix is off sees bare names
//! where nothing collides (routed back by the tools listed at the call).

use std::future::Future;
use std::sync::Arc;

use gatehouse_mcp::{CallOptions, Tool};
use serde_json::{Map, Value, json};

use super::{names, servers};
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::gate::agent_relay::AgentAnswers;
use crate::oversight::gate::{CallOutcome, Source, ToolCall};
use crate::vocabulary::status::Offer;

/// Every enabled server's tools, named for the agent (with or without the server's prefix, as
/// its profile says). A tool whose name cannot be made valid or would route elsewhere is left
/// out with a warning.
pub async fn list(host: &Host, client: &str) -> Result<Vec<Value>> {
    let prefix = host.clients().prefixed(client).await?;
    let (servers, tools) = gather(host, client).await?;
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

/// The enabled servers' names, and the tools of those connected, by server in name order.
async fn gather(host: &Host, client: &str) -> Result<(Vec<String>, Vec<(String, Tool)>)> {
    let enabled: Vec<String> = servers::enabled(host)
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut tools = Vec::new();
    for (server, connection) in servers::offering(host, Offer::Tools, client).await? {
        match connection.list_tools().await {
            Ok(page) => tools.extend(page.items.into_iter().map(|t| (server.clone(), t))),
            Err(e) => tracing::warn!("the gateway leaves out the tools of `{server}`: {e}"),
        }
    }
    Ok((enabled, tools))
}

/// Calls the tool an agent named, as `client`. `Ok(None)` when the call was cancelled.
pub async fn call(
    host: &Host,
    client: &str,
    agent: Arc<dyn AgentAnswers>,
    name: &str,
    arguments: Option<Value>,
    options: CallOptions,
    cancel: impl Future<Output = ()>,
) -> Result<Option<Value>> {
    // The configurations read once: to route the name, and for the call itself.
    let servers = servers::enabled_configs(host).await?;
    let routed = if host.clients().prefixed(client).await? {
        names::route(name, servers.iter().map(|s| s.name.as_str()))
            .map(|(server, tool)| (server.to_owned(), tool))
    } else {
        // Bare names are the client's alone: routed by the tools listed now.
        let (enabled, tools) = gather(host, client).await?;
        let items: Vec<names::Item> = tools.into_iter().map(|(s, t)| (s, t.name)).collect();
        names::route_named(name, &items, &enabled, false)
    };
    let routed =
        routed.and_then(|(server, tool)| Some((servers.iter().find(|s| s.name == server)?, tool)));
    let Some((config, tool)) = routed else {
        return Err(HostError::Validation(format!(
            "no tool `{name}`: tools are named SERVER{}TOOL after an enabled server, or by \
             their own name where the client's prefix is off and no other server has one so named",
            names::SEPARATOR
        )));
    };
    let call = ToolCall {
        tool,
        arguments,
        source: Source::Gateway,
        caller: Some(client.to_owned()),
    };
    // The server's requests during the call may go to the agent (`gate::agent_relay`).
    let _in_call = host.gate().agent_calls().enter(&config.id, agent);
    match host.call_tool_on(config, call, options, cancel).await? {
        CallOutcome::Cancelled => Ok(None),
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

fn encode(e: serde_json::Error) -> HostError {
    HostError::Protocol(format!("cannot encode the result: {e}"))
}
