//! A gated connection over the engine's live session of a server, for a face attached over the
//! control socket: its requests go through the gate exactly as the app's do, and no second copy
//! of the server is started. Closing it leaves the session running.

use super::Host;
use crate::connections::connection::ServerConnection;
use crate::error::{HostError, Result};

impl Host {
    /// The live session of the server with this id (or name), as a [`ServerConnection`]. A
    /// server without an open connection is [`HostError::NotConnected`].
    pub async fn attached(&self, server: &str) -> Result<ServerConnection> {
        let config = self.registry.get(server).await?;
        let Some(live) = self.sessions.live(&config.id) else {
            return Err(HostError::NotConnected(format!(
                "`{}` is not connected to the engine (disabled, stopped or still starting)",
                config.name
            )));
        };
        Ok(ServerConnection::over_live(
            &config,
            live.client.clone(),
            self.gate.clone(),
        ))
    }
}
