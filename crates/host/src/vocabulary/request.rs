//! What the gate is asked: one type for every request that crosses between Gatehouse and a
//! server, whatever started it. Each carries its source, its server and what it asks for.
//!
//! The kinds are `ToolCall`, `ResourceRead`, `PromptGet` and `Completion`; the sources `user`,
//! `server`, `app`, `model` and `gateway`. The caller within the source, where it has several, is
//! an app view (`view <uuid>`, given by the shell when the view opens, never its token) or, to
//! come, a gateway client.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who started a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// A person, by hand, in the app or the CLI.
    User,
    /// A server, asking the host (sampling, elicitation, roots).
    Server,
    /// An MCP App rendered by the host.
    App,
    /// A chat model.
    Model,
    /// Another agent through the gateway.
    Gateway,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::User => "user",
            Source::Server => "server",
            Source::App => "app",
            Source::Model => "model",
            Source::Gateway => "gateway",
        }
    }

    /// The source named `text` (as [`Source::as_str`] spells it).
    pub fn parse(text: &str) -> Option<Source> {
        [
            Source::User,
            Source::Server,
            Source::App,
            Source::Model,
            Source::Gateway,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// A request of another kind than a tool call, as a caller hands it to the gate.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub kind: RequestKind,
    pub source: Source,
    /// Which one of its source asked, where it has several (an app view; a client through
    /// the gateway): see [`GateRequest::caller`].
    pub caller: Option<String>,
}

/// A tool call as the gate sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub tool: String,
    pub arguments: Option<Value>,
    pub source: Source,
    /// Which one of its source asked, where it has several (an app view; a client through
    /// the gateway): see [`GateRequest::caller`].
    pub caller: Option<String>,
}

/// What a request asks for, with what the gate knows about its target.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestKind {
    ToolCall {
        tool: String,
        arguments: Option<Value>,
        /// The tool's `annotations` as the server declared them (hints, never trusted).
        annotations: Value,
        /// [`super::definition::definition_hash`] of the tool as listed, if it was listed.
        definition_hash: Option<String>,
    },
    /// `resources/read`.
    ResourceRead { uri: String },
    /// `prompts/get`.
    PromptGet { name: String, arguments: Value },
    /// `completion/complete`: suggestions for an argument of a prompt or a template.
    Completion {
        /// The prompt or resource template, as the request's `ref`.
        reference: Value,
        argument: String,
        value: String,
    },
}

/// One request at the gate.
#[derive(Debug, Clone, PartialEq)]
pub struct GateRequest {
    /// Ties together the audit rows of this request.
    pub id: String,
    pub source: Source,
    /// The calling one within `source`, for a source with several: the app view (`view
    /// <token>`), the gateway's clients (to come); none for the others. Grants and the
    /// approval queue's shares are per caller.
    pub caller: Option<String>,
    /// The server's name.
    pub server: String,
    pub kind: RequestKind,
}

impl GateRequest {
    /// The MCP method the request becomes.
    pub fn method(&self) -> &'static str {
        match self.kind {
            RequestKind::ToolCall { .. } => "tools/call",
            RequestKind::ResourceRead { .. } => "resources/read",
            RequestKind::PromptGet { .. } => "prompts/get",
            RequestKind::Completion { .. } => "completion/complete",
        }
    }

    /// What the request is about, for the policy and the audit log: the tool for a tool call
    /// (`gen_ai.tool.name`); nothing for the other kinds, whose target is in their detail.
    pub fn tool(&self) -> Option<&str> {
        match &self.kind {
            RequestKind::ToolCall { tool, .. } => Some(tool),
            _ => None,
        }
    }
}
