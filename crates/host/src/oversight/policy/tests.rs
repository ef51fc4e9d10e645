//! The policy's layers, argument rules, annotation defaults and stale grants.

use serde_json::{Value, json};

use super::*;
use crate::vocabulary::request::Source;

fn rule(id: &str, server: Option<&str>, tool: Option<&str>, effect: Effect) -> Rule {
    Rule {
        id: id.into(),
        server: server.map(str::to_owned),
        tool: tool.map(str::to_owned),
        argument: None,
        effect,
        definition_hash: None,
        source: None,
        client: None,
    }
}

fn argument_rule(id: &str, pointer: &str, pattern: Pattern, outside: bool, effect: Effect) -> Rule {
    Rule {
        argument: Some(ArgumentMatch {
            pointer: pointer.into(),
            pattern,
            outside,
        }),
        ..rule(id, Some("fs"), Some("write"), effect)
    }
}

struct Ask<'a> {
    source: Source,
    tool: &'a str,
    arguments: Value,
    annotations: Value,
    hash: Option<&'a str>,
    trust: bool,
}

impl Default for Ask<'_> {
    fn default() -> Self {
        Self {
            source: Source::Model,
            tool: "write",
            arguments: json!({}),
            annotations: Value::Null,
            hash: Some("h1"),
            trust: false,
        }
    }
}

fn decide(rules: &[Rule], ask: Ask<'_>) -> Verdict {
    evaluate(
        rules,
        &PolicyInput {
            source: ask.source,
            caller: None,
            server: "fs",
            tool: ask.tool,
            arguments: Some(&ask.arguments),
            annotations: &ask.annotations,
            definition_hash: ask.hash,
            trust_read_only: ask.trust,
        },
    )
}

#[test]
fn the_most_specific_layer_decides_and_names_its_rule() {
    let rules = vec![
        rule("global", None, None, Effect::Deny),
        rule("server", Some("fs"), None, Effect::Ask),
        rule("tool", Some("fs"), Some("write"), Effect::Allow),
        argument_rule(
            "tmp",
            "/path",
            Pattern::Glob("/tmp/**".into()),
            false,
            Effect::Deny,
        ),
    ];
    let tmp = decide(
        &rules,
        Ask {
            arguments: json!({"path": "/tmp/x/y"}),
            ..Ask::default()
        },
    );
    assert_eq!(
        (tmp.effect, tmp.rule.as_deref()),
        (Effect::Deny, Some("tmp"))
    );
    let home = decide(
        &rules,
        Ask {
            arguments: json!({"path": "/home/a"}),
            ..Ask::default()
        },
    );
    assert_eq!(
        (home.effect, home.rule.as_deref()),
        (Effect::Allow, Some("tool")),
        "an argument rule that does not match leaves the tool rule to decide"
    );
    let other = decide(
        &rules,
        Ask {
            tool: "read",
            ..Ask::default()
        },
    );
    assert_eq!(
        (other.effect, other.rule.as_deref()),
        (Effect::Ask, Some("server"))
    );
    let elsewhere = evaluate(
        &rules,
        &PolicyInput {
            source: Source::Model,
            caller: None,
            server: "mail",
            tool: "send",
            arguments: None,
            annotations: &Value::Null,
            definition_hash: None,
            trust_read_only: false,
        },
    );
    assert_eq!(
        (elsewhere.effect, elsewhere.rule.as_deref()),
        (Effect::Deny, Some("global"))
    );
    let none = decide(&[], Ask::default());
    assert_eq!(
        (none.effect, none.rule),
        (Effect::Ask, None),
        "the default is to ask"
    );
}

#[test]
fn within_a_layer_the_most_restrictive_rule_wins_whatever_the_order() {
    let a = rule("a", Some("fs"), Some("write"), Effect::Allow);
    let b = rule("b", Some("fs"), Some("write"), Effect::Deny);
    for rules in [vec![a.clone(), b.clone()], vec![b, a]] {
        let verdict = decide(&rules, Ask::default());
        assert_eq!(
            (verdict.effect, verdict.rule.as_deref()),
            (Effect::Deny, Some("b"))
        );
    }
}

#[test]
fn a_rule_with_a_source_concerns_only_that_sources_requests() {
    let for_apps = Rule {
        source: Some(Source::App),
        ..rule("apps", Some("fs"), Some("write"), Effect::Allow)
    };
    let app = decide(
        std::slice::from_ref(&for_apps),
        Ask {
            source: Source::App,
            ..Ask::default()
        },
    );
    assert_eq!(
        (app.effect, app.rule.as_deref(), app.layer),
        (Effect::Allow, Some("apps"), Some(Layer::Tool))
    );
    for source in [Source::Model, Source::Gateway, Source::Server] {
        let other = decide(
            std::slice::from_ref(&for_apps),
            Ask {
                source,
                ..Ask::default()
            },
        );
        assert_eq!(
            (other.effect, other.rule),
            (Effect::Ask, None),
            "an app's \"always\" does not allow {source:?}'s calls"
        );
    }
    let deny_for_models = Rule {
        source: Some(Source::Model),
        ..rule("models", Some("fs"), None, Effect::Deny)
    };
    let person = decide(
        std::slice::from_ref(&deny_for_models),
        Ask {
            source: Source::User,
            ..Ask::default()
        },
    );
    assert_eq!(
        person.effect,
        Effect::Allow,
        "a deny for models leaves the person alone"
    );
}

#[test]
fn argument_rules_match_globs_regexes_and_their_outside() {
    let outside = argument_rule(
        "projects-only",
        "/path",
        Pattern::Glob("~/projects/**".into()),
        true,
        Effect::Deny,
    );
    let home = dirs::home_dir()
        .expect("a home directory")
        .display()
        .to_string();
    let inside = json!({"path": format!("{home}/projects/a/b.txt")});
    let verdict = decide(
        std::slice::from_ref(&outside),
        Ask {
            arguments: inside,
            ..Ask::default()
        },
    );
    assert_eq!(verdict.rule, None, "a path inside the glob is not denied");
    for arguments in [
        json!({"path": "/etc/passwd"}),
        json!({}),
        json!({"path": {"nested": 1}}),
    ] {
        let verdict = decide(
            std::slice::from_ref(&outside),
            Ask {
                arguments: arguments.clone(),
                ..Ask::default()
            },
        );
        assert_eq!(
            verdict.effect,
            Effect::Deny,
            "{arguments}: outside the glob, missing or not a plain value is denied (fail closed)"
        );
    }
    let by_regex = argument_rule(
        "prod",
        "/db/name",
        Pattern::Regex("prod-[a-z]+".into()),
        false,
        Effect::Ask,
    );
    let prod = decide(
        std::slice::from_ref(&by_regex),
        Ask {
            arguments: json!({"db": {"name": "prod-eu"}}),
            ..Ask::default()
        },
    );
    assert_eq!(prod.rule.as_deref(), Some("prod"));
    let not_whole = decide(
        &[by_regex],
        Ask {
            arguments: json!({"db": {"name": "my-prod-eu"}}),
            ..Ask::default()
        },
    );
    assert_eq!(
        not_whole.rule, None,
        "a regex matches the whole value, not a part"
    );
    let allow_missing = argument_rule(
        "ok",
        "/mode",
        Pattern::Glob("safe".into()),
        false,
        Effect::Allow,
    );
    assert_eq!(
        decide(&[allow_missing], Ask::default()).rule,
        None,
        "a missing value allows nothing"
    );
}

#[test]
fn malformed_rules_are_refused_with_a_reason() {
    let cases = [
        (
            argument_rule(
                "g",
                "/p",
                Pattern::Glob("[unclosed".into()),
                false,
                Effect::Deny,
            ),
            "invalid glob",
        ),
        (
            argument_rule("r", "/p", Pattern::Regex("(".into()), false, Effect::Deny),
            "invalid regex",
        ),
        (
            argument_rule("p", "path", Pattern::Glob("*".into()), false, Effect::Deny),
            "not a JSON Pointer",
        ),
        (
            rule("t", None, Some("write"), Effect::Allow),
            "must name its server",
        ),
    ];
    for (rule, why) in cases {
        let error = rule.validate().expect_err("malformed");
        assert!(error.to_string().contains(why), "{}: {error}", rule.id);
    }
}

#[test]
fn annotations_are_hints_never_a_bypass() {
    let read_only = json!({"readOnlyHint": true});
    let trusted = decide(
        &[],
        Ask {
            annotations: read_only.clone(),
            trust: true,
            ..Ask::default()
        },
    );
    assert_eq!(trusted.effect, Effect::Allow, "{}", trusted.reason);
    let untrusted = decide(
        &[],
        Ask {
            annotations: read_only,
            ..Ask::default()
        },
    );
    assert_eq!(
        untrusted.effect,
        Effect::Ask,
        "read-only hints count only where trusted"
    );
    let both = json!({"readOnlyHint": true, "destructiveHint": true});
    let contradictory = decide(
        &[],
        Ask {
            annotations: both.clone(),
            trust: true,
            ..Ask::default()
        },
    );
    assert_eq!(
        contradictory.effect,
        Effect::Ask,
        "a tool claiming to be read-only and destructive still asks"
    );
    let server_allows = [rule("server", Some("fs"), None, Effect::Allow)];
    let destructive = decide(
        &server_allows,
        Ask {
            annotations: both.clone(),
            ..Ask::default()
        },
    );
    assert_eq!(
        destructive.effect,
        Effect::Ask,
        "a server default does not allow a destructive tool"
    );
    let tool_allows = [rule("tool", Some("fs"), Some("write"), Effect::Allow)];
    let explicit = decide(
        &tool_allows,
        Ask {
            annotations: both,
            ..Ask::default()
        },
    );
    assert_eq!(
        explicit.effect,
        Effect::Allow,
        "an explicit rule for the tool does"
    );
    let denied = [rule("server", Some("fs"), None, Effect::Deny)];
    let still_denied = decide(
        &denied,
        Ask {
            annotations: json!({"readOnlyHint": true}),
            trust: true,
            ..Ask::default()
        },
    );
    assert_eq!(
        still_denied.effect,
        Effect::Deny,
        "trust never loosens a deny"
    );
}

#[test]
fn an_allow_granted_for_another_definition_is_stale_and_asks() {
    let granted = Rule {
        definition_hash: Some("h0".into()),
        source: None,
        client: None,
        ..rule("always", Some("fs"), Some("write"), Effect::Allow)
    };
    let verdict = decide(std::slice::from_ref(&granted), Ask::default());
    assert_eq!(verdict.effect, Effect::Ask, "{}", verdict.reason);
    assert_eq!(verdict.stale, ["always"]);
    assert!(verdict.reason.contains("changed"), "{}", verdict.reason);
    let same = decide(
        &[granted],
        Ask {
            hash: Some("h0"),
            ..Ask::default()
        },
    );
    assert_eq!((same.effect, same.stale.len()), (Effect::Allow, 0));
}

#[test]
fn a_persons_own_call_is_consent_but_deny_rules_hold() {
    let user = Ask {
        source: Source::User,
        ..Ask::default()
    };
    assert_eq!(decide(&[], user).effect, Effect::Allow);
    let denied = [rule("no", Some("fs"), Some("write"), Effect::Deny)];
    let verdict = decide(
        &denied,
        Ask {
            source: Source::User,
            ..Ask::default()
        },
    );
    assert_eq!(
        (verdict.effect, verdict.rule.as_deref()),
        (Effect::Deny, Some("no"))
    );
}

#[test]
fn an_ask_rule_asks_even_about_a_persons_own_call() {
    let user = || Ask {
        source: Source::User,
        ..Ask::default()
    };
    let asks = [rule("confirm", Some("fs"), Some("write"), Effect::Ask)];
    let verdict = decide(&asks, user());
    assert_eq!(
        (verdict.effect, verdict.rule.as_deref()),
        (Effect::Ask, Some("confirm")),
        "{}",
        verdict.reason
    );
    // The default (no rule) and a changed definition are covered by starting the call.
    let changed = [Rule {
        definition_hash: Some("old".into()),
        source: None,
        client: None,
        ..rule("granted", Some("fs"), Some("write"), Effect::Allow)
    }];
    assert_eq!(decide(&changed, user()).effect, Effect::Allow);
}
