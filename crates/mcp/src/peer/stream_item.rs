//! What a long-lived request delivers ([`StreamItem`]) and how the route tells them apart: the
//! routing key of a subscription id and of a request id, the subscription a notification names,
//! and the bound on notifications waiting to be read.

use serde_json::Value;

use super::failure::Failure;
use crate::jsonrpc::RequestId;

/// How many notifications of one long-lived request may wait to be read; beyond that they are
/// dropped, with a log line.
pub const STREAM_QUEUE: usize = 256;

/// The `_meta` key naming the long-lived request a notification belongs to.
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// What a long-lived request delivers.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamItem {
    /// A notification carrying the request's subscription id.
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// The request ended. `Ok` is the server's graceful closing result; `Err` is the server's
    /// error, or why the stream ended without one.
    Ended(std::result::Result<Value, Failure>),
}

/// The routing key for a subscription id: the id's text, so that a server that echoes the
/// numeric id `1` as the string `"1"` is still understood.
pub fn stream_key(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The routing key of one of our own request ids (see [`stream_key`]).
pub(super) fn request_key(id: &RequestId) -> String {
    match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => s.clone(),
    }
}

/// The subscription a notification's params name, if any.
pub(super) fn subscription_of(params: Option<&Value>) -> Option<String> {
    stream_key(params?.get("_meta")?.get(SUBSCRIPTION_ID)?)
}

/// The error for a stream that ended without an answer.
pub(super) fn lost(reason: String) -> Failure {
    Failure::Ended(reason)
}
