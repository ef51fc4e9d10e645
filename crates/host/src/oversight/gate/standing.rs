//! What a person's "allow" leaves standing, and what it covers later. A grant ("for this
//! session", "for a time") answers only the question it was given for: the same tool and
//! definition, the same source (and caller), the same rule asking, and the same arguments
//! (by digest) unless the person chose "any arguments". By default a grant covers these
//! arguments only, except for the person's own call asked about by a rule for the tool, the
//! server or every server, where it covers any. "Always" is a rule for the tool, any
//! arguments, for the source that asked (for the gateway, for the client that asked); it is
//! offered only where such a rule would decide (not when a rule for the tool or one of its
//! arguments asks, which it could not overrule).

use serde_json::{Value, json};

use super::decision::Decision;
use super::state::{Gate, Target};
use crate::error::Result;
use crate::oversight::approvals::Scope;
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::oversight::policy::{Covers, Effect, GrantKey, Layer, Rule, Verdict, arguments_digest};
use crate::vocabulary::request::Source;
use crate::vocabulary::request::{GateRequest, RequestKind};

/// What the person is offered about a tool call the policy asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Offered {
    /// What a grant covers unless the person says otherwise.
    pub covers: Covers,
    /// Whether "always" (a rule) is offered.
    pub always: bool,
}

impl Offered {
    /// The offer for a request from `source` that `verdict` asks about.
    pub(super) fn for_ask(source: Source, verdict: &Verdict) -> Self {
        let by_argument_rule = verdict.layer == Some(Layer::Argument);
        Offered {
            covers: if source == Source::User && !by_argument_rule {
                Covers::Any
            } else {
                Covers::These
            },
            always: !matches!(verdict.layer, Some(Layer::Argument | Layer::Tool)),
        }
    }
}

/// The key of a grant for `request` (a tool call) asked about by `verdict`, covering the
/// arguments whose digest is `arguments` (none: any).
fn key<'a>(
    target: &Target<'a>,
    request: &'a GateRequest,
    verdict: &'a Verdict,
    arguments: Option<&'a str>,
) -> Option<GrantKey<'a>> {
    let RequestKind::ToolCall {
        tool,
        definition_hash,
        ..
    } = &request.kind
    else {
        return None;
    };
    Some(GrantKey {
        server_id: target.server_id,
        tool,
        definition_hash: definition_hash.as_deref(),
        source: request.source,
        caller: request.caller.as_deref(),
        rule: verdict.rule.as_deref(),
        arguments,
    })
}

impl Gate {
    /// The decision of a standing grant that covers this tool call, if one does.
    pub(super) async fn granted(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        verdict: &Verdict,
    ) -> Result<Option<Decision>> {
        let RequestKind::ToolCall { arguments, .. } = &request.kind else {
            return Ok(None);
        };
        let digest = arguments_digest(arguments.as_ref());
        let Some(key) = key(target, request, verdict, Some(&digest)) else {
            return Ok(None);
        };
        let grant = self.grants.covering(&key).await?;
        Ok(grant.map(|grant| Decision {
            allowed: true,
            reason: format!("allowed by grant {}", grant.id),
            rule: None,
            by: "grant",
            extra: json!({ "grant": grant.id }),
            edited: None,
        }))
    }

    /// Keeps what an "allow" reaches beyond this request: a grant covering `covers` (the
    /// arguments `edited`, else those asked, or any), or a rule for the source that asked
    /// (recorded as a policy change). Returns the grant's or the rule's id.
    pub(super) async fn keep(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
        verdict: &Verdict,
        scope: Scope,
        covers: Covers,
        edited: Option<&Value>,
    ) -> Result<Option<String>> {
        let RequestKind::ToolCall {
            tool,
            arguments,
            definition_hash,
            ..
        } = &request.kind
        else {
            return Ok(None);
        };
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
                    source: Some(request.source),
                    // An agent's "always" is that agent's; an app view is gone with its
                    // window, so an app's is for apps.
                    client: request
                        .caller
                        .clone()
                        .filter(|_| request.source == Source::Gateway),
                })
                .await?;
            let detail = json!({ "change": "rule added", "server": target.server, "rule": rule });
            (rule.id, detail)
        } else {
            let digest = match covers {
                Covers::These => Some(arguments_digest(edited.or(arguments.as_ref()))),
                Covers::Any => None,
            };
            let Some(key) = key(target, request, verdict, digest.as_deref()) else {
                return Ok(None);
            };
            let grant = self.grants.add(&key, minutes).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn asked_by(layer: Option<Layer>) -> Verdict {
        Verdict {
            effect: Effect::Ask,
            rule: layer.map(|_| "r-1".to_owned()),
            layer,
            reason: "ask".into(),
            stale: Vec::new(),
        }
    }

    #[test]
    fn a_grant_covers_these_arguments_unless_the_person_asked_about_their_own_call() {
        for source in [Source::App, Source::Server, Source::Model, Source::Gateway] {
            for layer in [
                None,
                Some(Layer::Global),
                Some(Layer::Server),
                Some(Layer::Tool),
            ] {
                assert_eq!(
                    Offered::for_ask(source, &asked_by(layer)).covers,
                    Covers::These,
                    "another source's grant covers only what the person saw ({source:?}, \
                     {layer:?})"
                );
            }
        }
        assert_eq!(
            Offered::for_ask(Source::User, &asked_by(Some(Layer::Tool))).covers,
            Covers::Any,
            "the person's own call, asked about by a rule for the tool"
        );
        assert_eq!(
            Offered::for_ask(Source::User, &asked_by(Some(Layer::Argument))).covers,
            Covers::These,
            "an argument rule's ask is answered for these arguments, even the person's own"
        );
    }

    #[test]
    fn always_is_offered_only_where_a_rule_for_the_tool_would_decide() {
        for layer in [None, Some(Layer::Global), Some(Layer::Server)] {
            assert!(Offered::for_ask(Source::App, &asked_by(layer)).always);
        }
        for layer in [Layer::Tool, Layer::Argument] {
            assert!(
                !Offered::for_ask(Source::App, &asked_by(Some(layer))).always,
                "a rule for the tool cannot overrule an ask rule of {layer:?}"
            );
        }
    }
}
