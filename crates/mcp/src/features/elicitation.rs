//! Form elicitation helpers (2025-11-25 client/elicitation; SEP-1034 defaults, SEP-1330 enums):
//! [`schema_defaults`] reads a requested schema's defaults; `elicitation_form` turns a form into
//! its fields, one by one.

use serde_json::{Map, Value};

use crate::error::RpcError;
use crate::jsonrpc::codes;

/// The modes this client declares (`elicitation: {form: {}, url: {}}`).
const MODES: &[&str] = &["form", "url"];

/// Refuses an `elicitation/create` request whose `mode` the client did not declare, with
/// `-32602` (2025-11-25 client/elicitation, "Error Handling"). No `mode` means `form`.
pub fn check_mode(params: Option<&Value>) -> Result<(), RpcError> {
    match params.and_then(|p| p.get("mode")) {
        None => Ok(()),
        Some(Value::String(mode)) if MODES.contains(&mode.as_str()) => Ok(()),
        Some(other) => Err(RpcError {
            code: codes::INVALID_PARAMS,
            message: format!(
                "unsupported elicitation mode {other}; this client takes form and url"
            ),
            data: None,
        }),
    }
}

/// The content of an accepted form with no user input: each property's `default` (SEP-1034).
/// Properties without a default are left out, so the server sees them as not given.
pub fn schema_defaults(requested_schema: &Value) -> Map<String, Value> {
    let Some(properties) = requested_schema
        .get("properties")
        .and_then(Value::as_object)
    else {
        return Map::new();
    };
    properties
        .iter()
        .filter_map(|(name, schema)| schema.get("default").map(|d| (name.clone(), d.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_undeclared_mode_is_invalid_params() {
        assert!(check_mode(None).is_ok());
        assert!(
            check_mode(Some(&json!({"message": "m"}))).is_ok(),
            "no mode is form"
        );
        assert!(check_mode(Some(&json!({"mode": "url"}))).is_ok());
        for mode in [json!("voice"), json!(1), json!(null)] {
            let refused = check_mode(Some(&json!({ "mode": mode })));
            assert!(
                refused.as_ref().is_err_and(|e| e.code == -32602),
                "{mode}: an undeclared mode must be refused with -32602: {refused:?}"
            );
        }
    }

    #[test]
    fn takes_every_default_and_nothing_else() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
            "tags": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
            "note": {"type": "string"}
        }});
        let content = schema_defaults(&schema);
        assert_eq!(
            Value::Object(content),
            json!({"name": "John Doe", "age": 30, "status": "active", "tags": ["a"]})
        );
        assert!(
            schema_defaults(&json!({})).is_empty(),
            "no properties, no content"
        );
    }
}
