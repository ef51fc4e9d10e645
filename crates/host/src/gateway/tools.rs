//! The gateway's tools: every enabled server's tools under the names of [`super::names`]
//! (listed through the gate's listing, which keeps each definition in the policy's history), and
//! a call routed back to its server and made with [`Host::call_tool`], through the gate with
//! source `gateway` and the client as the caller.

use std::future::Future;

use gatehouse_mcp::CallOptions;
use serde_json::{Map, Value, json};

use super::profiles::Served;
use super::visibility::{self, Hidden};
use super::{names, servers};
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::gate::{CallOutcome, Source, ToolCall};
use crate::vocabulary::status::Offer;

/// Every enabled server's tools that the client's profile shows, named for the agent. A tool
/// whose name cannot be made valid or would route elsewhere is left out with a warning.
pub async fn list(host: &Host, client: &str, served: &Served) -> Result<Vec<Value>> {
    let names: Vec<String> = servers::enabled(host)
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut tools = Vec::new();
    for (server, connection) in
        servers::offering(host, Offer::Tools, client, &served.profile).await?
    {
        let page = match connection.list_tools().await {
            Ok(page) => page,
            Err(e) => {
                tracing::warn!("the gateway leaves out the tools of `{server}`: {e}");
                continue;
            }
        };
        for tool in page.items {
            if !served.profile.sees_tool(&server, &tool.name) {
                continue;
            }
            let Some(name) = names::routed(&server, &tool.name, &names) else {
                continue;
            };
            match serde_json::to_value(&tool) {
                Ok(Value::Object(mut fields)) => {
                    fields.insert("name".into(), json!(name));
                    tools.push(Value::Object(fields));
                }
                _ => tracing::warn!("the gateway cannot encode `{}` of `{server}`", tool.name),
            }
        }
    }
    Ok(tools)
}

/// Calls the tool an agent named, as `client`, when its profile shows it. `Ok(None)` when the
/// call was cancelled.
pub async fn call(
    host: &Host,
    client: &str,
    served: &Served,
    name: &str,
    arguments: Option<Value>,
    options: CallOptions,
    cancel: impl Future<Output = ()>,
) -> Result<Option<Value>> {
    // The configurations read once: to route the name, and for the call itself.
    let servers = servers::enabled_configs(host).await?;
    let routed = names::route(name, servers.iter().map(|s| s.name.as_str()))
        .and_then(|(server, tool)| Some((servers.iter().find(|s| s.name == server)?, tool)));
    let Some((config, tool)) = routed else {
        return Err(HostError::Validation(format!(
            "no tool `{name}`: tools are named SERVER{}TOOL after an enabled server",
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
    let call = ToolCall {
        tool,
        arguments,
        source: Source::Gateway,
        caller: Some(client.to_owned()),
    };
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
