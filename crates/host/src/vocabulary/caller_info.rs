//! What a gateway connection said about itself in `initialize` (`clientInfo`: name, version),
//! carried with its requests so that every audit row of them records it (`client_info`). It is
//! what the agent claims, clipped to [`MAX_CHARS`] characters a field, never an identity: the
//! client's identity is its name in Gatehouse (its token, or `gatehouse mcp --client`).
//!
//! The session runs each request's work inside [`scope`]; the gate's audit record reads
//! [`current`]. A task-local, so the gate's request types need not carry it.

use std::future::Future;

use serde_json::{Map, Value};

/// The most characters kept of each `clientInfo` field.
pub const MAX_CHARS: usize = 128;
/// The `clientInfo` fields kept.
const FIELDS: [&str; 3] = ["name", "version", "title"];

tokio::task_local! {
    static CALLER_INFO: Value;
}

/// The `clientInfo` of an `initialize` request's params, clipped; `None` when it has none.
pub fn from_initialize(params: &Value) -> Option<Value> {
    let info = params.get("clientInfo")?.as_object()?;
    let mut kept = Map::new();
    for field in FIELDS {
        if let Some(text) = info.get(field).and_then(Value::as_str) {
            kept.insert(
                field.to_owned(),
                Value::String(text.chars().take(MAX_CHARS).collect()),
            );
        }
    }
    (!kept.is_empty()).then_some(Value::Object(kept))
}

/// Runs `work` with `info` as its caller's `clientInfo` (none: as it is).
pub async fn scope<F: Future>(info: Option<Value>, work: F) -> F::Output {
    match info {
        Some(info) => CALLER_INFO.scope(info, work).await,
        None => work.await,
    }
}

/// The `clientInfo` of the caller whose request runs now, if it gave one.
pub fn current() -> Option<Value> {
    CALLER_INFO.try_with(Value::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn client_info_is_clipped_and_other_fields_dropped() {
        let params = json!({ "clientInfo": {
            "name": "x".repeat(1000), "version": "1.2", "icons": [{ "src": "data:..." }]
        } });
        let info = from_initialize(&params).expect("as expected");
        assert_eq!(info["name"].as_str().expect("as expected").len(), MAX_CHARS);
        assert_eq!(info["version"], "1.2");
        assert!(info.get("icons").is_none());
        assert_eq!(from_initialize(&json!({})), None);
        assert_eq!(from_initialize(&json!({ "clientInfo": 3 })), None);
    }

    #[tokio::test]
    async fn the_info_is_there_inside_the_scope_only() {
        assert_eq!(current(), None);
        let inside = scope(Some(json!({ "name": "a" })), async { current() }).await;
        assert_eq!(inside, Some(json!({ "name": "a" })));
        assert_eq!(scope(None, async { current() }).await, None);
    }
}
