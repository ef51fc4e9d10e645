//! Spec types that tolerate real servers: unknown fields are kept in `extra`, optional fields
//! default, and one malformed list item is kept as raw JSON instead of failing the whole list
//! ([`Page<T>`](Page), one page of a list).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Name and version of a client or server (`Implementation` in the schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    pub name: String,
    #[serde(default)]
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Implementation {
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            title: None,
            extra: Map::new(),
        }
    }
}

/// The server's answer to `initialize`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    pub protocol_version: String,
    #[serde(default)]
    pub capabilities: Map<String, Value>,
    pub server_info: Implementation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A tool as listed by `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub input_schema: Value,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Every item of a paginated list, across pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Items that did not have the expected shape, kept as sent.
    pub malformed: Vec<Value>,
}

impl<T> Default for Page<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            malformed: Vec::new(),
        }
    }
}

/// All tools a server listed.
pub type ToolPage = Page<Tool>;

impl<T: serde::de::DeserializeOwned> Page<T> {
    /// Adds one result page whose items are under `key`; returns its `nextCursor`, if any.
    pub fn absorb(&mut self, page: Value, key: &str) -> Result<Option<String>, String> {
        let Value::Object(mut page) = page else {
            return Err("the result is not an object".to_owned());
        };
        let items = match page.remove(key) {
            Some(Value::Array(items)) => items,
            Some(_) => return Err(format!("`{key}` is not an array")),
            None => return Err(format!("the result has no `{key}`")),
        };
        for item in items {
            match serde_json::from_value::<T>(item.clone()) {
                Ok(parsed) => self.items.push(parsed),
                Err(e) => {
                    tracing::warn!("keeping a malformed entry of `{key}` as raw JSON: {e}");
                    self.malformed.push(item);
                }
            }
        }
        Ok(match page.remove("nextCursor") {
            Some(Value::String(cursor)) => Some(cursor),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_malformed_tool_does_not_fail_the_list() {
        let mut page = ToolPage::default();
        let next = page.absorb(
            json!({
            "tools": [
                {"name": "ok", "inputSchema": {"type": "object"}, "x-vendor": 1},
                {"name": "no-schema"}
            ],
                "nextCursor": "c2"
            }),
            "tools",
        );
        assert_eq!(next, Ok(Some("c2".to_owned())));
        assert_eq!(page.items.len(), 1, "the valid tool must be kept");
        assert_eq!(
            page.malformed.len(),
            1,
            "the malformed tool must be kept raw, not dropped"
        );
        assert_eq!(
            page.items[0].extra.get("x-vendor"),
            Some(&json!(1)),
            "unknown fields survive"
        );
    }

    #[test]
    fn a_result_without_tools_is_an_error() {
        assert!(ToolPage::default().absorb(json!({}), "tools").is_err());
    }
}
