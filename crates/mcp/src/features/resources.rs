//! Resources (2025-11-25 server/resources): listing resources and resource templates with
//! pagination, reading a resource's text or blob contents, and subscribing to its updates.
//! Every request checks the server's `resources` capability first; subscribing also needs
//! `resources.subscribe`. A resource that does not exist is `McpError::ResourceNotFound`:
//! `-32602` from a server in the 2026-07-28 era, `-32002` from any server.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::client::Client;
use crate::content::ResourceContents;
use crate::error::{McpError, Result};
use crate::jsonrpc::codes;
use crate::listed::Listing;
use crate::types::Page;

/// The code earlier revisions used for a missing resource; still accepted from any server.
const RESOURCE_NOT_FOUND_LEGACY: i64 = -32002;

/// A resource as listed by `resources/list`; `annotations`, `icons` and `_meta` stay in `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    pub uri: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The size in bytes, when the server knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A parameterized resource (an RFC 6570 URI template) as listed by `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    pub uri_template: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// All resources a server listed.
pub type ResourcePage = Page<Resource>;

/// All resource templates a server listed.
pub type ResourceTemplatePage = Page<ResourceTemplate>;

impl Client {
    /// Lists every resource, following `nextCursor` until the last page.
    pub async fn list_resources(&self) -> Result<ResourcePage> {
        self.require_capability("resources", "resources")?;
        let epoch = self.peer().listed().epoch();
        let page: ResourcePage = self.list_all("resources/list", "resources", None).await?;
        let uris = page.items.iter().map(|r| r.uri.clone());
        self.peer().listed().keep(Listing::Resources, epoch, uris);
        Ok(page)
    }

    /// Lists every resource template, following `nextCursor` until the last page.
    pub async fn list_resource_templates(&self) -> Result<ResourceTemplatePage> {
        self.require_capability("resources", "resource templates")?;
        let epoch = self.peer().listed().epoch();
        let page: ResourceTemplatePage = self
            .list_all("resources/templates/list", "resourceTemplates", None)
            .await?;
        let uris = page.items.iter().map(|t| t.uri_template.clone());
        self.peer().listed().keep(Listing::Templates, epoch, uris);
        Ok(page)
    }

    /// One page of the resources, from `cursor` (see [`Client::list_page`]).
    pub async fn list_resources_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<(ResourcePage, Option<String>)> {
        self.require_capability("resources", "resources")?;
        self.list_page("resources/list", "resources", cursor).await
    }

    /// One page of the resource templates, from `cursor` (see [`Client::list_page`]).
    pub async fn list_resource_templates_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<(ResourceTemplatePage, Option<String>)> {
        self.require_capability("resources", "resource templates")?;
        self.list_page("resources/templates/list", "resourceTemplates", cursor)
            .await
    }

    /// Reads a resource. A server may answer with several contents (a directory's files, say).
    /// An entry without the shape of resource contents is skipped with a warning.
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<ResourceContents>> {
        self.require_capability("resources", "reading resources")?;
        let mut params = serde_json::Map::new();
        params.insert("uri".into(), json!(uri));
        let options = crate::peer::RequestOptions::new(self.request_timeout());
        let raw = self
            .request_completing_input("resources/read", params, options)
            .await
            .map_err(|e| match e {
                McpError::Rpc { error, .. }
                    if error.code == RESOURCE_NOT_FOUND_LEGACY
                        || (error.code == codes::INVALID_PARAMS
                            && self.era() == crate::era::Era::Modern) =>
                {
                    McpError::ResourceNotFound {
                        uri: uri.to_owned(),
                        message: error.message,
                    }
                }
                other => other,
            })?;
        parse_contents(raw)
    }

    /// Asks for `notifications/resources/updated` when the resource changes.
    pub async fn subscribe(&self, uri: &str) -> Result<()> {
        self.require_capability("resources.subscribe", "resource subscriptions")?;
        self.peer()
            .request(
                "resources/subscribe",
                Some(json!({ "uri": uri })),
                self.request_timeout(),
            )
            .await
            .map(drop)
    }

    /// Stops the updates asked for with [`Client::subscribe`].
    pub async fn unsubscribe(&self, uri: &str) -> Result<()> {
        self.require_capability("resources.subscribe", "resource subscriptions")?;
        self.peer()
            .request(
                "resources/unsubscribe",
                Some(json!({ "uri": uri })),
                self.request_timeout(),
            )
            .await
            .map(drop)
    }
}

/// The `contents` of a `resources/read` result.
fn parse_contents(raw: Value) -> Result<Vec<ResourceContents>> {
    let invalid = |message: &str| McpError::InvalidResponse {
        method: "resources/read".to_owned(),
        message: message.to_owned(),
    };
    let Some(items) = raw.get("contents") else {
        return Err(invalid("the result has no `contents`"));
    };
    let Value::Array(items) = items else {
        return Err(invalid("`contents` is not an array"));
    };
    let mut contents = Vec::with_capacity(items.len());
    for item in items {
        match serde_json::from_value::<ResourceContents>(item.clone()) {
            Ok(parsed) => contents.push(parsed),
            Err(e) => tracing::warn!("skipping malformed resource contents {item}: {e}"),
        }
    }
    Ok(contents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_unknown_resource_fields_and_tolerates_missing_optional_ones() {
        let resource: Resource = serde_json::from_value(json!({
            "uri": "file:///a.md", "name": "a.md", "mimeType": "text/markdown", "size": 12,
            "annotations": {"audience": ["user"], "priority": 0.5}, "icons": []
        }))
        .expect("a spec resource parses");
        assert_eq!(resource.mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(resource.size, Some(12));
        assert!(
            resource.extra.contains_key("annotations") && resource.extra.contains_key("icons"),
            "annotations and icons must survive for the UI"
        );
        let template: ResourceTemplate =
            serde_json::from_value(json!({"uriTemplate": "file:///{path}", "name": "files"}))
                .expect("a minimal template parses");
        assert_eq!(template.uri_template, "file:///{path}");
    }

    #[test]
    fn reads_text_and_blob_contents_and_skips_malformed_ones() {
        let contents = parse_contents(json!({"contents": [
            {"uri": "a://1", "mimeType": "text/plain", "text": "hi"},
            {"uri": "a://2", "blob": "AAE="},
            {"text": "no uri"}
        ]}))
        .expect("a result with contents");
        assert_eq!(contents.len(), 2, "the entry without a uri is skipped");
        assert_eq!(contents[0].text.as_deref(), Some("hi"));
        assert_eq!(contents[1].blob.as_deref(), Some("AAE="));
        assert!(
            parse_contents(json!({})).is_err(),
            "a result without contents is not a read result"
        );
    }
}
