//! Admission: whether a request may go on. The policy decides; what it would ask about is
//! covered by a standing grant, or put to the person through the approval queue, whose answer
//! may edit a tool call's arguments and leave a grant or a rule behind. Every step is on the
//! audit log before anything reaches the server: the request as received, an `ask` row while
//! it waits, and the decision with who made it (the policy, a grant, the person, a timeout, or
//! nobody being there to ask).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use gatehouse_mcp::Tool;
use serde_json::{Value, json};

use super::audit_record::Record;
use super::request::{GateRequest, RequestKind};
use super::snapshot::Snapshot;
use super::{Decision, Gate, Target};
use crate::approvals::{Answer, Asking, Outcome, Question, Scope, changes};
use crate::audit::{AuditEvent, AuditKind};
use crate::error::{HostError, Result};
use crate::policy::{self, Effect, PolicyInput, Rule, Verdict};

/// What admission let through.
pub(super) enum Admitted {
    /// Go on; for a tool call, with the person's edited arguments when they edited them.
    Go {
        record: Record,
        edited: Option<Value>,
    },
    /// The requester gave up while the person was being asked.
    GaveUp(Record),
}

impl Gate {
    /// Decides `request` (for a tool call, `definition` is the tool as last listed) and puts it
    /// and its decision on record. A denied request ends here with [`HostError::Denied`].
    pub(super) async fn admit(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        definition: Option<&Tool>,
        cancel: Pin<&mut impl Future<Output = ()>>,
    ) -> Result<Admitted> {
        let snapshot = self.snapshot(target.server_id).await?;
        self.learn_secrets_of(target.server_id, &snapshot).await?;
        let record = Record::new(request, target.client.transport_kind());
        if let Some(refused) = super::app_visibility::refusal(request, definition) {
            let received = record.received();
            return self.decided(record, request, Some(received), refused).await;
        }
        let verdict = verdict_of(&snapshot, request, target.server_id).await?;
        let decision = match verdict.effect {
            Effect::Allow | Effect::Deny => Decision::by_policy(&verdict),
            Effect::Ask => match self.granted(target, request).await? {
                Some(decision) => decision,
                None if !self.approvals.attended() => {
                    self.answered(target, request, &verdict, Outcome::Unattended)
                        .await?
                }
                None => {
                    self.audit
                        .append_all(vec![record.received(), record.asked(&verdict)])
                        .await?;
                    let asking = Asking {
                        server: target.server.to_owned(),
                        server_id: target.server_id.to_owned(),
                        source: request.source,
                        reason: verdict.reason.clone(),
                        rule: verdict.rule.clone(),
                        question: self.question(target, request, definition, &verdict).await?,
                    };
                    let outcome = tokio::select! {
                        outcome = self.approvals.ask(asking) => outcome,
                        () = cancel => return Ok(Admitted::GaveUp(record)),
                    };
                    let decision = self.answered(target, request, &verdict, outcome).await?;
                    return self.decided(record, request, None, decision).await;
                }
            },
        };
        let received = record.received();
        self.decided(record, request, Some(received), decision)
            .await
    }

    /// Puts the decision on record (after the request as `received`, in one commit, when it is
    /// not on record yet) and lets the request through, or refuses it.
    async fn decided(
        &self,
        record: Record,
        request: &GateRequest,
        received: Option<AuditEvent>,
        decision: Decision,
    ) -> Result<Admitted> {
        let rows = received
            .into_iter()
            .chain([record.decided(&decision)])
            .collect();
        self.audit.append_all(rows).await?;
        if !decision.allowed {
            let what = match request.kind {
                RequestKind::ToolCall { .. } => "the call",
                _ => "the request",
            };
            return Err(HostError::Denied {
                reason: format!("{what} was denied: {}", decision.reason),
                rule: decision.rule,
            });
        }
        Ok(Admitted::Go {
            record,
            edited: decision.edited,
        })
    }

    /// The decision of a standing grant that covers this tool call, if one does.
    async fn granted(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
    ) -> Result<Option<Decision>> {
        let RequestKind::ToolCall {
            tool,
            definition_hash,
            ..
        } = &request.kind
        else {
            return Ok(None);
        };
        let grant = self
            .grants
            .covering(target.server_id, tool, definition_hash.as_deref())
            .await?;
        Ok(grant.map(|grant| Decision {
            allowed: true,
            reason: format!("allowed by grant {}", grant.id),
            rule: None,
            by: "grant",
            extra: json!({ "grant": grant.id }),
            edited: None,
        }))
    }

    /// What the person is shown about `request`.
    async fn question(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        definition: Option<&Tool>,
        verdict: &Verdict,
    ) -> Result<Question> {
        let RequestKind::ToolCall {
            tool,
            arguments,
            annotations,
            definition_hash,
        } = &request.kind
        else {
            return Ok(Question::Request {
                method: request.method().to_owned(),
                detail: Record::asked_detail(&request.kind),
            });
        };
        let current = definition
            .map(|t| serde_json::to_value(t).unwrap_or(Value::Null))
            .unwrap_or(Value::Null);
        let text = |field: &str| {
            current
                .get(field)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Ok(Question::ToolCall {
            tool: tool.clone(),
            title: text("title"),
            description: text("description"),
            annotations: annotations.clone(),
            arguments: arguments.clone().unwrap_or_else(|| json!({})),
            input_schema: current.get("inputSchema").cloned().unwrap_or(Value::Null),
            definition_hash: definition_hash.clone(),
            changes: self
                .changes_since_granted(target.server_id, tool, &verdict.stale, &current)
                .await?,
        })
    }

    /// What changed in the tool since the (now stale) rules allowed it.
    async fn changes_since_granted(
        &self,
        server_id: &str,
        tool: &str,
        stale: &[String],
        current: &Value,
    ) -> Result<Vec<crate::approvals::DefinitionChange>> {
        let Some(first) = stale.first() else {
            return Ok(Vec::new());
        };
        let snapshot = self.snapshot(server_id).await?;
        let granted = snapshot
            .rules
            .iter()
            .find(|r| &r.id == first)
            .and_then(|r| r.definition_hash.clone());
        let Some(granted) = granted else {
            return Ok(Vec::new());
        };
        Ok(
            match self.policy.definition(server_id, tool, &granted).await? {
                Some(before) => changes::definition_changes(&before, current),
                None => Vec::new(),
            },
        )
    }

    /// The decision made of the person's answer (or of there being none), with what it leaves
    /// behind: a grant for the session or a time, or a rule.
    async fn answered(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        verdict: &Verdict,
        outcome: Outcome,
    ) -> Result<Decision> {
        let refused = |reason: String, by: &'static str| Decision {
            allowed: false,
            reason,
            rule: verdict.rule.clone(),
            by,
            extra: Value::Null,
            edited: None,
        };
        let to_allow = allow_hint(target.server, request);
        Ok(match outcome {
            Outcome::Answered(Answer::Allow { scope, arguments }) => {
                let extra = self.keep(target, request, scope).await?;
                Decision {
                    allowed: true,
                    reason: format!("allowed by the person {}", scope.describe()),
                    rule: None,
                    by: "person",
                    extra: json!({ "scope": scope, "kept": extra, "editedArguments": arguments }),
                    edited: arguments,
                }
            }
            Outcome::Answered(Answer::Deny { reason }) => refused(
                match reason.filter(|r| !r.trim().is_empty()) {
                    Some(reason) => format!("denied by the person: {reason}"),
                    None => "denied by the person".into(),
                },
                "person",
            ),
            Outcome::Answered(other) => refused(
                format!("the answer did not fit the request ({other:?})"),
                "person",
            ),
            Outcome::TimedOut(after) => refused(
                format!("nobody answered within {} s; {to_allow}", after.as_secs()),
                "timeout",
            ),
            Outcome::Unattended => refused(
                format!(
                    "{}, and nobody can be asked here (no window, no terminal); {to_allow}",
                    verdict.reason
                ),
                "nobody",
            ),
            Outcome::Full => refused(
                format!(
                    "{} requests already wait for an answer; answer them first",
                    crate::approvals::CAPACITY
                ),
                "nobody",
            ),
        })
    }

    /// Keeps what an "allow" reaches beyond this request: a grant, or a rule (recorded as a
    /// policy change). Returns the grant's or the rule's id.
    async fn keep(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        scope: Scope,
    ) -> Result<Option<String>> {
        let RequestKind::ToolCall {
            tool,
            definition_hash,
            ..
        } = &request.kind
        else {
            return Ok(None);
        };
        let hash = definition_hash.as_deref();
        let minutes = match scope {
            Scope::Once => return Ok(None),
            Scope::For { minutes } => Some(minutes),
            Scope::Session | Scope::Always => None,
        };
        let (id, detail) = if scope == Scope::Always {
            let rule = self
                .policy
                .add(Rule {
                    id: String::new(),
                    server: Some(target.server_id.to_owned()),
                    tool: Some(tool.clone()),
                    argument: None,
                    effect: Effect::Allow,
                    definition_hash: definition_hash.clone(),
                })
                .await?;
            let detail = json!({ "change": "rule added", "server": target.server, "rule": rule });
            (rule.id, detail)
        } else {
            let grant = self
                .grants
                .add(target.server_id, tool, hash, minutes)
                .await?;
            let detail =
                json!({ "change": "grant added", "server": target.server, "grant": grant });
            (grant.id, detail)
        };
        self.audit
            .append(AuditEvent {
                kind: AuditKind::PolicyChange,
                server: Some(target.server.to_owned()),
                source: Some("user".into()),
                tool: Some(tool.clone()),
                detail,
                ..AuditEvent::default()
            })
            .await?;
        Ok(Some(id))
    }
}

/// The policy's verdict on `request` under the rules of `snapshot`. Argument rules read a
/// path-like value on the filesystem (its symbolic links), so where there are any the policy
/// decides on a blocking thread, off the runtime's workers.
async fn verdict_of(
    snapshot: &Arc<Snapshot>,
    request: &GateRequest,
    server_id: &str,
) -> Result<Verdict> {
    if !snapshot.rules.iter().any(|r| r.argument.is_some()) {
        return Ok(decide(snapshot, request, server_id));
    }
    let (snapshot, request, server_id) = (snapshot.clone(), request.clone(), server_id.to_owned());
    tokio::task::spawn_blocking(move || decide(&snapshot, &request, &server_id))
        .await
        .map_err(|e| {
            HostError::io(
                "the policy's decision did not finish",
                std::io::Error::other(e),
            )
        })
}

/// [`verdict_of`], on the calling thread.
fn decide(snapshot: &Snapshot, request: &GateRequest, server_id: &str) -> Verdict {
    let (tool, arguments, annotations, definition_hash) = match &request.kind {
        RequestKind::ToolCall {
            tool,
            arguments,
            annotations,
            definition_hash,
        } => (
            tool.as_str(),
            arguments.as_ref(),
            annotations,
            definition_hash.as_deref(),
        ),
        // Other kinds name no tool: only server and global rules concern them.
        _ => ("", None, &Value::Null, None),
    };
    policy::evaluate(
        &snapshot.rules,
        &PolicyInput {
            source: request.source,
            server: server_id,
            tool,
            arguments,
            annotations,
            definition_hash,
            trust_read_only: snapshot.trust_read_only,
        },
    )
}

/// The command that would allow such a request without asking.
fn allow_hint(server: &str, request: &GateRequest) -> String {
    match request.tool() {
        Some(tool) => {
            format!("to allow it, add a rule: `gatehouse policy set {server} --tool {tool} allow`")
        }
        None => format!("to allow it, add a rule: `gatehouse policy set {server} allow`"),
    }
}
