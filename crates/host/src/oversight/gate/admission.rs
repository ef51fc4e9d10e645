//! Admission: whether a request may go on. The policy decides (for an agent while the agents
//! are paused, what it would let through is asked about: [`super::paused`]); what it would ask about is
//! covered by a standing grant made for the same question ([`super::standing`]), or put to the
//! person through the approval queue ([`super::asking`]), whose answer may edit a tool call's
//! arguments and leave a grant or a rule behind. Every step is on the audit log before
//! anything reaches the server: the request as received, an `ask` row while it waits, and the
//! decision with who made it (the policy, a grant, the person, a timeout, the rate limit, or
//! nobody being there to ask).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use gatehouse_mcp::Tool;
use serde_json::{Value, json};

use super::audit_record::Record;
use super::decision::Decision;
use super::snapshot::Snapshot;
use super::state::{Gate, Target};
use crate::error::{HostError, Result};
use crate::oversight::approvals::{Answer, Outcome};
use crate::oversight::audit::AuditEvent;
use crate::oversight::policy::{self, Effect, PolicyInput, Verdict};
use crate::vocabulary::request::{GateRequest, RequestKind};

/// How many times a request is decided under a policy that changed before its decision was
/// committed, before it fails.
const DECIDE_AGAIN: usize = 8;

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

/// A request the policy asks about, on its way to the person.
pub(super) struct Asked<'t, 'a> {
    pub target: &'t Target<'a>,
    pub request: GateRequest,
    /// The tool as last listed, for a tool call.
    pub definition: Option<Tool>,
    pub verdict: Verdict,
    pub record: Record,
}

impl Gate {
    /// Decides `request` (for a tool call, `definition` is the tool as last listed) and puts it
    /// and its decision on record. A denied request ends here with [`HostError::Denied`].
    ///
    /// The policy kept from an earlier request decides unchecked; its decision is committed only
    /// if nothing that decides requests changed meanwhile (the store's change counter is read in
    /// the commit's own transaction: [`AuditLog::append_all_if_current`]), and is made again
    /// under the policy as it is now otherwise. A person is asked only under a policy checked
    /// current.
    ///
    /// [`AuditLog::append_all_if_current`]: crate::oversight::audit::AuditLog::append_all_if_current
    pub(super) async fn admit(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        definition: Option<&Tool>,
        mut cancel: Pin<&mut impl Future<Output = ()>>,
    ) -> Result<Admitted> {
        let mut snapshot = match self.snapshots.kept(target.server_id) {
            Some(kept) => kept,
            None => self.snapshot(target.server_id).await?,
        };
        for _ in 0..DECIDE_AGAIN {
            let admitted = self
                .admit_under(&snapshot, target, request, definition, cancel.as_mut())
                .await?;
            match admitted {
                Some(admitted) => return Ok(admitted),
                None => snapshot = self.snapshot(target.server_id).await?,
            }
        }
        Err(HostError::AuditWrite(format!(
            "the policy changed {DECIDE_AGAIN} times while the request was being decided; try again"
        )))
    }

    /// [`Gate::admit`] under the policy of `snapshot`; `None` when that policy is no longer
    /// current (nothing was put on record).
    async fn admit_under(
        &self,
        snapshot: &Arc<Snapshot>,
        target: &Target<'_>,
        request: &GateRequest,
        definition: Option<&Tool>,
        cancel: Pin<&mut impl Future<Output = ()>>,
    ) -> Result<Option<Admitted>> {
        self.learn_secrets_of(target.server_id, snapshot).await?;
        let record = Record::new(request, target.client.transport_kind());
        if let Some(refused) = super::app_visibility::refusal(request, definition) {
            let received = record.received();
            return self
                .decided(record, request, Some(received), refused)
                .await
                .map(Some);
        }
        let verdict = verdict_of(snapshot, request, target.server_id, None).await?;
        let (verdict, held) = self.held_if_paused(request, verdict);
        let decision = match verdict.effect {
            Effect::Allow | Effect::Deny => Decision::by_policy(&verdict),
            Effect::Ask => match self.granted_unless(held, target, request, &verdict).await? {
                Some(decision) => decision,
                None if !self.snapshots.is_current(snapshot)? => return Ok(None),
                None => {
                    let asked = Asked {
                        target,
                        request: request.clone(),
                        definition: definition.cloned(),
                        verdict,
                        record,
                    };
                    return self.ask_person(asked, cancel).await.map(Some);
                }
            },
        };
        let rows = vec![record.received(), record.decided(&decision)];
        match self
            .audit
            .append_all_if_current(rows, snapshot.changes)
            .await?
        {
            Some(_) => Self::let_through(record, request, decision).map(Some),
            None => Ok(None),
        }
    }

    /// The standing grant that covers `request`, unless the pause `held` it.
    async fn granted_unless(
        &self,
        held: bool,
        target: &Target<'_>,
        request: &GateRequest,
        verdict: &Verdict,
    ) -> Result<Option<Decision>> {
        if held {
            return Ok(None);
        }
        self.granted(target, request, verdict).await
    }

    /// Puts the decision on record (after the request as `received`, in one commit, when it is
    /// not on record yet) and lets the request through, or refuses it.
    pub(super) async fn decided(
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
        Self::let_through(record, request, decision)
    }

    /// The request let through as `decision` says, once it is on record, or refused.
    fn let_through(record: Record, request: &GateRequest, decision: Decision) -> Result<Admitted> {
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

    /// The decision made of the person's answer (or of there being none), with what it leaves
    /// behind: a grant for the session or a time, or a rule. `sent` is what goes to the
    /// server: the arguments as edited, else as asked.
    pub(super) async fn answered(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        verdict: &Verdict,
        outcome: Outcome,
        defaults: super::standing::Offered,
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
            Outcome::Answered(Answer::Allow {
                scope,
                arguments,
                covers,
            }) => {
                let covers = covers.unwrap_or(defaults.covers);
                let kept = self
                    .keep(target, request, verdict, scope, covers, arguments.as_ref())
                    .await?;
                Decision {
                    allowed: true,
                    reason: format!("allowed by the person {}", scope.describe()),
                    rule: None,
                    by: "person",
                    extra: json!({
                        "scope": scope,
                        "covers": covers,
                        "kept": kept,
                        "editedArguments": arguments,
                    }),
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
            Outcome::Limited(why) => refused(format!("{why}; {to_allow}"), "rate limit"),
            Outcome::Withdrawn(why) => refused(format!("withdrawn: {why}"), "requester"),
        })
    }
}

/// The policy's verdict on `request` under the rules of `snapshot`; for a tool call, with
/// `arguments` instead of the request's when given (edited ones). Argument rules read a
/// path-like value on the filesystem (its symbolic links), so where there are any the policy
/// decides on a blocking thread, off the runtime's workers.
pub(super) async fn verdict_of(
    snapshot: &Arc<Snapshot>,
    request: &GateRequest,
    server_id: &str,
    arguments: Option<&Value>,
) -> Result<Verdict> {
    if !snapshot.rules.iter().any(|r| r.argument.is_some()) {
        return Ok(decide(snapshot, request, server_id, arguments));
    }
    let (snapshot, request, server_id) = (snapshot.clone(), request.clone(), server_id.to_owned());
    let arguments = arguments.cloned();
    tokio::task::spawn_blocking(move || decide(&snapshot, &request, &server_id, arguments.as_ref()))
        .await
        .map_err(|e| {
            HostError::io(
                "the policy's decision did not finish",
                std::io::Error::other(e),
            )
        })
}

/// [`verdict_of`], on the calling thread.
fn decide(
    snapshot: &Snapshot,
    request: &GateRequest,
    server_id: &str,
    arguments: Option<&Value>,
) -> Verdict {
    let (tool, asked, annotations, definition_hash) = match &request.kind {
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
            caller: request.caller.as_deref(),
            server: server_id,
            tool,
            arguments: arguments.or(asked),
            annotations,
            definition_hash,
            trust_read_only: snapshot.trust_read_only,
        },
    )
}

/// The command that would allow such a request without asking: for a client of the gateway,
/// a rule for that client alone.
fn allow_hint(server: &str, request: &GateRequest) -> String {
    use crate::vocabulary::request::Source;
    let source = match (request.source, request.caller.as_deref()) {
        (Source::User, _) => String::new(),
        (Source::Gateway, Some(client)) => format!(" --client {}", shell_word(client)),
        (other, _) => format!(" --source {}", other.as_str()),
    };
    match request.tool() {
        Some(tool) => format!(
            "to allow it, add a rule: `gatehouse policy set {server} --tool {tool}{source} allow`"
        ),
        None => format!("to allow it, add a rule: `gatehouse policy set {server}{source} allow`"),
    }
}

/// `word` as a shell reads it back: as it is when it is plain, else single-quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/@+".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
