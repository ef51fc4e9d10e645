//! The gateway's prompts: every enabled server's prompts under the names of [`super::names`]
//! (`SERVER__PROMPT`, or bare where the client's prefix is off and nothing collides), and getting
//! one routed back to its server through the gate (source `gateway`, the client as the caller).
//! A bare name is routed by the prompts each connection last listed, and by fresh listings when
//! it is not among them.

use std::collections::BTreeMap;
use std::sync::Arc;

use gatehouse_mcp::Prompt;
use gatehouse_mcp::listed::Listing;
use serde_json::{Value, json};

use super::profiles::Served;
use super::relay::as_agents;
use super::visibility::{self, Hidden};
use super::{names, servers};
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::gate::Source;
use crate::oversight::gate::agent_relay::AgentAnswers;
use crate::vocabulary::status::Offer;

/// Every prompt the client's profile shows, named for the agent (with or without the server's
/// prefix, as its settings say).
pub async fn list(host: &Host, client: &str, served: &Served) -> Result<Vec<Value>> {
    let prefix = served.prefix;
    let (enabled, prompts) = gather(host, client, served).await?;
    let items: Vec<names::Item> = prompts
        .iter()
        .map(|(server, prompt)| (server.clone(), prompt.name.clone()))
        .collect();
    let mut listed = Vec::new();
    for ((_, prompt), name) in prompts.iter().zip(names::named(&items, &enabled, prefix)) {
        let Some(name) = name else { continue };
        if let Ok(Value::Object(mut fields)) = serde_json::to_value(prompt) {
            fields.insert("name".into(), json!(name));
            listed.push(Value::Object(fields));
        }
    }
    Ok(listed)
}

/// The enabled servers' names, and the prompts of those connected that the profile shows, by
/// server in name order.
async fn gather(
    host: &Host,
    client: &str,
    served: &Served,
) -> Result<(Vec<String>, Vec<(String, Prompt)>)> {
    let enabled: Vec<String> = servers::enabled(host)
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut prompts = Vec::new();
    for (server, connection) in
        servers::offering(host, Offer::Prompts, client, &served.profile).await?
    {
        match connection.client().list_prompts().await {
            Ok(page) => prompts.extend(page.items.into_iter().map(|p| (server.clone(), p))),
            Err(e) => tracing::warn!("the gateway leaves out the prompts of `{server}`: {e}"),
        }
    }
    Ok((enabled, prompts))
}

/// Gets the prompt an agent named, with its arguments, when its profile shows it.
/// The server's requests meanwhile may go to `agent` (`gate::agent_relay`).
pub async fn get(
    host: &Host,
    client: &str,
    served: &Served,
    agent: Arc<dyn AgentAnswers>,
    params: &Value,
) -> Result<Value> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| HostError::Validation("`name` is missing".to_owned()))?;
    let arguments: BTreeMap<String, String> = match params.get("arguments") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(arguments) => serde_json::from_value(arguments.clone()).map_err(|e| {
            HostError::Validation(format!("`arguments` must map names to strings: {e}"))
        })?,
    };
    let (server, prompt) = route(host, client, served, name).await?;
    shown(host, served, &server, "prompts/get", name).await?;
    let connection = servers::session(host, &server, client).await?;
    let getting = connection.get_prompt(&prompt, &arguments, Source::Gateway);
    let got = as_agents(host, served, connection.server_id(), agent, getting).await?;
    serde_json::to_value(got).map_err(|e| HostError::Protocol(e.to_string()))
}

/// Refuses a prompt of a server whose prompts the client's profile hides.
pub async fn shown(
    host: &Host,
    served: &Served,
    server: &str,
    method: &str,
    name: &str,
) -> Result<()> {
    if served.profile.sees_prompts(server) {
        return Ok(());
    }
    let flag = if served.profile.sees_server(server) {
        "--prompts".to_owned()
    } else {
        format!("--server {server}")
    };
    let hidden = Hidden {
        server,
        method,
        tool: None,
        what: format!("prompt `{name}`"),
        flag,
        asked: json!({ "prompt": name }),
    };
    Err(visibility::refuse(host, served, hidden).await)
}

/// The server and prompt an exposed name stands for, as `client` sees the names.
pub async fn route(
    host: &Host,
    client: &str,
    served: &Served,
    name: &str,
) -> Result<(String, String)> {
    let routed = if served.prefix {
        let route = |servers: &[(String, String)]| {
            names::route(name, servers.iter().map(|(s, _)| s.as_str()))
                .map(|(server, prompt)| (server.to_owned(), prompt))
        };
        // A prefix no kept server has may be a server another command just added.
        match route(&servers::enabled(host).await?) {
            Some(routed) => Some(routed),
            None => route(&servers::enabled_afresh(host).await?),
        }
    } else {
        // By the prompts each connection last listed; in fresh listings when not among them.
        match route_bare(host, client, served, name, false).await? {
            Some(routed) => Some(routed),
            None => route_bare(host, client, served, name, true).await?,
        }
    };
    routed.ok_or_else(|| {
        HostError::Validation(format!(
            "no prompt `{name}`: prompts are named SERVER{}PROMPT after an enabled server, or by \
             their own name where the client's prefix is off and no other server has one so named",
            names::SEPARATOR
        ))
    })
}

/// The server and prompt a bare name stands for, among the prompts the client's profile shows:
/// as each connection last listed them (a connection with none kept is asked), or all listed
/// afresh when `fresh`.
async fn route_bare(
    host: &Host,
    client: &str,
    served: &Served,
    name: &str,
    fresh: bool,
) -> Result<Option<names::Item>> {
    let enabled: Vec<String> = servers::enabled(host)
        .await?
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let mut items: Vec<names::Item> = Vec::new();
    for (server, connection) in
        servers::offering(host, Offer::Prompts, client, &served.profile).await?
    {
        let listed = match connection
            .client()
            .listed_names(Listing::Prompts, fresh)
            .await
        {
            Ok(listed) => listed,
            Err(e) => {
                tracing::warn!("the gateway leaves out the prompts of `{server}`: {e}");
                continue;
            }
        };
        items.extend(listed.iter().map(|prompt| (server.clone(), prompt.clone())));
    }
    Ok(names::route_named(name, &items, &enabled, false))
}
