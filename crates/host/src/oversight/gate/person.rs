//! Server requests only a person can answer: `sampling/createMessage` (until models are connected,
//! the person writes the assistant's reply or declines) and `elicitation/create` (a form to fill
//! in, or a URL to agree to open). Each is checked against the deny rules of its server and its
//! asker's share of the approval queue ([`crate::oversight::approvals::quota`]), put to the person
//! through the queue, and its decision recorded with who made it. Nobody there to ask, or no answer
//! in time, is a refusal (sampling's error code `-1`, an elicitation's `decline`); a request the
//! server withdraws (its `notifications/cancelled`) leaves the person's screens and is answered
//! with nothing.

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::features::elicitation::check_mode;
use gatehouse_mcp::peer::Withdrawal;
use serde_json::{Value, json};

use super::state::Gate;
use crate::oversight::approvals::{Answer, Asker, Asking, Outcome, Question, site};
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::oversight::policy::{self, Effect, PolicyInput};
use crate::vocabulary::request::Source;

/// The `model` named in a reply the person wrote.
pub const PERSON_MODEL: &str = "gatehouse-person";

/// The key in an unsent error's `data` that says the server withdrew its request (with its
/// reason), and the `error.type` of its outcome on the audit log.
pub const WITHDRAWN: &str = "withdrawn";

/// Whether a method is one the person answers.
pub fn needs_person(method: &str) -> bool {
    matches!(method, "sampling/createMessage" | "elicitation/create")
}

/// The request a server made of the host, with the rows it shares.
pub(super) struct ServerAsk<'a> {
    pub gate: &'a Gate,
    pub server: &'a str,
    pub server_id: &'a str,
    /// The server, or an app it rendered.
    pub source: Source,
    /// The app view that asked, when one did: its own share of the approval queue.
    pub caller: Option<&'a str>,
    pub method: &'a str,
    pub base: &'a AuditEvent,
}

impl ServerAsk<'_> {
    /// Puts the request to the person and makes their answer (or its absence) the result. Once
    /// `withdrawal` comes, the person is no longer asked and the result is an error the
    /// connection does not send.
    pub(super) async fn answer(
        &self,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> Result<Value, RpcError> {
        let sampling = self.method == "sampling/createMessage";
        if !sampling {
            check_mode(params.as_ref())?;
        }
        let params = params.unwrap_or_default();
        let question = question(sampling, &params);
        if let Question::OpenUrl { url, .. } = &question
            && !site::openable(url)
        {
            self.record(
                false,
                "policy",
                "only http and https URLs are opened",
                Value::Null,
            )
            .await?;
            return Ok(json!({ "action": "decline" }));
        }
        if let Some(reason) = self.denied_by_policy().await? {
            return refusal(sampling, &reason);
        }
        let asker = Asker::new(self.server_id, self.source, self.caller);
        let slot = match self.gate.approvals().reserve(asker) {
            Ok(slot) => slot,
            Err(Outcome::Limited(why)) => {
                self.record(false, "rate limit", &why, Value::Null).await?;
                return refusal(sampling, &why);
            }
            Err(_) => {
                let why = "nobody can be asked here (no window, no terminal)";
                self.record(false, "nobody", why, Value::Null).await?;
                return refusal(sampling, why);
            }
        };
        let who = if self.source == Source::App {
            "the server's app"
        } else {
            "the server"
        };
        let reason = if sampling {
            format!("{who} asks for a model's reply, which you write or decline")
        } else {
            format!("{who} asks you for input")
        };
        self.record_row(AuditEvent {
            kind: AuditKind::Decision,
            decision: Some("ask".into()),
            detail: json!({ "reason": reason }),
            ..self.base.clone()
        })
        .await?;
        let asking = Asking {
            server: self.server.to_owned(),
            server_id: self.server_id.to_owned(),
            source: self.source,
            reason: reason.clone(),
            rule: None,
            question,
        };
        let outcome = slot.ask(asking, withdrawal.withdrawn()).await;
        let (allowed, by, why, result) = match outcome {
            Outcome::Answered(Answer::Respond { text }) if sampling => (
                true,
                "person",
                "answered by the person".to_owned(),
                Ok(json!({
                    "role": "assistant",
                    "content": { "type": "text", "text": text },
                    "model": PERSON_MODEL,
                    "stopReason": "endTurn",
                })),
            ),
            Outcome::Answered(Answer::Accept { content }) if !sampling => {
                let mut result = json!({ "action": "accept" });
                if let Some(content) = content {
                    result["content"] = content;
                }
                (
                    true,
                    "person",
                    "accepted by the person".to_owned(),
                    Ok(result),
                )
            }
            Outcome::Answered(Answer::Cancel) => (
                false,
                "person",
                "dismissed by the person".to_owned(),
                Ok(json!({ "action": "cancel" })),
            ),
            Outcome::Answered(Answer::Deny { reason }) => {
                let why = match reason.filter(|r| !r.trim().is_empty()) {
                    Some(reason) => format!("declined by the person: {reason}"),
                    None => "declined by the person".to_owned(),
                };
                (false, "person", why.clone(), refusal(sampling, &why))
            }
            Outcome::Answered(other) => {
                let why = format!("the answer did not fit the request ({other:?})");
                (false, "person", why.clone(), refusal(sampling, &why))
            }
            Outcome::TimedOut(after) => {
                let why = format!("nobody answered within {} s", after.as_secs());
                (false, "timeout", why.clone(), refusal(sampling, &why))
            }
            Outcome::Unattended => {
                let why = "nobody can be asked here (no window, no terminal)".to_owned();
                (false, "nobody", why.clone(), refusal(sampling, &why))
            }
            Outcome::Limited(why) => (false, "rate limit", why.clone(), refusal(sampling, &why)),
            Outcome::Withdrawn(reason) => {
                let why = format!("withdrawn by the server before an answer: {reason}");
                // Never sent: the connection sends nothing for a withdrawn request.
                let error = RpcError {
                    code: gatehouse_mcp::jsonrpc::codes::INTERNAL_ERROR,
                    message: why.clone(),
                    data: Some(json!({ WITHDRAWN: reason })),
                };
                (false, "server", why, Err(error))
            }
        };
        self.record(allowed, by, &why, Value::Null).await?;
        result
    }

    /// Whether a policy rule denies the server's request: the denial recorded and its reason
    /// given; `None` when no rule denies it.
    pub(super) async fn denied_by_policy(&self) -> Result<Option<String>, RpcError> {
        let snapshot = self
            .gate
            .snapshot(self.server_id)
            .await
            .map_err(|e| internal(&e.to_string()))?;
        let verdict = policy::evaluate(
            &snapshot.rules,
            &PolicyInput {
                source: self.source,
                caller: self.caller,
                server: self.server_id,
                tool: "",
                arguments: None,
                annotations: &Value::Null,
                definition_hash: None,
                trust_read_only: false,
            },
        );
        if verdict.effect != Effect::Deny {
            return Ok(None);
        }
        self.record(
            false,
            "policy",
            &verdict.reason,
            json!({ "rule": verdict.rule }),
        )
        .await?;
        Ok(Some(verdict.reason))
    }

    pub(super) async fn record(
        &self,
        allowed: bool,
        by: &str,
        reason: &str,
        extra: Value,
    ) -> Result<(), RpcError> {
        let mut detail = json!({ "reason": reason, "answeredBy": by });
        if let (Value::Object(map), Value::Object(extra)) = (&mut detail, extra) {
            map.extend(extra);
        }
        self.record_row(AuditEvent {
            kind: AuditKind::Decision,
            decision: Some(if allowed { "allow" } else { "deny" }.into()),
            detail,
            ..self.base.clone()
        })
        .await
    }

    async fn record_row(&self, event: AuditEvent) -> Result<(), RpcError> {
        self.gate.audit().append(event).await.map_err(|e| {
            tracing::warn!("refusing `{}`: it cannot be recorded ({e})", self.method);
            internal(&format!(
                "Gatehouse could not record `{}` in its audit log, so it refused it",
                self.method
            ))
        })?;
        Ok(())
    }
}

/// What the person is shown.
fn question(sampling: bool, params: &Value) -> Question {
    if sampling {
        return Question::Sampling {
            params: params.clone(),
        };
    }
    let message = params
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("The server asks for input.")
        .to_owned();
    if params.get("mode").and_then(Value::as_str) == Some("url") {
        let url = params
            .get("url")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let (domain, warnings) = site::describe(&url);
        return Question::OpenUrl {
            message,
            url,
            domain,
            warnings,
        };
    }
    Question::Elicitation {
        message,
        requested_schema: params
            .get("requestedSchema")
            .cloned()
            .unwrap_or_else(|| json!({ "type": "object", "properties": {} })),
    }
}

/// How a refusal reaches the server: a sampling request fails with code -1 (2025-11-25
/// client/sampling, "Error Handling": the user rejected it); an elicitation is declined.
pub(super) fn refusal(sampling: bool, why: &str) -> Result<Value, RpcError> {
    if sampling {
        Err(RpcError {
            code: -1,
            message: format!("the user rejected the sampling request: {why}"),
            data: None,
        })
    } else {
        Ok(json!({ "action": "decline" }))
    }
}

pub(super) fn internal(message: &str) -> RpcError {
    RpcError {
        code: gatehouse_mcp::jsonrpc::codes::INTERNAL_ERROR,
        message: message.to_owned(),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_sampling_request_is_the_users_rejection_and_an_elicitation_is_declined() {
        let sampling = refusal(true, "declined by the person").expect_err("an error");
        assert_eq!(
            sampling.code, -1,
            "2025-11-25 client/sampling: user rejected is -1"
        );
        assert!(sampling.message.contains("declined by the person"));
        assert_eq!(
            refusal(false, "no").expect("a result"),
            json!({ "action": "decline" })
        );
    }
}
