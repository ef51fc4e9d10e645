//! The `resultType` of a modern result (2026-07-28 basic/index, "ResultType"): absent means
//! `complete` (earlier servers send none); `input_required` is only an answer to the requests
//! that take multi round-trip input (`tools/call`, `prompts/get`, `resources/read`); `task` is
//! only an answer to `tools/call`, through the tasks extension every modern request declares.
//! "A resultType of any value unrecognized by the client MUST be considered invalid", and so is
//! a known value on a request it cannot answer.
//!
//! The peer applies this to every modern answer it hands back, on every path (lists included),
//! and to the closing result of a long-lived request.

use serde_json::Value;

/// Requests whose result may ask for input (basic/patterns/mrtr).
const TAKES_INPUT: &[&str] = &["tools/call", "prompts/get", "resources/read"];

/// Why `result`, the answer to `method`, has a `resultType` this client cannot accept.
pub fn problem(method: &str, result: &Value) -> Option<String> {
    let kind = match result.get("resultType")? {
        Value::String(kind) => kind.as_str(),
        other => return Some(format!("resultType must be a string, not {other}")),
    };
    let fits = match kind {
        "complete" => true,
        "input_required" => TAKES_INPUT.contains(&method),
        "task" => method == "tools/call",
        unknown => return Some(format!("unknown resultType `{unknown}`")),
    };
    (!fits).then(|| format!("resultType `{kind}` is not an answer this request can have"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepts_known_kinds_where_they_apply_and_nothing_else() {
        let with = |kind: Value| json!({ "resultType": kind });
        assert_eq!(
            problem("tools/list", &json!({"tools": []})),
            None,
            "absent is complete"
        );
        assert_eq!(problem("tools/list", &with(json!("complete"))), None);
        assert_eq!(problem("prompts/get", &with(json!("input_required"))), None);
        assert_eq!(problem("tools/call", &with(json!("task"))), None);
        for (method, kind) in [
            ("tools/list", json!("input_required")),
            ("resources/read", json!("task")),
            ("tools/call", json!("partial")),
            ("tools/call", json!("Complete")),
            ("server/discover", json!(1)),
        ] {
            assert!(
                problem(method, &with(kind.clone())).is_some(),
                "{kind} must be refused as an answer to {method}"
            );
        }
    }
}
