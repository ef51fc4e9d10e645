//! Form elicitation helpers (2025-11-25 client/elicitation; SEP-1034 defaults, SEP-1330 enums).

use serde_json::{Map, Value};

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
