//! What the gateway answers an agent with: the JSON-RPC error numbers it uses, a request's
//! refusal as the error the agent gets (a denial saying what the person can do), a denied or
//! hidden tool call as a result with `isError` the model can act on, and the response messages;
//! and the containment of a request whose work panicked ([`caught`]).

use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures_util::FutureExt;
use serde_json::{Map, Value, json};

use super::visibility::PROFILE_RULE;
use crate::error::HostError;

/// What a denial tells the agent the person can do.
const CAN_ALLOW: &str = "The person can allow it in Gatehouse (a policy rule or an approval).";

/// What a request is answered with: a result, or a JSON-RPC error; `None` when it was
/// cancelled.
pub type Reply = Option<Result<Value, Failure>>;

/// A JSON-RPC error an agent gets: its number, its message, and its `data` when it has one
/// (a server's, passed on).
pub use gatehouse_mcp::error::RpcError as Failure;

/// A JSON-RPC error with no `data`.
pub fn fail(code: i64, message: impl Into<String>) -> Failure {
    Failure {
        code,
        message: message.into(),
        data: None,
    }
}

/// `work`'s output, or `None` (logged) if it panicked: the requests of an agent's session run on
/// the session's own task, so one request's fault must end neither the session nor its other
/// requests.
pub async fn caught<T>(method: &str, work: impl Future<Output = T>) -> Option<T> {
    let caught = AssertUnwindSafe(work).catch_unwind().await;
    if caught.is_err() {
        tracing::error!(
            "the gateway's `{method}` failed unexpectedly (a panic); answered with an error"
        );
    }
    caught.ok()
}

/// What an agent is answered when its request's work panicked.
pub fn panicked(method: &str) -> Failure {
    fail(
        rpc::INTERNAL,
        format!("Gatehouse failed unexpectedly serving `{method}`; the error is in its log"),
    )
}

/// JSON-RPC error numbers the gateway answers with.
pub mod rpc {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL: i64 = -32603;
    /// A client over one of its limits (a server error, in the range JSON-RPC leaves to them).
    pub const LIMITED: i64 = -32000;
}

/// A failed request as the JSON-RPC error the agent gets: a denial says what the person can do.
pub fn refusal(error: HostError) -> Failure {
    let (code, message) = match error {
        // A profile's refusal says itself what the person can do.
        HostError::Denied {
            reason,
            rule: Some(rule),
        } if rule == PROFILE_RULE => (rpc::INVALID_PARAMS, reason),
        HostError::Denied { reason, .. } => (
            rpc::INTERNAL,
            format!("Gatehouse denied this request: {reason}. {CAN_ALLOW}"),
        ),
        e @ (HostError::Validation(_) | HostError::NotFound(_)) => {
            (rpc::INVALID_PARAMS, e.to_string())
        }
        e => (rpc::INTERNAL, e.to_string()),
    };
    fail(code, message)
}

/// A denied call, as a result the model can act on.
pub fn denied(name: &str, reason: &str) -> Value {
    let text = format!("Gatehouse denied `{name}`: {reason}. {CAN_ALLOW}");
    json!({ "content": [{ "type": "text", "text": text }], "isError": true })
}

/// A refused call whose text says itself what happened and what the person can do.
pub fn tool_error(text: String) -> Value {
    json!({ "content": [{ "type": "text", "text": text }], "isError": true })
}

pub fn finish(id: Value, reply: Result<Value, Failure>) -> Value {
    match reply {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(failure) => {
            let mut response = error(id, failure.code, &failure.message);
            if let Some(data) = failure.data {
                response["error"]["data"] = data;
            }
            response
        }
    }
}

pub fn error(id: Value, code: i64, message: &str) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), json!(code));
    error.insert("message".into(), json!(message));
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}

#[cfg(test)]
mod caught_tests {
    use super::*;

    #[tokio::test]
    async fn a_request_that_panics_is_answered_and_the_next_one_served() {
        let panicking = async {
            if "boom".len() == 4 {
                panic!("a fault in one request's work");
            }
            1
        };
        assert_eq!(caught("tools/call", panicking).await, None);
        assert_eq!(caught("ping", async { 2 }).await, Some(2));
        assert!(panicked("tools/call").message.contains("`tools/call`"));
    }
}
