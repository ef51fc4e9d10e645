//! What a person answers: allow (once, for the session, for a time, or always, possibly with
//! edited arguments, and for a grant whether it covers these arguments or any), deny with an
//! optional reason, a written response to a sampling request, or an elicitation's form content
//! (accept, or cancel).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::vocabulary::approval::{Covers, Question};

/// How far an "allow" reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Scope {
    /// This request only.
    Once,
    /// This tool (these arguments, or any), from this source, for as long as this Gatehouse
    /// process runs.
    Session,
    /// The same, for the next `minutes` minutes, in every Gatehouse process.
    For { minutes: u32 },
    /// This tool from now on, with any arguments, from this source: a rule is made, tied to the
    /// tool's current definition.
    Always,
}

impl Scope {
    pub fn describe(self) -> String {
        match self {
            Scope::Once => "once".into(),
            Scope::Session => "for this session".into(),
            Scope::For { minutes } => format!("for {minutes} minutes"),
            Scope::Always => "always (a rule was made)".into(),
        }
    }
}

/// An answer to a pending request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Answer {
    /// Let the request go on; a tool call may go on with edited `arguments`, which must match
    /// the tool's `inputSchema`. A grant ("session", "for") covers `covers`: the arguments
    /// allowed, or any; none is the question's `defaultCovers`.
    Allow {
        scope: Scope,
        arguments: Option<Value>,
        #[serde(default)]
        covers: Option<Covers>,
    },
    /// Refuse it; the requester is told, with the reason if one is given.
    Deny { reason: Option<String> },
    /// A sampling request answered by the person: the text of the assistant's message.
    Respond { text: String },
    /// An elicitation accepted: the form's `content` (none for a URL the person agreed to open).
    Accept { content: Option<Value> },
    /// An elicitation dismissed without a choice.
    Cancel,
}

impl Answer {
    /// The answer in a few words, for whoever else showed the request ("allowed once").
    pub fn describe(&self) -> String {
        match self {
            Answer::Allow { scope, .. } => format!("allowed {}", scope.describe()),
            Answer::Deny { .. } => "denied".into(),
            Answer::Respond { .. } => "answered with a reply".into(),
            Answer::Accept { .. } => "accepted".into(),
            Answer::Cancel => "dismissed".into(),
        }
    }
}

/// Who answered, for the audit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnsweredBy {
    /// A person, in the app or at the terminal.
    Person,
    /// Nobody answered in time.
    Timeout,
    /// Nobody can answer here (no window, no terminal).
    Nobody,
}

impl AnsweredBy {
    pub fn as_str(self) -> &'static str {
        match self {
            AnsweredBy::Person => "person",
            AnsweredBy::Timeout => "timeout",
            AnsweredBy::Nobody => "nobody",
        }
    }
}

impl Question {
    /// The answers that make sense for this question.
    pub fn accepts(&self, answer: &Answer) -> bool {
        match (self, answer) {
            (_, Answer::Deny { .. }) => true,
            (Question::ToolCall { always_offered, .. }, Answer::Allow { scope, .. }) => {
                *scope != Scope::Always || *always_offered
            }
            (
                Question::Request { .. },
                Answer::Allow {
                    scope,
                    arguments,
                    covers,
                },
            ) => *scope == Scope::Once && arguments.is_none() && covers.is_none(),
            (Question::Sampling { .. }, Answer::Respond { .. }) => true,
            (Question::Elicitation { .. }, Answer::Accept { content }) => content.is_some(),
            (Question::Elicitation { .. }, Answer::Cancel) => true,
            (Question::OpenUrl { .. }, Answer::Accept { content }) => content.is_none(),
            _ => false,
        }
    }
}
