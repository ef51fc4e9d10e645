//! JSON-RPC 2.0 messages as MCP uses them: classification of incoming messages and
//! construction of outgoing ones. Batches are not part of MCP since 2025-06-18 and are refused.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::error::RpcError;

/// Standard JSON-RPC error codes used by this client.
pub mod codes {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// A request that failed in the transport (HTTP status, unreachable server); the error's
    /// `data` has `httpStatus` when there was one.
    pub const TRANSPORT_ERROR: i64 = -32000;
}

/// A request id: MCP allows strings and integers (never null).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    Number(i64),
    String(String),
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// One incoming message, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Request {
        id: RequestId,
        method: String,
        params: Option<Value>,
    },
    Notification {
        method: String,
        params: Option<Value>,
    },
    Response {
        id: RequestId,
        result: Value,
    },
    Error {
        id: Option<RequestId>,
        error: RpcError,
    },
}

impl Message {
    /// Classifies a parsed JSON value. The error says what is wrong, for the log.
    pub fn from_value(value: Value) -> Result<Message, String> {
        let Value::Object(mut obj) = value else {
            return Err(match value {
                Value::Array(_) => "JSON-RPC batches are not supported by MCP".to_owned(),
                _ => "a JSON-RPC message must be an object".to_owned(),
            });
        };
        let id = match obj.remove("id") {
            None | Some(Value::Null) => None,
            Some(raw) => Some(
                serde_json::from_value::<RequestId>(raw)
                    .map_err(|_| "the id must be a string or an integer".to_owned())?,
            ),
        };
        if let Some(method) = obj.remove("method") {
            let Value::String(method) = method else {
                return Err("the method must be a string".to_owned());
            };
            let params = obj.remove("params");
            return Ok(match id {
                Some(id) => Message::Request { id, method, params },
                None => Message::Notification { method, params },
            });
        }
        if let Some(error) = obj.remove("error") {
            let error = serde_json::from_value::<RpcError>(error)
                .map_err(|e| format!("malformed error object: {e}"))?;
            return Ok(Message::Error { id, error });
        }
        match (id, obj.remove("result")) {
            (Some(id), Some(result)) => Ok(Message::Response { id, result }),
            (None, Some(_)) => Err("a response without an id".to_owned()),
            (_, None) => Err("neither a request, a notification nor a response".to_owned()),
        }
    }
}

/// Builds an outgoing request.
pub fn request(id: &RequestId, method: &str, params: Option<Value>) -> Value {
    let mut obj = Map::new();
    obj.insert("jsonrpc".into(), json!("2.0"));
    obj.insert("id".into(), json!(id));
    obj.insert("method".into(), json!(method));
    if let Some(params) = params {
        obj.insert("params".into(), params);
    }
    Value::Object(obj)
}

/// Builds an outgoing notification.
pub fn notification(method: &str, params: Option<Value>) -> Value {
    let mut obj = Map::new();
    obj.insert("jsonrpc".into(), json!("2.0"));
    obj.insert("method".into(), json!(method));
    if let Some(params) = params {
        obj.insert("params".into(), params);
    }
    Value::Object(obj)
}

/// Builds a successful response.
pub fn response(id: &RequestId, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// Builds the error response that fails request `id` when its transport could not deliver it,
/// with the HTTP status in `data.httpStatus` when there was one.
pub fn transport_failure(id: &RequestId, status: Option<u16>, message: String) -> Value {
    let error = RpcError {
        code: codes::TRANSPORT_ERROR,
        message,
        data: status.map(|s| json!({ "httpStatus": s })),
    };
    error_response(id, &error)
}

/// A transport failure for a request whose response stream broke before the answer: the
/// 2026-07-28 era has no resumable streams, so the peer may send the request again.
pub fn broken_stream(id: &RequestId, message: String) -> Value {
    let error = RpcError {
        code: codes::TRANSPORT_ERROR,
        message,
        data: Some(json!({ "streamBroken": true })),
    };
    error_response(id, &error)
}

/// Builds an error response.
pub fn error_response(id: &RequestId, error: &RpcError) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_each_kind_of_message() {
        let req = Message::from_value(json!({"jsonrpc":"2.0","id":1,"method":"ping"}));
        assert!(matches!(req, Ok(Message::Request { ref method, .. }) if method == "ping"));
        let note =
            Message::from_value(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        assert!(matches!(note, Ok(Message::Notification { .. })));
        let resp = Message::from_value(json!({"jsonrpc":"2.0","id":"a","result":{}}));
        assert!(
            matches!(resp, Ok(Message::Response { id: RequestId::String(ref s), .. }) if s == "a")
        );
        let err = Message::from_value(
            json!({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}}),
        );
        assert!(matches!(
            err,
            Ok(Message::Error {
                error: RpcError { code: -32601, .. },
                ..
            })
        ));
    }

    #[test]
    fn rejects_batches_and_garbage_with_a_reason() {
        let batch = Message::from_value(json!([{"jsonrpc":"2.0","method":"x"}]));
        assert!(
            batch.is_err_and(|e| e.contains("batch")),
            "batches must be named as such"
        );
        assert!(Message::from_value(json!(42)).is_err());
        assert!(Message::from_value(json!({"jsonrpc":"2.0","id":{},"method":"x"})).is_err());
        assert!(Message::from_value(json!({"jsonrpc":"2.0","result":1})).is_err());
    }
}
