//! Which servers an agent reaches through the gateway: the enabled ones, by name; and their live
//! sessions that offer a feature (tools, prompts, resources) and that the client's profile shows
//! it, with the agent's requests named as the client's. The configurations are the ones the
//! engine keeps in memory, as for its calls' routing ([`Host::attached_kept`]): no read of the
//! store per request. A server still connecting is waited for; one that is not connected is
//! left out with a warning in the engine's log.

use super::profiles::Profile;
use crate::connections::connection::ServerConnection;
use crate::error::Result;
use crate::host::Host;
use crate::store::registry::model::ServerConfig;
use crate::vocabulary::status::{Offer, ServerStatus};

/// The enabled ones of `configs`.
pub fn enabled_in(configs: &[ServerConfig]) -> impl Iterator<Item = &ServerConfig> {
    configs.iter().filter(|config| config.enabled)
}

/// The enabled ones of `configs`, in name order.
pub fn enabled_by_name(configs: &[ServerConfig]) -> Vec<&ServerConfig> {
    let mut servers: Vec<&ServerConfig> = enabled_in(configs).collect();
    servers.sort_by(|a, b| a.name.cmp(&b.name));
    servers
}

/// The enabled servers, by name and id, in name order.
pub async fn enabled(host: &Host) -> Result<Vec<(String, String)>> {
    Ok(names_and_ids(&host.server_configs_kept().await?))
}

/// As [`enabled`], read from the store now (the kept list brought up to date): for a name or
/// URI the kept list routes nowhere, which may belong to a server another command added since
/// the engine's last look at the store.
pub async fn enabled_afresh(host: &Host) -> Result<Vec<(String, String)>> {
    Ok(names_and_ids(&host.server_configs_afresh().await?))
}

fn names_and_ids(configs: &[ServerConfig]) -> Vec<(String, String)> {
    enabled_by_name(configs)
        .into_iter()
        .map(|config| (config.name.clone(), config.id.clone()))
        .collect()
}

/// The servers connected now, by id.
pub async fn connected_ids(host: &Host) -> Vec<String> {
    host.list_servers()
        .await
        .map(|views| {
            views
                .into_iter()
                .filter(|view| {
                    matches!(
                        view.status,
                        ServerStatus::Connected { .. } | ServerStatus::Degraded { .. }
                    )
                })
                .map(|view| view.config.id)
                .collect()
        })
        .unwrap_or_default()
}

/// The live session of `server` with the agent `client` as the caller.
pub async fn session(host: &Host, server: &str, client: &str) -> Result<ServerConnection> {
    Ok(host.attached_kept(server).await?.with_caller(client))
}

/// The live sessions of the enabled servers that offer `offer` and whose `offer` the profile
/// shows, by name, in name order.
pub async fn offering(
    host: &Host,
    offer: Offer,
    client: &str,
    profile: &Profile,
) -> Result<Vec<(String, ServerConnection)>> {
    let configs = host.server_configs_kept().await?;
    Ok(offering_among(host, &configs, offer, client, profile).await)
}

/// As [`offering`], among the enabled ones of `configs`.
pub async fn offering_among(
    host: &Host,
    configs: &[ServerConfig],
    offer: Offer,
    client: &str,
    profile: &Profile,
) -> Vec<(String, ServerConnection)> {
    let mut sessions = Vec::new();
    for config in enabled_by_name(configs) {
        let name = &config.name;
        let shown = match offer {
            Offer::Prompts => profile.sees_prompts(name),
            Offer::Resources => profile.sees_resources(name),
            _ => profile.sees_server(name),
        };
        if !shown {
            continue;
        }
        match host.attached_to(config).await {
            Ok(connection) if Offer::of(connection.client()).contains(&offer) => {
                sessions.push((name.clone(), connection.with_caller(client)));
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("the gateway leaves out `{name}`: {e}"),
        }
    }
    sessions
}
