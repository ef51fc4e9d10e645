//! Prompts (2025-11-25 server/prompts): listing prompt templates with their arguments, and
//! getting one filled in as messages. A message's content is parsed like a tool result's, so an
//! unknown content type is kept raw; a role other than `user`/`assistant` is kept as sent.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::client::Client;
use crate::content::Content;
use crate::error::{McpError, Result};
use crate::types::Page;

/// A prompt as listed by `prompts/list`; `icons` and `_meta` stay in `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub arguments: Vec<PromptArgument>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One argument a prompt takes. Its value is always a string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptArgument {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub required: bool,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// All prompts a server listed.
pub type PromptPage = Page<Prompt>;

/// Who speaks a prompt message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum Role {
    User,
    Assistant,
    /// A role this client does not know, kept as sent.
    Other(String),
}

impl From<String> for Role {
    fn from(role: String) -> Self {
        match role.as_str() {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            _ => Role::Other(role),
        }
    }
}

impl From<Role> for String {
    fn from(role: Role) -> Self {
        role.as_str().to_owned()
    }
}

impl Role {
    pub fn as_str(&self) -> &str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Other(role) => role,
        }
    }
}

/// One message of a filled-in prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromptMessage {
    pub role: Role,
    pub content: Content,
}

/// A prompt filled in with its arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GetPromptResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub messages: Vec<PromptMessage>,
    /// Everything else in the result, `_meta` included.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl GetPromptResult {
    /// Parses a `prompts/get` result. Only a missing `messages` array fails it.
    pub fn parse(raw: Value) -> Result<GetPromptResult> {
        let invalid = |message: &str| McpError::InvalidResponse {
            method: "prompts/get".to_owned(),
            message: message.to_owned(),
        };
        let Value::Object(mut fields) = raw else {
            return Err(invalid("the result is not an object"));
        };
        let Some(Value::Array(raw_messages)) = fields.remove("messages") else {
            return Err(invalid("the result has no `messages` array"));
        };
        let description = match fields.remove("description") {
            Some(Value::String(text)) => Some(text),
            _ => None,
        };
        let messages = raw_messages.into_iter().map(parse_message).collect();
        Ok(GetPromptResult {
            description,
            messages,
            extra: fields,
        })
    }
}

fn parse_message(raw: Value) -> PromptMessage {
    let role = match raw.get("role").and_then(Value::as_str) {
        Some(role) => Role::from(role.to_owned()),
        None => {
            tracing::warn!("a prompt message without a role: {raw}");
            Role::Other(String::new())
        }
    };
    let content = Content::parse(raw.get("content").cloned().unwrap_or(Value::Null));
    PromptMessage { role, content }
}

impl Client {
    /// Lists every prompt, following `nextCursor` until the last page.
    pub async fn list_prompts(&self) -> Result<PromptPage> {
        self.require_capability("prompts", "prompts")?;
        let epoch = self.peer().listed().epoch();
        let page: PromptPage = self.list_all("prompts/list", "prompts", None).await?;
        let names = page.items.iter().map(|p| p.name.clone());
        let listed = self.peer().listed();
        listed.keep(crate::listed::Listing::Prompts, epoch, names);
        Ok(page)
    }

    /// One page of the prompts, from `cursor` (see [`Client::list_page`]).
    pub async fn list_prompts_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<(PromptPage, Option<String>)> {
        self.require_capability("prompts", "prompts")?;
        self.list_page("prompts/list", "prompts", cursor).await
    }

    /// Gets a prompt filled in with `arguments` (prompt arguments are strings).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: &BTreeMap<String, String>,
    ) -> Result<GetPromptResult> {
        self.require_capability("prompts", "prompts")?;
        let mut params = serde_json::Map::new();
        params.insert("name".into(), json!(name));
        if !arguments.is_empty() {
            params.insert("arguments".into(), json!(arguments));
        }
        let options = crate::peer::RequestOptions::new(self.request_timeout());
        let raw = self
            .request_completing_input("prompts/get", params, options)
            .await?;
        GetPromptResult::parse(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::KnownContent;

    #[test]
    fn parses_arguments_and_defaults_required_to_false() {
        let prompt: Prompt = serde_json::from_value(json!({
            "name": "review", "arguments": [{"name": "code", "required": true}, {"name": "style"}],
            "icons": []
        }))
        .expect("a spec prompt parses");
        assert_eq!(prompt.arguments.len(), 2);
        assert!(prompt.arguments[0].required);
        assert!(
            !prompt.arguments[1].required,
            "an argument is optional unless marked"
        );
        let bare: Prompt = serde_json::from_value(json!({"name": "p"})).expect("no arguments");
        assert!(bare.arguments.is_empty());
    }

    #[test]
    fn keeps_every_message_even_odd_ones() {
        let result = GetPromptResult::parse(json!({
            "description": "d",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "hi"}},
                {"role": "assistant", "content": {"type": "resource", "resource": {"uri": "a://1", "text": "x"}}},
                {"role": "narrator", "content": {"type": "hologram"}}
            ],
            "_meta": {"k": 1}
        }))
        .expect("a prompt result");
        assert_eq!(result.description.as_deref(), Some("d"));
        assert_eq!(result.messages.len(), 3, "no message may be dropped");
        assert_eq!(result.messages[0].role, Role::User);
        assert_eq!(result.messages[0].content.as_text(), Some("hi"));
        assert!(matches!(
            result.messages[1].content,
            Content::Known(KnownContent::Resource { .. })
        ));
        assert_eq!(result.messages[2].role, Role::Other("narrator".into()));
        assert!(matches!(result.messages[2].content, Content::Unknown(_)));
        assert!(result.extra.contains_key("_meta"), "_meta survives");
        assert_eq!(
            serde_json::to_value(&result.messages[2].role).ok(),
            Some(json!("narrator")),
            "an unknown role is written back as sent"
        );
        assert!(GetPromptResult::parse(json!({"description": "no messages"})).is_err());
    }
}
