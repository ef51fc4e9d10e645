//! Watching a server's change notifications on the engine's live session, as [`Host`] operation:
//! what a face attached over the control socket uses for `gatehouse watch`, so that no second
//! copy of the server is started (see [`crate::connections::watching`]).

use tokio::sync::mpsc;

use super::Host;
use crate::connections::watching::{self, WatchEvent};
use crate::error::{HostError, Result};

impl Host {
    /// Watches the live session of the server with this id (or name) for its change
    /// notifications and the updates of `resources`, sending each to `events`, until the
    /// receiver of `events` is dropped (`Ok`) or the server's connection ends (an error that
    /// says so). A server without an open connection is [`HostError::NotConnected`].
    pub async fn watch(
        &self,
        server: &str,
        resources: &[String],
        events: mpsc::Sender<WatchEvent>,
    ) -> Result<()> {
        let config = self.registry.get(server).await?;
        let live = self.live_session(&config).await?;
        let pushed = live.watchers.subscribe();
        let mut ended = live.ended.clone();
        tokio::select! {
            watched = watching::watch(&live.client, &config.name, resources, pushed, events) => watched,
            _ = ended.changed() => Err(HostError::NotConnected(format!(
                "`{}` disconnected while it was watched",
                config.name
            ))),
        }
    }
}
