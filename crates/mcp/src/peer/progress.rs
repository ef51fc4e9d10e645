//! Progress (2025-11-25 basic/utilities/progress): one update as the caller sees it, the
//! `progressToken` a request carries, and the bound on updates waiting to be handled.

use serde_json::{Value, json};

use crate::jsonrpc::RequestId;

/// How many `notifications/progress` updates of one request may wait to be handled; beyond
/// that the server is flooding, and updates are dropped (with a log line).
pub const PROGRESS_QUEUE: usize = 64;

/// One `notifications/progress` update.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

impl Progress {
    pub(super) fn from_params(params: &Value) -> Option<Progress> {
        Some(Progress {
            progress: params.get("progress")?.as_f64()?,
            total: params.get("total").and_then(Value::as_f64),
            message: params
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }
}

/// Progress tokens are compared as their JSON text, so `1` and `"1"` stay distinct.
pub(super) fn progress_key(token: &Value) -> String {
    token.to_string()
}

/// Adds `_meta.progressToken` (the request's own id) to the params.
pub(super) fn with_progress_token(params: Option<Value>, id: &RequestId) -> Value {
    let mut params = match params {
        Some(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let meta = params.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert("progressToken".into(), json!(id));
    }
    Value::Object(params)
}

/// Sends a progress update that waits for room in the caller's channel; pending forever if
/// there is none.
pub(super) async fn held(sink: &mut Option<crate::updates::LatestSink<Progress>>) {
    match sink {
        Some(sink) => sink.send_held().await,
        None => std::future::pending().await,
    }
}
