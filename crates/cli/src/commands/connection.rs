//! The CLI's connection to a configured server, shared by every command that talks to one
//! (`tools`, `info`, `call`, `resources`, `prompts`, `complete`, `ping`, `watch`): the host's
//! [`ServerConnection`]. What a server asks of the person is put to them at the terminal by
//! [`crate::terminal_approvals`], when there is one.

use std::sync::Arc;

use gatehouse_host::{Host, HostError, ServerConnection};

use crate::notices::{ForwardNotices, NoticeOutlet};

/// Opens connections with the terminal as the server's interlocutor.
pub struct Connection;

impl Connection {
    /// Connects to the server named (or with the id) `server`, which must be enabled.
    pub async fn open(host: &Host, server: &str) -> Result<ServerConnection, HostError> {
        Self::open_with(host, server, None).await
    }

    /// Like [`Connection::open`], passing the server's notifications to `notices`.
    pub async fn open_with(
        host: &Host,
        server: &str,
        notices: Option<NoticeOutlet>,
    ) -> Result<ServerConnection, HostError> {
        host.connect(server, |config| {
            let mut answers = ForwardNotices::new(config);
            if let Some(notices) = notices {
                answers = answers.with_notices(notices);
            }
            Arc::new(answers)
        })
        .await
    }
}
