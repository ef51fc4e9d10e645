//! The gateway's resources and resource templates: every enabled server's, their URIs as the
//! servers gave them (so `ui://` views and links inside content keep working). A URI is routed
//! back to the first server, in name order, that lists it or whose template it extends (by what
//! each connection last listed, kept until the server says its resources changed, and by fresh
//! listings when the URI is not there); a URI or template listed by two servers goes to the
//! first and is left out for the second, with a warning in the engine's log. Reads pass the
//! gate with source `gateway`.

use std::collections::HashSet;
use std::sync::Arc;

use gatehouse_mcp::listed::Listing;
use serde_json::Value;

use super::profiles::{Profile, Served};
use super::relay::as_agents;
use super::servers;
use super::visibility::{self, Hidden};
use crate::connections::connection::ServerConnection;
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::gate::Source;
use crate::oversight::gate::agent_relay::AgentAnswers;
use crate::vocabulary::status::Offer;

/// Every resource (`templates`: every resource template) the client's profile shows, each once.
pub async fn list(
    host: &Host,
    client: &str,
    served: &Served,
    templates: bool,
) -> Result<Vec<Value>> {
    let mut seen = HashSet::new();
    let mut listed = Vec::new();
    for (server, connection) in
        servers::offering(host, Offer::Resources, client, &served.profile).await?
    {
        let items = match items(&connection, templates).await {
            Ok(items) => items,
            Err(e) => {
                tracing::warn!("the gateway leaves out the resources of `{server}`: {e}");
                continue;
            }
        };
        for (uri, item) in items {
            if seen.insert(uri.clone()) {
                listed.push(item);
            } else {
                tracing::warn!(
                    "the gateway leaves out `{uri}` of `{server}`: another server lists it first"
                );
            }
        }
    }
    Ok(listed)
}

/// A server's resources (or templates), each with its URI (or URI template).
async fn items(connection: &ServerConnection, templates: bool) -> Result<Vec<(String, Value)>> {
    let encode = |item: Result<Value, serde_json::Error>| item.ok();
    Ok(if templates {
        let page = connection.client().list_resource_templates().await?;
        page.items
            .iter()
            .filter_map(|t| Some((t.uri_template.clone(), encode(serde_json::to_value(t))?)))
            .collect()
    } else {
        let page = connection.client().list_resources().await?;
        page.items
            .iter()
            .filter_map(|r| Some((r.uri.clone(), encode(serde_json::to_value(r))?)))
            .collect()
    })
}

/// Reads the resource an agent named, from the server it belongs to, when its profile shows it.
/// The server's requests meanwhile may go to `agent` (`gate::agent_relay`).
pub async fn read(
    host: &Host,
    client: &str,
    served: &Served,
    agent: Arc<dyn AgentAnswers>,
    params: &Value,
) -> Result<Value> {
    let uri = params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| HostError::Validation("`uri` is missing".to_owned()))?;
    let connection = shown_owner(host, client, served, "resources/read", uri).await?;
    let reading = connection.read_resource(uri, Source::Gateway);
    let contents = as_agents(host, served, connection.server_id(), agent, reading).await?;
    Ok(serde_json::json!({ "contents": contents }))
}

/// The live session of the server a URI (or URI template) belongs to, among those whose
/// resources the client's profile shows; a URI of a server it hides is refused (and recorded).
pub async fn shown_owner(
    host: &Host,
    client: &str,
    served: &Served,
    method: &str,
    uri: &str,
) -> Result<ServerConnection> {
    match owner(host, client, &served.profile, uri).await {
        Ok(connection) => Ok(connection),
        Err(not_found) => {
            // Only on the way to an error: is it a hidden server's?
            let Ok(hidden) = owner(host, client, &Profile::default(), uri).await else {
                return Err(not_found);
            };
            let server = hidden.server();
            let flag = if served.profile.sees_server(server) {
                "--resources".to_owned()
            } else {
                format!("--server {server}")
            };
            let hidden = Hidden {
                server,
                method,
                tool: None,
                what: format!("resource `{uri}`"),
                flag,
                asked: serde_json::json!({ "uri": uri }),
            };
            Err(visibility::refuse(host, served, hidden).await)
        }
    }
}

/// The live session of the server a URI (or URI template) belongs to, among those `profile`
/// shows: by what each connection last listed, and by fresh listings when the URI is not there
/// (a server may change its resources without saying so), and then among the servers another
/// command added since the engine last looked at the store.
async fn owner(
    host: &Host,
    client: &str,
    profile: &Profile,
    uri: &str,
) -> Result<ServerConnection> {
    let kept = host.server_configs_kept().await?;
    let mut offering =
        servers::offering_among(host, &kept, Offer::Resources, client, profile).await;
    for fresh in [false, true] {
        if let Some(found) = owner_among(&offering, uri, fresh).await {
            return Ok(offering.swap_remove(found).1);
        }
    }
    let now = host.server_configs_afresh().await?;
    let added: Vec<_> = servers::enabled_in(&now)
        .filter(|config| !servers::enabled_in(&kept).any(|k| k.id == config.id))
        .cloned()
        .collect();
    if !added.is_empty() {
        let mut offering =
            servers::offering_among(host, &added, Offer::Resources, client, profile).await;
        if let Some(found) = owner_among(&offering, uri, true).await {
            return Ok(offering.swap_remove(found).1);
        }
    }
    Err(HostError::Validation(format!(
        "no resource `{uri}`: no enabled server lists it or a template it fits"
    )))
}

/// Which of `offering` (in name order) is the first that lists `uri`, else the first with a
/// template it fits; the listings kept unless `fresh`.
async fn owner_among(
    offering: &[(String, ServerConnection)],
    uri: &str,
    fresh: bool,
) -> Option<usize> {
    let mut by_template = None;
    for (at, (_, connection)) in offering.iter().enumerate() {
        if connection
            .client()
            .listed_names(Listing::Resources, fresh)
            .await
            .ok()
            .is_some_and(|listed| listed.iter().any(|listed| listed == uri))
        {
            return Some(at);
        }
        if by_template.is_none()
            && connection
                .client()
                .listed_names(Listing::Templates, fresh)
                .await
                .ok()
                .is_some_and(|templates| templates.iter().any(|t| extends(uri, t)))
        {
            by_template = Some(at);
        }
    }
    by_template
}

/// Whether `uri` may come from `template`: the same URI up to the template's first variable,
/// or the template itself (as a completion request names it).
fn extends(uri: &str, template: &str) -> bool {
    match template.find('{') {
        Some(start) => {
            uri == template || (uri.len() > start && uri.starts_with(&template[..start]))
        }
        None => uri == template,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uri_fits_a_template_up_to_its_first_variable() {
        let template = "demo://resource/dynamic/text/{id}";
        assert!(extends("demo://resource/dynamic/text/2", template));
        assert!(extends(template, template));
        assert!(
            !extends("demo://resource/dynamic/text/", template),
            "no value"
        );
        assert!(!extends("demo://resource/static/x", template));
        assert!(extends("file:///a", "file:///a"));
    }
}
