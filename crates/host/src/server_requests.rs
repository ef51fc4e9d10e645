//! What the host answers when a server asks something of it (2025-11-25 client features):
//! `roots/list` gets the server's roots (none can be configured yet, so an empty list), and
//! `sampling/createMessage` and `elicitation/create` are declined until the approval engine can
//! put them before the user. Notifications that change what the host shows are passed on.

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::jsonrpc::codes;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

/// Something a server told the host that the session must act on.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerNotice {
    /// `notifications/tools/list_changed`: the tool list must be fetched again.
    ToolsChanged,
}

/// The host's answers to one server's requests.
#[derive(Debug)]
pub struct HostHandler {
    server: String,
    notices: Option<mpsc::UnboundedSender<ServerNotice>>,
}

impl HostHandler {
    /// A handler for `server`; notices go to `notices` when given.
    pub fn new(
        server: impl Into<String>,
        notices: Option<mpsc::UnboundedSender<ServerNotice>>,
    ) -> Self {
        Self {
            server: server.into(),
            notices,
        }
    }

    /// The capabilities this handler really answers, for `initialize`.
    pub fn capabilities() -> Map<String, Value> {
        let mut capabilities = Map::new();
        capabilities.insert("roots".into(), json!({ "listChanged": true }));
        capabilities.insert("sampling".into(), json!({}));
        capabilities.insert("elicitation".into(), json!({ "form": {}, "url": {} }));
        capabilities
    }
}

impl Handler for HostHandler {
    fn on_request(
        &self,
        method: String,
        _params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let server = self.server.clone();
        Box::pin(async move {
            match method.as_str() {
                "roots/list" => Ok(json!({ "roots": [] })),
                "elicitation/create" => {
                    tracing::info!(
                        "declined an elicitation request from `{server}`: approvals are not available yet"
                    );
                    Ok(json!({ "action": "decline" }))
                }
                "sampling/createMessage" => {
                    tracing::info!(
                        "declined a sampling request from `{server}`: approvals are not available yet"
                    );
                    // 2025-11-25 client/sampling, "Error Handling": a refusal is an error result.
                    Err(RpcError {
                        code: -1,
                        message:
                            "Gatehouse declined the sampling request: it cannot ask the user yet"
                                .into(),
                        data: None,
                    })
                }
                other => Err(RpcError {
                    code: codes::METHOD_NOT_FOUND,
                    message: format!("method not found: {other}"),
                    data: None,
                }),
            }
        })
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        match method {
            "notifications/tools/list_changed" => {
                if let Some(notices) = &self.notices {
                    let _ = notices.send(ServerNotice::ToolsChanged);
                }
            }
            "notifications/message" => {
                let params = params.unwrap_or_default();
                let level = params
                    .get("level")
                    .and_then(Value::as_str)
                    .unwrap_or("info");
                let data = params.get("data").map(Value::to_string).unwrap_or_default();
                tracing::info!(target: "gatehouse::server_log", "[{}] {level}: {data}", self.server);
            }
            "notifications/elicitation/complete" => {
                let id = params
                    .as_ref()
                    .and_then(|p| p.get("elicitationId"))
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                tracing::info!(
                    "`{}` finished the URL elicitation {id}; the request can be retried",
                    self.server
                );
            }
            other => tracing::debug!("`{}` sent {other}", self.server),
        }
    }
}
