//! One short-lived connection to a configured server, shared by every command that talks to one
//! (`tools`, `info`, `call`, `resources`, `prompts`, `complete`, `ping`, …): look the server up
//! in the registry, refuse it if disabled, connect with its secrets, and close it cleanly at the
//! end whatever the command's outcome.

use std::sync::Arc;

use gatehouse_host::connect::open_client_with;
use gatehouse_host::{Host, HostError};
use gatehouse_mcp::Client;

use crate::terminal_answers::{Notice, TerminalAnswers};

/// A connected client and the name (and id) the server is registered under.
pub struct Connection {
    pub server: String,
    pub server_id: String,
    pub client: Client,
}

impl Connection {
    /// Connects to the server named (or with the id) `server`, which must be enabled.
    pub async fn open(host: &Host, server: &str) -> Result<Connection, HostError> {
        Self::open_with(host, server, None).await
    }

    /// Like [`Connection::open`], passing the server's notifications to `notices`.
    pub async fn open_with(
        host: &Host,
        server: &str,
        notices: Option<tokio::sync::mpsc::UnboundedSender<Notice>>,
    ) -> Result<Connection, HostError> {
        let config = host.registry().get(server).await?;
        if !config.enabled {
            return Err(HostError::Validation(format!(
                "`{}` is disabled; enable it with `gatehouse server enable {}`",
                config.name, config.name
            )));
        }
        let mut answers = TerminalAnswers::new(&config);
        if let Some(notices) = notices {
            answers = answers.with_notices(notices);
        }
        let handler = Arc::new(answers);
        let client = open_client_with(&config, host.registry(), handler).await?;
        Ok(Connection {
            server: config.name,
            server_id: config.id,
            client,
        })
    }

    /// Closes the connection (stopping a stdio server) and returns the command's outcome. A
    /// failure to close is reported only when the command itself succeeded.
    pub async fn close<T>(self, outcome: Result<T, HostError>) -> Result<T, HostError> {
        let closed = self.client.close().await;
        match (outcome, closed) {
            (Ok(value), Ok(())) => Ok(value),
            (Ok(_), Err(close_error)) => Err(close_error.into()),
            (Err(error), closed) => {
                if let Err(close_error) = closed {
                    tracing::debug!("closing after an error: {close_error}");
                }
                Err(error)
            }
        }
    }
}
