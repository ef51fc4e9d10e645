//! What a person is asked (the approvals queue keeps it, the events carry it): one pending request, held by the engine (not by a window, so a
//! reload of the UI or a second face finds it still waiting), with everything they need to
//! judge it: its server and source, why the policy asks, and the request itself (a tool call
//! with the tool's definition and what changed in it, a sampling request, a form or URL
//! elicitation, or another kind of request).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::vocabulary::request::Source;

/// One changed field of a tool's definition: what it was when the rule was made, and now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct DefinitionChange {
    /// `description`, `inputSchema`, `annotations`, …
    pub field: String,
    /// `null` when the field is new.
    pub before: Value,
    /// `null` when the field is gone.
    pub after: Value,
}

/// What a request asks, as the person sees it. Few exist at once (the queue is bounded), so
/// the size of the tool-call variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Question {
    /// A tool call. `inputSchema` is what edited arguments are checked against.
    #[serde(rename_all = "camelCase")]
    ToolCall {
        tool: String,
        title: Option<String>,
        description: Option<String>,
        /// The server's annotations: hints, shown as badges, never trusted.
        annotations: Value,
        arguments: Value,
        input_schema: Value,
        definition_hash: Option<String>,
        /// What changed in the tool since a rule was made for it (empty when nothing did).
        changes: Vec<DefinitionChange>,
        /// What a grant made here covers unless the person chooses otherwise: these arguments
        /// for a request from anyone but the person, or one an argument rule asks about; any
        /// arguments for the person's own call.
        default_covers: Covers,
        /// Whether "always" is offered: a rule for the tool would decide such a call (not when
        /// a rule for the tool or one of its arguments asks, which a new rule cannot overrule).
        always_offered: bool,
    },
    /// `sampling/createMessage`: the server asks for a model's answer. Until models are
    /// connected, the person writes it (or declines). `params` carries `messages`,
    /// `systemPrompt`, `modelPreferences`, `maxTokens` and any `tools`.
    Sampling { params: Value },
    /// Form elicitation: `message` and the `requestedSchema` of the form.
    #[serde(rename_all = "camelCase")]
    Elicitation {
        message: String,
        requested_schema: Value,
    },
    /// URL elicitation: the server asks the person to open `url`. `domain` is its host, to be
    /// shown prominently; `warnings` name what looks suspicious about it.
    #[serde(rename_all = "camelCase")]
    OpenUrl {
        message: String,
        url: String,
        domain: String,
        warnings: Vec<String>,
    },
    /// A resource read, a prompt get or a completion: the method and what it asks.
    Request { method: String, detail: Value },
}

/// A request waiting for a person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    pub id: String,
    /// The server's name and id.
    pub server: String,
    pub server_id: String,
    pub source: Source,
    /// Which one of its source asks, where it has several: the face a person's request came
    /// through (`cli` for the CLI attached to the engine), the app view, the gateway's client.
    /// `None` for a request made in the app's own window or by a server.
    pub caller: Option<String>,
    /// Why the person is asked (the policy's reason, or what a server's request needs).
    pub reason: String,
    /// The rule that asked, if one did.
    pub rule: Option<String>,
    /// When it was asked and when it is denied unanswered, in milliseconds since the epoch.
    pub asked_at_ms: f64,
    pub expires_at_ms: f64,
    pub question: Question,
}

/// Which calls of its tool a grant covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum Covers {
    /// Only calls with the very arguments the person allowed.
    These,
    /// Calls with any arguments (that the same rule asks about).
    Any,
}
