//! What the gate decided about a request ([`Decision`]: allowed or not, why, who decided) and
//! how a call through it ended ([`CallOutcome`]).

use gatehouse_mcp::CallToolResult;
use serde_json::Value;

use crate::oversight::policy::{Effect, Verdict};

/// How a call through the gate ended.
#[derive(Debug)]
pub enum CallOutcome {
    /// The server answered (a tool error is an `is_error` result).
    Done(CallToolResult),
    /// The caller gave up; the call was cancelled on the server.
    Cancelled,
}

/// What the gate decided about a request, why, and who decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub allowed: bool,
    /// Why, in words.
    pub reason: String,
    /// The rule that decided, if one did.
    pub rule: Option<String>,
    /// `policy`, `grant`, `person`, `timeout` or `nobody`.
    pub by: &'static str,
    /// What else the audit row keeps (the grant used, the answer's scope, edits).
    pub extra: Value,
    /// A tool call's arguments as the person edited them.
    pub edited: Option<Value>,
}

impl Decision {
    /// The policy's own decision (allow or deny).
    pub(super) fn by_policy(verdict: &Verdict) -> Self {
        Decision {
            allowed: verdict.effect == Effect::Allow,
            reason: verdict.reason.clone(),
            rule: verdict.rule.clone(),
            by: "policy",
            extra: Value::Null,
            edited: None,
        }
    }
}
