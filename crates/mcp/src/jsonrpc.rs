//! JSON-RPC 2.0 messages as MCP uses them: classification of incoming messages and
//! construction of outgoing ones. Batches are not part of MCP since 2025-06-18 and are refused;
//! the responses one holds are named, so the requests they answer fail at once.
//!
//! An invalid message that still names the id of a response says so (`Invalid::response_to`;
//! for a batch, the id of each response in it), so the request it answers fails instead of
//! timing out. [`recover_id`] finds the id at the start of a line that was cut short.

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
}

/// How much of a malformed message an error quotes.
pub const QUOTE_CHARS: usize = 200;

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

/// Why an incoming message is not valid JSON-RPC, with the message as it came.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// What is wrong, for the log and the error.
    pub problem: String,
    /// The ids of would-be responses (messages without `method`) when they can be read: the
    /// message's own, or for a batch each response's in it, so that the requests they answer
    /// fail at once instead of waiting out their timeouts.
    pub response_to: Vec<RequestId>,
    /// The message itself, untouched (to quote it).
    pub message: Value,
}

impl Message {
    /// Classifies a parsed JSON value.
    pub fn from_value(value: Value) -> Result<Message, Invalid> {
        let invalid = |problem: String, response_to: Option<RequestId>, message: Value| Invalid {
            problem,
            response_to: response_to.into_iter().collect(),
            message,
        };
        let mut obj = match value {
            Value::Object(obj) => obj,
            Value::Array(items) => {
                let response_to = items.iter().filter_map(would_be_response).collect();
                return Err(Invalid {
                    problem: BATCH_REFUSED.to_owned(),
                    response_to,
                    message: Value::Array(items),
                });
            }
            other => {
                let problem = "a JSON-RPC message must be an object".to_owned();
                return Err(invalid(problem, None, other));
            }
        };
        let id = match obj.get("id") {
            None | Some(Value::Null) => None,
            Some(raw) => match RequestId::deserialize(raw) {
                Ok(id) => Some(id),
                Err(_) => {
                    let problem = "the id must be a string or an integer".to_owned();
                    return Err(invalid(problem, None, Value::Object(obj)));
                }
            },
        };
        match obj.get("method") {
            Some(Value::String(_)) => {}
            Some(_) => {
                let problem = "the method must be a string".to_owned();
                return Err(invalid(problem, None, Value::Object(obj)));
            }
            None => {
                if let Some(error) = obj.get("error") {
                    return match RpcError::deserialize(error) {
                        Ok(error) => Ok(Message::Error { id, error }),
                        Err(e) => {
                            let problem = format!("malformed error object: {e}");
                            Err(invalid(problem, id, Value::Object(obj)))
                        }
                    };
                }
                let Some(id) = id else {
                    let problem = if obj.contains_key("result") {
                        "a response without an id"
                    } else {
                        "neither a request, a notification nor a response"
                    };
                    return Err(invalid(problem.to_owned(), None, Value::Object(obj)));
                };
                return match obj.remove("result") {
                    Some(result) => Ok(Message::Response { id, result }),
                    None => {
                        let problem = "neither a result nor an error".to_owned();
                        Err(invalid(problem, Some(id), Value::Object(obj)))
                    }
                };
            }
        }
        let Some(Value::String(method)) = obj.remove("method") else {
            let problem = "the method must be a string".to_owned();
            return Err(invalid(problem, None, Value::Object(obj)));
        };
        let params = obj.remove("params");
        Ok(match id {
            Some(id) => Message::Request { id, method, params },
            None => Message::Notification { method, params },
        })
    }
}

/// Why a batch is refused; the error of each request it answers says so.
pub const BATCH_REFUSED: &str =
    "the server answered in a JSON-RPC batch (an array), which MCP does not allow since 2025-06-18";

/// The id of a message in a batch that would answer a request: an object with an id and no
/// `method`.
fn would_be_response(item: &Value) -> Option<RequestId> {
    let obj = item.as_object()?;
    if obj.contains_key("method") {
        return None;
    }
    RequestId::deserialize(obj.get("id")?).ok()
}

/// The id of the response in `text`, a message that does not parse (a line cut short): the
/// top-level `"id"` member, if the text gets that far and the value is complete. Nothing is
/// recovered from a message with a `method` before its id, which is no response.
pub fn recover_id(text: &str) -> Option<RequestId> {
    use serde::de::IgnoredAny;
    let mut rest = text.trim_start().strip_prefix('{')?;
    loop {
        rest = rest.trim_start();
        let mut keys = serde_json::Deserializer::from_str(rest).into_iter::<String>();
        let key = keys.next()?.ok()?;
        rest = rest[keys.byte_offset()..].trim_start().strip_prefix(':')?;
        match key.as_str() {
            "method" => return None,
            "id" => {
                let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
                let value = values.next()?.ok()?;
                // A number at the very end may have been cut: `12` of `123`.
                let after = rest[values.byte_offset()..].trim_start();
                if after.is_empty() {
                    return None;
                }
                return serde_json::from_value(value).ok();
            }
            _ => {
                let mut skipped =
                    serde_json::Deserializer::from_str(rest).into_iter::<IgnoredAny>();
                skipped.next()?.ok()?;
                rest = rest[skipped.byte_offset()..]
                    .trim_start()
                    .strip_prefix(',')?;
            }
        }
    }
}

/// The start of a message for an error: at most [`QUOTE_CHARS`] characters, `…` if cut.
pub fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
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
            batch.is_err_and(|e| e.problem.contains("batch") && e.response_to.is_empty()),
            "batches must be named as such"
        );
        assert!(Message::from_value(json!(42)).is_err());
        assert!(Message::from_value(json!({"jsonrpc":"2.0","id":{},"method":"x"})).is_err());
        assert!(Message::from_value(json!({"jsonrpc":"2.0","result":1})).is_err());
    }

    #[test]
    fn a_batch_names_the_requests_its_responses_answer() {
        let batch = Message::from_value(json!([
            {"jsonrpc": "2.0", "id": 1, "result": {}},
            {"jsonrpc": "2.0", "id": "b", "error": {"code": -1, "message": "no"}},
            {"jsonrpc": "2.0", "id": 7, "method": "roots/list"},
            {"jsonrpc": "2.0", "id": {}, "result": {}},
            42,
        ]))
        .expect_err("a batch is refused");
        assert_eq!(
            batch.response_to,
            [RequestId::Number(1), RequestId::String("b".into())],
            "each response in it is named, so its request fails at once; a request is no answer"
        );
    }
}
