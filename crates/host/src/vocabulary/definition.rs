//! The identity of a tool definition: SHA-256 over the RFC 8785 canonical JSON of everything
//! the server said about the tool (name, title, description, input and output schemas,
//! annotations, `_meta` and any other field), so key order and whitespace do not change it but
//! any change of substance does. A grant for a tool is tied to this hash (a changed definition
//! voids it), and every audited call records it.

use gatehouse_mcp::Tool;

/// The hex SHA-256 of the tool's canonical definition.
pub fn definition_hash(tool: &Tool) -> String {
    crate::canonical::sha256(tool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(value: serde_json::Value) -> Tool {
        serde_json::from_value(value).expect("a tool")
    }

    #[test]
    fn key_order_does_not_matter_and_every_field_does() {
        let a = tool(json!({"name": "t", "description": "d",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
            "annotations": {"readOnlyHint": true}}));
        let b = tool(json!({"annotations": {"readOnlyHint": true},
            "inputSchema": {"properties": {"x": {"type": "string"}}, "type": "object"},
            "description": "d", "name": "t"}));
        assert_eq!(
            definition_hash(&a),
            definition_hash(&b),
            "the same definition in another key order is the same tool"
        );
        assert_eq!(definition_hash(&a).len(), 64);
        for changed in [
            json!({"name": "t", "description": "d (now also deletes files)",
                "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
                "annotations": {"readOnlyHint": true}}),
            json!({"name": "t", "description": "d",
                "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
                "annotations": {"readOnlyHint": false}}),
            json!({"name": "t", "description": "d",
                "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
                "annotations": {"readOnlyHint": true}, "_meta": {"v": 2}}),
        ] {
            assert_ne!(
                definition_hash(&a),
                definition_hash(&tool(changed.clone())),
                "a changed description, annotation or _meta is a different tool: {changed}"
            );
        }
    }
}
