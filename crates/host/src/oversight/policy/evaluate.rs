//! Deciding a request from the rules, deterministically and most specific first: argument
//! rules, then rules for the tool, then the server's default, then the global default (ask).
//! Within a layer the narrowest applicable rule wins: one for the calling client of the gateway,
//! then one for the request's source, then one for every source. Among rules of the same layer
//! and reach the most restrictive wins (deny, then ask, then allow), and rules of one effect are
//! taken in id order, so the same rules always give the same verdict with the same deciding
//! rule.
//!
//! Annotations are the server's hints, never a bypass: a tool marked `destructiveHint` asks
//! unless a rule for that tool (or one of its arguments) says otherwise, and `readOnlyHint`
//! turns an "ask" into "allow" only where the person trusts that server's read-only hints (and
//! never for a tool that also claims to be destructive). An allow rule made for another
//! definition of the tool than the current one is void (stale): the request asks instead.
//! A request the person starts by hand is its own consent: only a deny rule stops it, and only
//! an ask rule (the person's own wish to be asked) asks about it.
//!
//! A missing or non-scalar argument, or a path that escapes or cannot be resolved, never satisfies
//! an allow rule and always meets a deny or ask rule.

use serde_json::Value;

use super::rule::{Effect, Layer, Rule};
use crate::vocabulary::request::Source;

/// What a request is, as far as the policy is concerned.
#[derive(Debug, Clone)]
pub struct PolicyInput<'a> {
    pub source: Source,
    /// Who within the source asked: the gateway's client (the agent's name), an app's view;
    /// none for a source with one caller.
    pub caller: Option<&'a str>,
    /// The server's id (rules name servers by id, so a renamed server keeps its rules).
    pub server: &'a str,
    pub tool: &'a str,
    pub arguments: Option<&'a Value>,
    /// The tool's `annotations` as the server declared them.
    pub annotations: &'a Value,
    /// The current definition hash of the tool, if it was listed.
    pub definition_hash: Option<&'a str>,
    /// Whether the person trusts this server's `readOnlyHint`.
    pub trust_read_only: bool,
}

/// The decision, the rule that made it (none for a default) and its layer, why, and the rules
/// found void.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub effect: Effect,
    pub rule: Option<String>,
    pub layer: Option<Layer>,
    pub reason: String,
    pub stale: Vec<String>,
}

/// Decides `input` under `rules`. An argument rule on a value that looks like a path reads the
/// filesystem (see [`super::rule`]): with such rules, call it off the async runtime's workers.
pub fn evaluate(rules: &[Rule], input: &PolicyInput<'_>) -> Verdict {
    let concerns = |rule: &&Rule| {
        rule.server.as_deref().is_none_or(|s| s == input.server)
            && rule.tool.as_deref().is_none_or(|t| t == input.tool)
            && rule.concerns_caller(input.source, input.caller)
    };
    let mut stale = Vec::new();
    let mut decided = None;
    for layer in [Layer::Argument, Layer::Tool, Layer::Server, Layer::Global] {
        let mut applicable: Vec<&Rule> = rules
            .iter()
            .filter(concerns)
            .filter(|r| r.layer() == layer && r.applies_to(input.arguments))
            .filter(|r| {
                let void = is_void(r, input.definition_hash);
                if void {
                    stale.push(r.id.clone());
                }
                !void
            })
            .collect();
        applicable.sort_by(|a, b| {
            (b.reach().cmp(&a.reach()))
                .then_with(|| b.effect.cmp(&a.effect))
                .then_with(|| a.id.cmp(&b.id))
        });
        if let Some(rule) = applicable.first() {
            decided = Some((layer, *rule));
            break;
        }
    }
    let mut verdict = match decided {
        Some((layer, rule)) => Verdict {
            effect: rule.effect,
            rule: Some(rule.id.clone()),
            layer: Some(layer),
            reason: format!(
                "{} by rule {} ({}{})",
                rule.effect.as_str(),
                rule.id,
                layer_name(layer),
                rule.client
                    .as_deref()
                    .map(|client| format!(", for the client `{client}`"))
                    .unwrap_or_default()
            ),
            stale: Vec::new(),
        },
        None => Verdict {
            effect: Effect::Ask,
            rule: None,
            layer: None,
            reason: "no rule applies; the default is to ask".into(),
            stale: Vec::new(),
        },
    };
    let specific = matches!(decided, Some((Layer::Argument | Layer::Tool, _)));
    let hint = |name: &str| input.annotations.get(name).and_then(Value::as_bool) == Some(true);
    let destructive = hint("destructiveHint");
    if !specific && destructive && verdict.effect == Effect::Allow {
        verdict.effect = Effect::Ask;
        verdict.reason = format!(
            "`{}` says it is destructive, and no rule for it allows it",
            input.tool
        );
    } else if !specific
        && !destructive
        && hint("readOnlyHint")
        && input.trust_read_only
        && verdict.effect == Effect::Ask
    {
        verdict.effect = Effect::Allow;
        verdict.reason = format!(
            "`{}` says it is read-only, and this server's read-only hints are trusted",
            input.tool
        );
    }
    if !stale.is_empty() && verdict.effect != Effect::Deny {
        verdict.effect = Effect::Ask;
        verdict.reason = format!(
            "the definition of `{}` changed since rule {} allowed it",
            input.tool,
            stale.join(", ")
        );
    }
    // A rule that says "ask" is the person's own wish to be asked, even about what they
    // start themselves; everything else that would ask (the default, hints, a changed
    // definition) is covered by their starting it.
    let asked_by_rule = decided.is_some_and(|(_, rule)| rule.effect == Effect::Ask);
    if input.source == Source::User && verdict.effect != Effect::Deny {
        if asked_by_rule {
            verdict.effect = Effect::Ask;
            verdict.reason = format!("{}, even for a call started by hand", verdict.reason);
        } else {
            verdict.effect = Effect::Allow;
            verdict.reason = "started by the user".into();
        }
    }
    verdict.stale = stale;
    verdict
}

/// An allow rule for a tool made for another definition than the current one.
fn is_void(rule: &Rule, current: Option<&str>) -> bool {
    rule.effect == Effect::Allow
        && rule.tool.is_some()
        && rule
            .definition_hash
            .as_deref()
            .is_some_and(|granted| current != Some(granted))
}

fn layer_name(layer: Layer) -> &'static str {
    match layer {
        Layer::Argument => "an argument rule",
        Layer::Tool => "a rule for the tool",
        Layer::Server => "the server's default",
        Layer::Global => "the global default",
    }
}
