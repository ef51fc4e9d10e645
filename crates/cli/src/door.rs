//! Which way a command reaches a server, chosen once in `main`: through the engine that runs on
//! the data directory (its live session, over the control socket; the audit names the CLI as
//! the face) or with this process's own connection (no engine runs, or `--standalone`). Each
//! command asks its question both ways with the same function of
//! [`gatehouse_host::control::answers`] (the engine runs it for the face), so both print alike.

use gatehouse_host::control::client::ControlClient;
use gatehouse_host::{Host, HostError, ServerConnection};

use crate::commands::connection::Connection;

pub enum Door<'a> {
    /// This process's host: a connection of its own for each command.
    InProcess(&'a Host),
    /// The running engine.
    Attached(&'a ControlClient),
}

impl Door<'_> {
    /// Asks `server` something: of the engine with `attached`, or over a connection of this
    /// process (opened for it and closed after) with `local`.
    pub async fn ask<T>(
        &self,
        server: &str,
        attached: impl AsyncFnOnce(&ControlClient) -> Result<T, HostError>,
        local: impl AsyncFnOnce(&ServerConnection) -> Result<T, HostError>,
    ) -> Result<T, HostError> {
        match self {
            Door::Attached(client) => attached(client).await,
            Door::InProcess(host) => {
                let connection = Connection::open(host, server).await?;
                let answer = local(&connection).await;
                connection.close(answer).await
            }
        }
    }
}
