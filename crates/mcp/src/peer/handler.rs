//! What the server sends on its own initiative goes to a [`Handler`]: requests (answered, or
//! refused as unknown by default), withdrawable requests and notifications.

use serde_json::Value;

use super::withdrawal::Withdrawal;
use crate::error::RpcError;
use crate::future::BoxFuture;
use crate::jsonrpc::codes;

/// Receives what the server sends on its own initiative.
pub trait Handler: Send + Sync + 'static {
    /// Answers a server→client request. The default refuses it as unknown.
    fn on_request(
        &self,
        method: String,
        _params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        Box::pin(async move {
            Err(RpcError {
                code: codes::METHOD_NOT_FOUND,
                message: format!("method not found: {method}"),
                data: None,
            })
        })
    }

    /// Answers a server→client request that the server may withdraw: `withdrawn` completes,
    /// with the server's reason, once the server sends `notifications/cancelled` for it. No
    /// response is sent for a withdrawn request, whatever this answers; the default answers
    /// with [`Handler::on_request`] and drops that answer at once on a withdrawal. A handler
    /// that overrides it should end promptly once withdrawn (say, after recording it).
    fn on_withdrawable_request(
        &self,
        method: String,
        params: Option<Value>,
        withdrawn: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let answer = self.on_request(method, params);
        Box::pin(async move {
            tokio::select! {
                answer = answer => answer,
                reason = withdrawn.withdrawn() => Err(RpcError {
                    code: codes::INTERNAL_ERROR,
                    message: format!("the server withdrew the request: {reason}"),
                    data: None,
                }),
            }
        })
    }

    /// Receives a notification. It must return quickly.
    fn on_notification(&self, _method: &str, _params: Option<Value>) {}
}

/// A handler that refuses every request and drops every notification.
#[derive(Debug, Default)]
pub struct RefusingHandler;

impl Handler for RefusingHandler {}
