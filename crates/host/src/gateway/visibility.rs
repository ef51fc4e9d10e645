//! Refusing what a client's profile hides: a tool it would call by its real exposed name, a
//! prompt or resource of a server it does not see. The refusal is a [`HostError::Denied`] whose
//! rule is [`PROFILE_RULE`] (the session turns it into an `isError` result for a call, a
//! JSON-RPC error otherwise) and an audit row: source `gateway`, the client as the caller,
//! decision `deny`, a reason naming the profile and how the person can turn it on.

use serde_json::{Value, json};

use super::profiles::Served;
use crate::error::HostError;
use crate::host::Host;
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::vocabulary::caller_info;

/// The rule a profile's refusal names.
pub const PROFILE_RULE: &str = "profile";

/// What was asked for and the profile hides.
pub struct Hidden<'a> {
    pub server: &'a str,
    /// `tools/call`, `prompts/get`, `resources/read`, `completion/complete`.
    pub method: &'a str,
    pub tool: Option<&'a str>,
    /// What it is, for the reason: "tool `fs__write_file`".
    pub what: String,
    /// The flag that turns it on: `--tool fs/write_file`.
    pub flag: String,
    /// What the request asked (a URI, a prompt's name), for the audit row.
    pub asked: Value,
}

/// Records the refusal and returns the error the agent is answered with.
pub async fn refuse(host: &Host, served: &Served, hidden: Hidden<'_>) -> HostError {
    let reason = format!(
        "{} is not available to this client: {} hides it. The person can turn it on with `{}` (or on the Clients page)",
        hidden.what,
        served.profile_name(),
        served.turn_on(&hidden.flag)
    );
    let mut detail = json!({
        "reason": reason,
        "rule": PROFILE_RULE,
        "answeredBy": "profile",
        "caller": served.client,
        "asked": hidden.asked,
    });
    if let Some(info) = caller_info::current() {
        detail["client_info"] = info;
    }
    let event = AuditEvent {
        kind: AuditKind::Decision,
        server: Some(hidden.server.to_owned()),
        source: Some("gateway".to_owned()),
        method: Some(hidden.method.to_owned()),
        tool: hidden.tool.map(str::to_owned),
        decision: Some("deny".to_owned()),
        detail,
        ..AuditEvent::default()
    };
    if let Err(e) = host.audit().append(event).await {
        tracing::warn!("cannot record a profile's refusal in the audit log: {e}");
    }
    HostError::Denied {
        reason,
        rule: Some(PROFILE_RULE.to_owned()),
    }
}
