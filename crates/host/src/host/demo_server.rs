//! The demo server a first run offers: `gatehouse demo-server` (the CLI's hidden subcommand, a
//! small stdio MCP server that needs no network), added as the server `demo` with the default
//! stop graces. The face says where the `gatehouse` binary is (the app: the one beside it).

use std::path::Path;

use super::Host;
use crate::error::{HostError, Result};
use crate::sessions::status::ServerView;
use crate::store::registry::model::{ServerInput, ServerSpec};

/// The demo server's name.
pub const DEMO_SERVER: &str = "demo";

impl Host {
    /// Adds the demo server, run by the `gatehouse` binary at `gatehouse`; when a server named
    /// `demo` is there already, returns it as it is.
    pub async fn add_demo_server(&self, gatehouse: &Path) -> Result<ServerView> {
        if let Ok(existing) = self.server(DEMO_SERVER).await {
            return Ok(existing);
        }
        let command = gatehouse.to_str().ok_or_else(|| {
            HostError::Validation(format!(
                "the gatehouse binary's path is not UTF-8: {}",
                gatehouse.display()
            ))
        })?;
        let input = ServerInput {
            name: DEMO_SERVER.to_owned(),
            enabled: true,
            roots: Vec::new(),
            spec: ServerSpec::Stdio {
                command: command.to_owned(),
                args: vec!["demo-server".to_owned()],
                env: Vec::new(),
                cwd: None,
                stop: self.default_stop_grace().await?,
            },
        };
        self.add_server(input).await
    }
}
