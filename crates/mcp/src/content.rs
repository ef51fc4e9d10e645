//! Content blocks of tool results and prompt messages (2025-11-25 server/tools, "Tool Result"):
//! text, image, audio, resource links and embedded resources. A block of an unknown type is
//! kept as raw JSON, so a newer server never breaks a result.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The contents of a resource, as read or embedded: text or base64 `blob`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceContents {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One known content block; `annotations` and `_meta` stay in `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum KnownContent {
    Text {
        text: String,
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    Image {
        data: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    Audio {
        data: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    ResourceLink {
        uri: String,
        name: String,
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    Resource {
        resource: ResourceContents,
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
}

/// A content block: a known type, or one this client does not know, kept as sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Content {
    Known(KnownContent),
    Unknown(Value),
}

impl Content {
    /// Parses one block, keeping it raw if it is not a known, well-formed type.
    pub fn parse(value: Value) -> Content {
        match serde_json::from_value::<KnownContent>(value.clone()) {
            Ok(known) => Content::Known(known),
            Err(e) => {
                let kind = value
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_owned();
                tracing::warn!("keeping a content block of type `{kind}` as raw JSON: {e}");
                Content::Unknown(value)
            }
        }
    }

    /// Parses a `content` array; anything but an array is an empty list.
    pub fn parse_all(value: Option<Value>) -> Vec<Content> {
        match value {
            Some(Value::Array(items)) => items.into_iter().map(Content::parse).collect(),
            _ => Vec::new(),
        }
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Known(KnownContent::Text { text, .. }) => Some(text),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_every_known_type_and_keeps_unknown_ones() {
        let blocks = Content::parse_all(Some(json!([
            {"type": "text", "text": "hi", "annotations": {"audience": ["user"]}},
            {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "audio", "data": "AA==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
            {"type": "resource", "resource": {"uri": "file:///b", "text": "b"}},
            {"type": "hologram", "data": 1},
            {"type": "image"}
        ])));
        assert_eq!(blocks.len(), 7, "no block may be dropped");
        assert_eq!(blocks[0].as_text(), Some("hi"));
        assert!(
            matches!(&blocks[0], Content::Known(KnownContent::Text { extra, .. }) if extra.contains_key("annotations"))
        );
        assert!(matches!(
            blocks[3],
            Content::Known(KnownContent::ResourceLink { .. })
        ));
        assert!(
            matches!(&blocks[4], Content::Known(KnownContent::Resource { resource, .. }) if resource.text.as_deref() == Some("b"))
        );
        assert!(
            matches!(blocks[5], Content::Unknown(_)),
            "an unknown type is kept raw"
        );
        assert!(
            matches!(blocks[6], Content::Unknown(_)),
            "a malformed known type is kept raw"
        );
    }
}
