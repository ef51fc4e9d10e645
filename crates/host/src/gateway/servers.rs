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
use crate::vocabulary::status::{Offer, ServerStatus};

/// The enabled servers, by name and id, in name order.
pub async fn enabled(host: &Host) -> Result<Vec<(String, String)>> {
    let mut servers: Vec<(String, String)> = host
        .server_configs_kept()
        .await?
        .iter()
        .filter(|config| config.enabled)
        .map(|config| (config.name.clone(), config.id.clone()))
        .collect();
    servers.sort();
    Ok(servers)
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
    let mut sessions = Vec::new();
    for (name, id) in enabled(host).await? {
        let shown = match offer {
            Offer::Prompts => profile.sees_prompts(&name),
            Offer::Resources => profile.sees_resources(&name),
            _ => profile.sees_server(&name),
        };
        if !shown {
            continue;
        }
        match session(host, &id, client).await {
            Ok(connection) if Offer::of(connection.client()).contains(&offer) => {
                sessions.push((name, connection));
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("the gateway leaves out `{name}`: {e}"),
        }
    }
    Ok(sessions)
}
