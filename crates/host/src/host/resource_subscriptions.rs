//! Resource subscriptions on the engine's live sessions, shared by everyone who wants a
//! resource's updates: the gateway's agents and the person at the window. Each subscriber is
//! counted per server and URI ([`crate::oversight::gate::agent_notices`]); the server is asked
//! to subscribe (through the gate, decided as a read of the resource) for the first and told to
//! unsubscribe after the last, so one subscriber leaving never ends another's updates
//! (2025-11-25 server/resources, "Subscriptions"). The updates arrive on the bounded broadcast
//! [`Host::server_notes`] offers.

use std::time::Duration;

use tokio::sync::broadcast;

use super::Host;
use crate::connections::connection::ServerConnection;
use crate::error::{HostError, Result};
use crate::oversight::gate::Source;
use crate::oversight::gate::agent_notices::ServerNote;

/// How long telling the servers of subscriptions nobody wants any more may take.
const RELEASE_GRACE: Duration = Duration::from_secs(2);

impl Host {
    /// Counts one more subscriber to `uri` on `connection`'s server, through the gate as
    /// `source`; the server is asked only for the first. A refusal (by the gate or the server)
    /// counts nobody.
    pub async fn subscribe_shared(
        &self,
        connection: &ServerConnection,
        uri: &str,
        source: Source,
    ) -> Result<()> {
        let shared = self.gate.agent_notices();
        let first = shared.subscribe(connection.server_id(), uri);
        if let Err(e) = connection.subscribe(uri, source, first).await {
            shared.unsubscribe(connection.server_id(), uri);
            return Err(e);
        }
        Ok(())
    }

    /// One subscriber fewer wants each of `subscriptions` (server id, URI): counted at once, and
    /// each server told (within [`RELEASE_GRACE`]) of those nobody wants any more.
    pub async fn release_subscriptions(&self, subscriptions: Vec<(String, String)>) {
        let shared = self.gate.agent_notices();
        let unwanted: Vec<(String, String)> = subscriptions
            .into_iter()
            .filter(|(server_id, uri)| shared.unsubscribe(server_id, uri))
            .collect();
        let tell = async {
            for (server_id, uri) in &unwanted {
                let unsubscribed = match self.attached(server_id).await {
                    Ok(connection) => connection
                        .client()
                        .unsubscribe(uri)
                        .await
                        .map_err(HostError::from),
                    Err(e) => Err(e),
                };
                if let Err(e) = unsubscribed {
                    tracing::debug!("unsubscribing `{uri}` on server {server_id}: {e}");
                }
            }
        };
        if tokio::time::timeout(RELEASE_GRACE, tell).await.is_err() {
            tracing::debug!("the servers were not all told of subscriptions nobody wants any more");
        }
    }

    /// The servers' notifications a subscriber may be given from now on (log messages,
    /// resource updates, list changes), on a bounded broadcast: one that falls behind misses
    /// the oldest and is told how many.
    pub fn server_notes(&self) -> broadcast::Receiver<ServerNote> {
        self.gate.agent_notices().listen()
    }
}
