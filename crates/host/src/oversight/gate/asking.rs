//! Putting a request the policy asks about to the person, and holding their answer to what it
//! was given for. The asker (server, source, caller) takes a place in the approval queue first,
//! within its share; then the person sees the request with what a grant would cover. Before a
//! tool call goes on, two things are checked again:
//!
//! - the tool's definition, listed anew: a tool that changed while the person was asked (a
//!   `list_changed` during the wait) is asked about again with what changed, at most
//!   [`MAX_ROUNDS`] times, and one that is gone is refused;
//! - arguments the person edited, against the rules: an edit a deny rule catches is denied.
//!
//! A requester that gives up while it waits (a cancelled call) leaves the queue.

use std::future::Future;
use std::pin::Pin;

use gatehouse_mcp::Tool;
use serde_json::{Value, json};

use super::admission::{Admitted, Asked, verdict_of};
use super::audit_record::Record;
use super::decision::Decision;
use super::standing::Offered;
use super::state::{Gate, Target};
use crate::error::Result;
use crate::oversight::approvals::{Answer, Asker, Asking, Outcome, Question, changes};
use crate::oversight::policy::{Effect, Verdict};
use crate::vocabulary::definition::definition_hash;
use crate::vocabulary::request::{GateRequest, RequestKind};

/// How many times one call is put to the person while its tool keeps changing under it.
pub(super) const MAX_ROUNDS: usize = 3;

/// What became of the tool between the question and the answer.
enum Relisted {
    Same,
    Changed(Box<Tool>),
    Gone,
}

impl Gate {
    /// Asks the person about `asked` and decides by their answer (or its absence); the
    /// request, the `ask` rows and the decision are on record before it returns.
    pub(super) async fn ask_person(
        &self,
        asked: Asked<'_, '_>,
        mut cancel: Pin<&mut impl Future<Output = ()>>,
    ) -> Result<Admitted> {
        let Asked {
            target,
            mut request,
            mut definition,
            mut verdict,
            record,
        } = asked;
        let asker = Asker::new(target.server_id, request.source, request.caller.as_deref());
        let slot = match self.approvals.reserve(asker) {
            Ok(slot) => slot,
            Err(refused) => {
                let offered = Offered::for_ask(request.source, &verdict);
                let decision = self
                    .answered(target, &request, &verdict, refused, offered)
                    .await?;
                let received = record.received();
                return self
                    .decided(record, &request, Some(received), decision)
                    .await;
            }
        };
        self.audit
            .append_all(vec![record.received(), record.asked(&verdict)])
            .await?;
        let mut round = 1;
        // The definition the person was last shown, once the tool changed under a question.
        let mut shown: Option<Value> = None;
        loop {
            let offered = Offered::for_ask(request.source, &verdict);
            let mut question = self
                .question(target, &request, definition.as_ref(), &verdict, offered)
                .await?;
            if let Some(before) = shown.take() {
                since_shown(&mut question, &before, definition.as_ref());
            }
            let asking = Asking {
                server: target.server.to_owned(),
                server_id: target.server_id.to_owned(),
                source: request.source,
                reason: verdict.reason.clone(),
                rule: verdict.rule.clone(),
                question,
            };
            let outcome = tokio::select! {
                outcome = slot.ask(asking, std::future::pending()) => outcome,
                () = cancel.as_mut() => return Ok(Admitted::GaveUp(record)),
            };
            let allowed_with = match &outcome {
                Outcome::Answered(Answer::Allow { arguments, .. }) => Some(arguments.clone()),
                _ => None,
            };
            let (Some(edited), RequestKind::ToolCall { tool, .. }) = (allowed_with, &request.kind)
            else {
                let decision = self
                    .answered(target, &request, &verdict, outcome, offered)
                    .await?;
                return self.decided(record, &request, None, decision).await;
            };
            let tool = tool.clone();
            match self.relisted(target, &request).await {
                Err(e) => {
                    let decision = refusal(
                        format!(
                            "the tools of `{}` could not be listed again to check that `{tool}` \
                             is still what you were shown: {e}",
                            target.server
                        ),
                        "definition",
                    );
                    return self.decided(record, &request, None, decision).await;
                }
                Ok(Relisted::Same) => {}
                Ok(Relisted::Gone) => {
                    let decision = refusal(
                        format!(
                            "`{tool}` changed while you were asked: the server no longer lists it"
                        ),
                        "definition",
                    );
                    return self.decided(record, &request, None, decision).await;
                }
                Ok(Relisted::Changed(now)) => {
                    shown = definition
                        .as_ref()
                        .map(|t| serde_json::to_value(t).unwrap_or(Value::Null));
                    changed_to(&mut request, &now);
                    definition = Some(*now);
                    let snapshot = self.snapshot(target.server_id).await?;
                    let now = verdict_of(&snapshot, &request, target.server_id, None).await?;
                    verdict = self.held_if_paused(&request, now).0;
                    if verdict.effect != Effect::Ask {
                        let decision = Decision::by_policy(&verdict);
                        return self.decided(record, &request, None, decision).await;
                    }
                    if round >= MAX_ROUNDS {
                        let decision = refusal(
                            format!(
                                "`{tool}` changed each of the {MAX_ROUNDS} times you were asked \
                                 about it"
                            ),
                            "definition",
                        );
                        return self.decided(record, &request, None, decision).await;
                    }
                    verdict.reason = format!(
                        "`{tool}` changed while you were asked, so you are asked again ({})",
                        verdict.reason
                    );
                    self.audit.append(record.asked(&verdict)).await?;
                    round += 1;
                    continue;
                }
            }
            if let Some(edited) = &edited {
                let snapshot = self.snapshot(target.server_id).await?;
                let checked =
                    verdict_of(&snapshot, &request, target.server_id, Some(edited)).await?;
                if checked.effect == Effect::Deny {
                    let mut decision = Decision::by_policy(&checked);
                    decision.reason =
                        format!("the edited arguments are denied: {}", checked.reason);
                    decision.extra = json!({ "editedArguments": edited });
                    return self.decided(record, &request, None, decision).await;
                }
            }
            let decision = self
                .answered(target, &request, &verdict, outcome, offered)
                .await?;
            return self.decided(record, &request, None, decision).await;
        }
    }

    /// The tool of the tool call `request`, listed anew now that the person answered (a
    /// `list_changed` during the wait leaves the list to be fetched again; an unchanged,
    /// cached list costs nothing), compared with the definition the person was shown.
    async fn relisted(&self, target: &Target<'_>, request: &GateRequest) -> Result<Relisted> {
        let RequestKind::ToolCall {
            tool,
            definition_hash: shown,
            ..
        } = &request.kind
        else {
            return Ok(Relisted::Same);
        };
        let page = target.client.list_tools().await?;
        self.tools_listed(target.server_id, &page.items).await?;
        let now = page.items.into_iter().find(|t| &t.name == tool);
        Ok(match now {
            None if shown.is_some() => Relisted::Gone,
            None => Relisted::Same,
            Some(now) if Some(definition_hash(&now)) == *shown => Relisted::Same,
            Some(now) => Relisted::Changed(Box::new(now)),
        })
    }

    /// What the person is shown about `request`.
    async fn question(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        definition: Option<&Tool>,
        verdict: &Verdict,
        offered: Offered,
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
                .changes_since_granted(target.server_id, tool, verdict, &current)
                .await?,
            default_covers: offered.covers,
            always_offered: offered.always,
        })
    }

    /// What changed in the tool since the (now stale) rules allowed it, or since the person
    /// was last asked about this call.
    async fn changes_since_granted(
        &self,
        server_id: &str,
        tool: &str,
        verdict: &Verdict,
        current: &Value,
    ) -> Result<Vec<crate::oversight::approvals::DefinitionChange>> {
        let Some(first) = verdict.stale.first() else {
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
}

/// Makes a question about a tool that changed under the previous one show what changed since
/// the definition the person was shown then (`before`).
fn since_shown(question: &mut Question, before: &Value, now: Option<&Tool>) {
    if let Question::ToolCall { changes: shown, .. } = question {
        let now = now
            .map(|t| serde_json::to_value(t).unwrap_or(Value::Null))
            .unwrap_or(Value::Null);
        *shown = changes::definition_changes(before, &now);
    }
}

/// Points the tool call `request` at the tool's new definition `now`.
fn changed_to(request: &mut GateRequest, now: &Tool) {
    if let RequestKind::ToolCall {
        annotations,
        definition_hash: hash,
        ..
    } = &mut request.kind
    {
        *hash = Some(definition_hash(now));
        *annotations = now.extra.get("annotations").cloned().unwrap_or(Value::Null);
    }
}

/// A refusal the gate makes itself (not a rule, not the person).
fn refusal(reason: String, by: &'static str) -> Decision {
    Decision {
        allowed: false,
        reason,
        rule: None,
        by,
        extra: Value::Null,
        edited: None,
    }
}
