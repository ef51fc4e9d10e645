//! The gateway's prompts: every enabled server's prompts under the names of [`super::names`]
//! (`SERVER__PROMPT`), and getting one routed back to its server through the gate (source
//! `gateway`, the client as the caller).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::profiles::Served;
use super::visibility::{self, Hidden};
use super::{names, servers};
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::gate::Source;
use crate::vocabulary::status::Offer;

/// Every prompt the client's profile shows, named for the agent.
pub async fn list(host: &Host, client: &str, served: &Served) -> Result<Vec<Value>> {
    let names: Vec<String> = servers::enabled(host)
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut prompts = Vec::new();
    for (server, connection) in
        servers::offering(host, Offer::Prompts, client, &served.profile).await?
    {
        let page = match connection.client().list_prompts().await {
            Ok(page) => page,
            Err(e) => {
                tracing::warn!("the gateway leaves out the prompts of `{server}`: {e}");
                continue;
            }
        };
        for prompt in page.items {
            let Some(name) = names::routed(&server, &prompt.name, &names) else {
                continue;
            };
            if let Ok(Value::Object(mut fields)) = serde_json::to_value(&prompt) {
                fields.insert("name".into(), json!(name));
                prompts.push(Value::Object(fields));
            }
        }
    }
    Ok(prompts)
}

/// Gets the prompt an agent named, with its arguments, when its profile shows it.
pub async fn get(host: &Host, client: &str, served: &Served, params: &Value) -> Result<Value> {
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
    let (server, prompt) = route(host, name).await?;
    shown(host, served, &server, "prompts/get", name).await?;
    let connection = servers::session(host, &server, client).await?;
    let got = connection
        .get_prompt(&prompt, &arguments, Source::Gateway)
        .await?;
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

/// The server and prompt an exposed name stands for.
pub async fn route(host: &Host, name: &str) -> Result<(String, String)> {
    let servers = servers::enabled(host).await?;
    names::route(name, servers.iter().map(|(s, _)| s.as_str()))
        .map(|(server, prompt)| (server.to_owned(), prompt))
        .ok_or_else(|| {
            HostError::Validation(format!(
                "no prompt `{name}`: prompts are named SERVER{}PROMPT after an enabled server",
                names::SEPARATOR
            ))
        })
}
