//! The server capabilities negotiated in the handshake, and the check each feature runs before
//! it sends a request: "Both parties MUST only use capabilities that were successfully
//! negotiated" (2025-11-25 basic/lifecycle, "Operation"). A feature the server did not declare
//! fails with [`McpError::NotSupported`] without a round trip.

use serde_json::{Map, Value};

use crate::client::Client;
use crate::error::{McpError, Result};

/// Whether `capabilities` declares `path`: a top-level capability (`"resources"`) is declared by
/// its presence; a sub-capability (`"resources.subscribe"`) by the flag `true`, or by an object
/// for nested ones (`"tasks.requests"`).
pub fn declares(capabilities: &Map<String, Value>, path: &str) -> bool {
    let mut parts = path.split('.');
    let Some(first) = parts.next() else {
        return false;
    };
    let Some(mut current) = capabilities.get(first) else {
        return false;
    };
    if current.is_null() {
        return false;
    }
    for part in parts {
        match current.get(part) {
            Some(next @ (Value::Bool(true) | Value::Object(_))) => current = next,
            _ => return false,
        }
    }
    true
}

impl Client {
    /// Whether the server declared `capability` (see [`declares`] for the path syntax).
    pub fn server_declares(&self, capability: &str) -> bool {
        declares(&self.initialize_result().capabilities, capability)
    }

    /// Fails with [`McpError::NotSupported`] unless the server declared `capability`.
    pub(crate) fn require_capability(&self, capability: &str, feature: &str) -> Result<()> {
        if self.server_declares(capability) {
            Ok(())
        } else {
            Err(McpError::NotSupported {
                feature: feature.to_owned(),
                capability: capability.to_owned(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn caps(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    #[test]
    fn a_top_level_capability_is_declared_by_its_presence() {
        let c = caps(json!({"logging": {}, "completions": {}, "prompts": {"listChanged": false}}));
        assert!(
            declares(&c, "logging"),
            "an empty object declares the capability"
        );
        assert!(declares(&c, "prompts"));
        assert!(
            !declares(&c, "resources"),
            "an absent capability is not declared"
        );
        assert!(
            !declares(&caps(json!({"resources": null})), "resources"),
            "null is not a declaration"
        );
    }

    #[test]
    fn a_sub_capability_needs_true_or_an_object() {
        let c = caps(json!({
            "resources": {"subscribe": true, "listChanged": false},
            "tasks": {"requests": {"tools": {"call": {}}}}
        }));
        assert!(declares(&c, "resources.subscribe"));
        assert!(
            !declares(&c, "resources.listChanged"),
            "false must not enable a feature"
        );
        assert!(!declares(&c, "resources.unknown"));
        assert!(
            declares(&c, "tasks.requests.tools.call"),
            "nested objects are followed"
        );
        assert!(!declares(&c, ""), "an empty path names nothing");
    }
}
