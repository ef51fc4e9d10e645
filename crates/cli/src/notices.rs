//! The handler of a CLI connection: the host's own answers (roots), with the server's
//! notifications passed to a command that shows them (`watch`). What needs a person (sampling,
//! elicitation) never reaches it: the gate puts it to the person at the terminal
//! ([`crate::terminal_approvals`]).

use std::sync::Arc;

use gatehouse_host::ServerConfig;
use gatehouse_host::server_requests::HostHandler;
use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::Value;

/// A server notification as a command receives it: method and params.
pub type Notice = (String, Option<Value>);

/// The host's handler, with notifications forwarded when a command asks for them.
pub struct ForwardNotices {
    host: Arc<HostHandler>,
    notices: Option<tokio::sync::mpsc::UnboundedSender<Notice>>,
}

impl ForwardNotices {
    pub fn new(config: &ServerConfig) -> Self {
        Self {
            host: Arc::new(HostHandler::for_config(config)),
            notices: None,
        }
    }

    /// The same, passing every notification to `notices` instead of the host's handler.
    pub fn with_notices(mut self, notices: tokio::sync::mpsc::UnboundedSender<Notice>) -> Self {
        self.notices = Some(notices);
        self
    }
}

impl Handler for ForwardNotices {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        self.host.on_request(method, params)
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        match &self.notices {
            Some(notices) => {
                let _ = notices.send((method.to_owned(), params));
            }
            None => self.host.on_notification(method, params),
        }
    }
}
