//! The CLI's connection to a configured server, shared by every command that talks to one
//! (`tools`, `info`, `call`, `resources`, `prompts`, `complete`, `ping`, `watch`): the host's
//! [`ServerConnection`], answered by the host's own handler. What a server asks of the person
//! is put to them at the terminal by [`crate::terminal_approvals`], when there is one.

use std::sync::Arc;

use gatehouse_host::server_requests::HostHandler;
use gatehouse_host::watching::Watchers;
use gatehouse_host::{Host, HostError, ServerConnection};

/// Opens connections with the terminal as the server's interlocutor.
pub struct Connection;

impl Connection {
    /// Connects to the server named (or with the id) `server`, which must be enabled.
    pub async fn open(host: &Host, server: &str) -> Result<ServerConnection, HostError> {
        host.connect(server, |config| Arc::new(HostHandler::for_config(config)))
            .await
    }

    /// Like [`Connection::open`], offering the server's change notifications to `watchers`.
    pub async fn open_watched(
        host: &Host,
        server: &str,
        watchers: Watchers,
    ) -> Result<ServerConnection, HostError> {
        host.connect(server, |config| {
            Arc::new(HostHandler::for_config(config).with_watchers(watchers))
        })
        .await
    }
}
