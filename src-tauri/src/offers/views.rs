//! What crosses IPC about a server's resources and prompts: list items, one page of a list, a
//! resource's contents, a prompt filled in, completions and a subscribed resource's update.
//! Everything a server sent is kept as it said it; unknown fields stay on the engine's side.

use gatehouse_host::control::answers::PageReply;
use gatehouse_host::protocol::{
    Completion, GetPromptResult, Prompt, PromptArgument, Resource, ResourceContents,
    ResourceTemplate,
};
use serde::Serialize;
use serde_json::Value;

/// One page of a list and the cursor of the next page ("Load more"), `null` on the last.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ListPage<T> {
    pub items: Vec<T>,
    /// Entries without the expected shape, kept as sent.
    pub malformed: Vec<Value>,
    pub next_cursor: Option<String>,
}

impl<T> ListPage<T> {
    pub fn of<S>(reply: PageReply<S>, view: impl Fn(S) -> T) -> Self {
        ListPage {
            items: reply.items.into_iter().map(view).collect(),
            malformed: reply.malformed,
            next_cursor: reply.next_cursor,
        }
    }
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ResourceItem {
    pub uri: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    /// Bytes, when the server knows.
    pub size: Option<f64>,
}

impl From<Resource> for ResourceItem {
    fn from(r: Resource) -> Self {
        ResourceItem {
            uri: r.uri,
            name: r.name,
            title: r.title,
            description: r.description,
            mime_type: r.mime_type,
            size: r.size.map(|s| s as f64),
        }
    }
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TemplateItem {
    /// An RFC 6570 URI template: `{name}` is a variable.
    pub uri_template: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
}

impl From<ResourceTemplate> for TemplateItem {
    fn from(t: ResourceTemplate) -> Self {
        TemplateItem {
            uri_template: t.uri_template,
            name: t.name,
            title: t.title,
            description: t.description,
            mime_type: t.mime_type,
        }
    }
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct PromptItem {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub arguments: Vec<PromptArgumentItem>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct PromptArgumentItem {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub required: bool,
}

impl From<PromptArgument> for PromptArgumentItem {
    fn from(a: PromptArgument) -> Self {
        PromptArgumentItem {
            name: a.name,
            title: a.title,
            description: a.description,
            required: a.required,
        }
    }
}

impl From<Prompt> for PromptItem {
    fn from(p: Prompt) -> Self {
        PromptItem {
            name: p.name,
            title: p.title,
            description: p.description,
            arguments: p.arguments.into_iter().map(Into::into).collect(),
        }
    }
}

/// One of a resource's contents: `text`, or base64 `blob`.
#[derive(Debug, Clone, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ResourceContentsView {
    pub uri: String,
    pub mime_type: Option<String>,
    pub text: Option<String>,
    pub blob: Option<String>,
}

impl From<ResourceContents> for ResourceContentsView {
    fn from(c: ResourceContents) -> Self {
        ResourceContentsView {
            uri: c.uri,
            mime_type: c.mime_type,
            text: c.text,
            blob: c.blob,
        }
    }
}

/// A prompt filled in: its messages, each content block as MCP spells it (`type`: `text`,
/// `image`, `audio`, `resource`, `resource_link`, or one unknown, kept as sent).
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct PromptView {
    pub description: Option<String>,
    pub messages: Vec<PromptMessageView>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct PromptMessageView {
    pub role: String,
    pub content: Value,
}

impl PromptView {
    pub fn of(result: GetPromptResult) -> Self {
        PromptView {
            description: result.description,
            messages: result
                .messages
                .into_iter()
                .map(|m| PromptMessageView {
                    role: m.role.as_str().to_owned(),
                    content: serde_json::to_value(&m.content).unwrap_or(Value::Null),
                })
                .collect(),
        }
    }
}

/// A server's suggestions for an argument, best first.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CompletionView {
    pub values: Vec<String>,
    pub total: Option<f64>,
    pub has_more: bool,
}

impl From<Completion> for CompletionView {
    fn from(c: Completion) -> Self {
        CompletionView {
            values: c.values,
            total: c.total.map(|t| t as f64),
            has_more: c.has_more,
        }
    }
}

/// A subscribed resource changed (`notifications/resources/updated`). `coalesced` counts the
/// updates this one stands for: updates that come faster than the window is told are merged.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ResourceUpdate {
    pub uri: String,
    pub coalesced: u32,
    /// Whether updates were missed because the engine's queue overflowed.
    pub missed: bool,
}
