//! Argument completion (2025-11-25 server/utilities/completion): suggestions for a prompt's
//! argument or a resource template's variable, given what the user typed so far and the
//! arguments already chosen. Needs the server's `completions` capability.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::client::Client;
use crate::error::{McpError, Result};

/// What is being completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionRef {
    /// An argument of the prompt with this name (`ref/prompt`).
    Prompt { name: String },
    /// A variable of the resource template with this URI template (`ref/resource`).
    ResourceTemplate { uri: String },
}

impl CompletionRef {
    /// The reference as sent in `params.ref`.
    pub fn to_json(&self) -> Value {
        match self {
            CompletionRef::Prompt { name } => json!({ "type": "ref/prompt", "name": name }),
            CompletionRef::ResourceTemplate { uri } => {
                json!({ "type": "ref/resource", "uri": uri })
            }
        }
    }
}

/// The server's suggestions, best first (at most 100 by the spec; more are kept if sent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    pub values: Vec<String>,
    /// How many matches exist in all, when the server says.
    #[serde(default)]
    pub total: Option<u64>,
    /// Whether there are more matches than `values`.
    #[serde(default)]
    pub has_more: bool,
}

impl Completion {
    /// Parses a `completion/complete` result.
    pub fn parse(raw: Value) -> Result<Completion> {
        let completion = raw.get("completion").cloned().unwrap_or(Value::Null);
        serde_json::from_value(completion).map_err(|e| McpError::InvalidResponse {
            method: "completion/complete".to_owned(),
            message: format!("`completion` is not a completion result: {e}"),
        })
    }
}

impl Client {
    /// Asks for completions of `argument`, whose current value is `value`. `context` holds the
    /// arguments already resolved, which may narrow the suggestions.
    pub async fn complete(
        &self,
        reference: &CompletionRef,
        argument: &str,
        value: &str,
        context: Option<&BTreeMap<String, String>>,
    ) -> Result<Completion> {
        self.require_capability("completions", "completion")?;
        let mut params = json!({
            "ref": reference.to_json(),
            "argument": { "name": argument, "value": value },
        });
        if let Some(context) = context.filter(|c| !c.is_empty()) {
            params["context"] = json!({ "arguments": context });
        }
        let raw = self
            .peer()
            .request("completion/complete", Some(params), self.request_timeout())
            .await?;
        Completion::parse(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_use_the_spec_type_names() {
        assert_eq!(
            CompletionRef::Prompt { name: "p".into() }.to_json(),
            json!({"type": "ref/prompt", "name": "p"})
        );
        assert_eq!(
            CompletionRef::ResourceTemplate {
                uri: "file:///{path}".into()
            }
            .to_json(),
            json!({"type": "ref/resource", "uri": "file:///{path}"})
        );
    }

    #[test]
    fn total_and_has_more_are_optional() {
        let full = Completion::parse(
            json!({"completion": {"values": ["python", "pytorch"], "total": 10, "hasMore": true}}),
        )
        .expect("a full result");
        assert_eq!(full.values, ["python", "pytorch"]);
        assert_eq!(full.total, Some(10));
        assert!(full.has_more);
        let bare = Completion::parse(json!({"completion": {"values": []}})).expect("bare");
        assert_eq!(bare.total, None);
        assert!(
            !bare.has_more,
            "no hasMore means nothing more, not an error"
        );
        assert!(
            Completion::parse(json!({"values": []})).is_err(),
            "values must be under `completion`"
        );
    }
}
