//! A gated connection over the engine's live session of a server, for a face attached over the
//! control socket: its requests go through the gate exactly as the app's do, and no second copy
//! of the server is started. Closing it leaves the session running. A request that comes while
//! the server is still connecting (the engine just started, or the server was just added or
//! enabled) waits for the handshake, up to [`CONNECTING_WAIT`].

use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;

use super::Host;
use crate::connections::connection::ServerConnection;
use crate::error::{HostError, Result};
use crate::sessions::LiveClient;
use crate::store::registry::model::ServerConfig;
use crate::vocabulary::events::EngineEvent;
use crate::vocabulary::status::ServerStatus;

/// How long a request waits for a server that is still connecting.
pub const CONNECTING_WAIT: Duration = Duration::from_secs(30);

impl Host {
    /// The live session of the server with this id (or name), as a [`ServerConnection`]. A
    /// server that is connecting is waited for; one without an open connection is
    /// [`HostError::NotConnected`], saying why.
    pub async fn attached(&self, server: &str) -> Result<ServerConnection> {
        let config = self.registry.get(server).await?;
        self.attached_to(&config).await
    }

    /// As [`Host::attached`], with the configuration from the list the engine keeps in memory
    /// (`Registry::get_kept`), as the gateway routes its agents' calls: a server another
    /// process disabled is served until the engine's next look at the store (at most 500 ms),
    /// when its session stops. A server not in that list is read from the store.
    pub async fn attached_kept(&self, server: &str) -> Result<ServerConnection> {
        let config = self.registry.get_kept(server).await?;
        self.attached_to(&config).await
    }

    /// As [`Host::attached`], for a configuration already in hand.
    pub(crate) async fn attached_to(&self, config: &ServerConfig) -> Result<ServerConnection> {
        let live = self.live_session(config).await?;
        Ok(ServerConnection::over_live(
            config,
            live.client.clone(),
            self.gate.clone(),
        ))
    }

    /// The names of the tools the server's live session last listed (kept by the connection
    /// and listed again by its runner when the server says they changed); `None` while it has
    /// no open connection. Nothing is asked of the server.
    pub fn listed_tool_names(&self, server_id: &str) -> Option<Vec<String>> {
        Some(self.sessions.live(server_id)?.client.cached_tool_names())
    }

    /// The live protocol client of the server with this id, for a request about what a call
    /// through the gate made (a task's `tasks/get`), waited for as [`Host::attached`] does.
    pub(crate) async fn live_client(
        &self,
        server_id: &str,
    ) -> Result<std::sync::Arc<gatehouse_mcp::Client>> {
        let config = self.registry.get(server_id).await?;
        Ok(self.live_session(&config).await?.client)
    }

    /// The server's live session: waited for while it connects; a server disabled by another
    /// process a moment ago is stopped now (not at the store's next check) and not served.
    pub(super) async fn live_session(&self, config: &ServerConfig) -> Result<LiveClient> {
        if !config.enabled {
            self.follow_changes().await?;
            return Err(not_connected(&config.name, Some(ServerStatus::Disabled)));
        }
        match self.sessions.live(&config.id) {
            Some(live) => Ok(live),
            None => self.connected(&config.id, &config.name).await,
        }
    }

    /// Waits while the server is connecting, then its live session or why there is none.
    async fn connected(&self, id: &str, name: &str) -> Result<LiveClient> {
        // Subscribed before the status is read: a change in between is not missed.
        let mut events = self.subscribe();
        // A server another process just added or enabled is started now, not at the store's
        // next check: `gatehouse server add x …` then `gatehouse tools x` finds it connecting.
        self.follow_changes().await?;
        let waited = tokio::time::timeout(CONNECTING_WAIT, async {
            loop {
                if let Some(live) = self.sessions.live(id) {
                    return Ok(live);
                }
                let status = self.sessions.status(id);
                if !matches!(status, Some(ServerStatus::Connecting)) {
                    return Err(not_connected(name, status));
                }
                loop {
                    match events.recv().await {
                        Ok(EngineEvent::ServerStatus { id: changed, .. }) if changed == id => break,
                        Ok(_) | Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return Err(not_connected(name, None)),
                    }
                }
            }
        })
        .await;
        waited.unwrap_or_else(|_| {
            Err(HostError::NotConnected(format!(
                "`{name}` did not finish connecting to the engine within {} s",
                CONNECTING_WAIT.as_secs()
            )))
        })
    }
}

fn not_connected(name: &str, status: Option<ServerStatus>) -> HostError {
    let why = match status {
        Some(ServerStatus::Disabled) => "it is disabled".to_owned(),
        Some(ServerStatus::Failed { message }) => format!("it failed: {message}"),
        Some(ServerStatus::Restarting { message, in_ms, .. }) => {
            format!("{message}; it restarts in {:.1} s", in_ms as f64 / 1000.0)
        }
        _ => "it is stopped".to_owned(),
    };
    HostError::NotConnected(format!("`{name}` is not connected to the engine: {why}"))
}
