//! Rules for one client of the gateway: whom they concern, how they rank against rules for a
//! source and for everyone in the same layer, and which are refused when made.

use serde_json::{Value, json};

use super::*;
use crate::vocabulary::request::Source;

fn tool_rule(id: &str, effect: Effect) -> Rule {
    Rule {
        id: id.into(),
        server: Some("fs".into()),
        tool: Some("write".into()),
        argument: None,
        effect,
        definition_hash: None,
        source: None,
        client: None,
    }
}

fn for_client(client: &str, rule: Rule) -> Rule {
    Rule {
        source: Some(Source::Gateway),
        client: Some(client.into()),
        ..rule
    }
}

fn for_source(source: Source, rule: Rule) -> Rule {
    Rule {
        source: Some(source),
        ..rule
    }
}

/// The verdict on `write {path}` from `caller` of `source`.
fn decide(rules: &[Rule], source: Source, caller: Option<&str>, path: &str) -> Verdict {
    evaluate(
        rules,
        &PolicyInput {
            source,
            caller,
            server: "fs",
            tool: "write",
            arguments: Some(&json!({ "path": path })),
            annotations: &Value::Null,
            definition_hash: None,
            trust_read_only: false,
        },
    )
}

fn outcome(verdict: &Verdict) -> (Effect, Option<&str>) {
    (verdict.effect, verdict.rule.as_deref())
}

#[test]
fn a_rule_for_a_client_concerns_that_client_of_the_gateway_alone() {
    let rules = vec![for_client("cursor", tool_rule("cursor", Effect::Deny))];
    let cursor = decide(&rules, Source::Gateway, Some("cursor"), "/p");
    assert_eq!(outcome(&cursor), (Effect::Deny, Some("cursor")));
    assert!(
        cursor.reason.contains("for the client `cursor`"),
        "the reason names the client: {}",
        cursor.reason
    );
    assert_eq!(
        outcome(&decide(&rules, Source::Gateway, Some("claude-code"), "/p")),
        (Effect::Ask, None),
        "another client falls to the default"
    );
    assert_eq!(
        outcome(&decide(&rules, Source::Gateway, None, "/p")),
        (Effect::Ask, None),
        "a gateway request naming no client is not that client's"
    );
    assert_eq!(
        outcome(&decide(&rules, Source::App, Some("cursor"), "/p")),
        (Effect::Ask, None),
        "an app view whose caller id happens to read `cursor` is not the gateway's client"
    );
}

#[test]
fn in_a_layer_a_rule_for_the_client_beats_one_for_the_source_which_beats_one_for_everyone() {
    let everyone = tool_rule("a-everyone", Effect::Deny);
    let gateway = for_source(Source::Gateway, tool_rule("b-gateway", Effect::Allow));
    let claude = for_client("claude-code", tool_rule("c-claude", Effect::Ask));
    let cursor = for_client("cursor", tool_rule("d-cursor", Effect::Allow));
    for rules in [
        vec![
            everyone.clone(),
            gateway.clone(),
            claude.clone(),
            cursor.clone(),
        ],
        vec![cursor, claude, gateway.clone(), everyone.clone()],
    ] {
        let of = |caller| decide(&rules, Source::Gateway, caller, "/p").rule;
        assert_eq!(
            of(Some("claude-code")).as_deref(),
            Some("c-claude"),
            "its own"
        );
        assert_eq!(of(Some("cursor")).as_deref(), Some("d-cursor"), "its own");
        assert_eq!(
            of(Some("zed")).as_deref(),
            Some("b-gateway"),
            "none of its own"
        );
        assert_eq!(
            outcome(&decide(&rules, Source::Model, None, "/p")),
            (Effect::Deny, Some("a-everyone")),
            "another source has only the rule for everyone"
        );
    }
    // Without the rule for the source, a client with no rule of its own meets the one for
    // everyone.
    let rules = vec![
        everyone,
        for_client("cursor", tool_rule("cursor", Effect::Allow)),
    ];
    assert_eq!(
        outcome(&decide(&rules, Source::Gateway, Some("zed"), "/p")),
        (Effect::Deny, Some("a-everyone"))
    );
    assert_eq!(
        outcome(&decide(&rules, Source::Gateway, Some("cursor"), "/p")),
        (Effect::Allow, Some("cursor"))
    );
}

#[test]
fn among_a_clients_own_rules_of_one_layer_the_most_restrictive_wins() {
    let allow = for_client("cursor", tool_rule("a", Effect::Allow));
    let deny = for_client("cursor", tool_rule("b", Effect::Deny));
    for rules in [vec![allow.clone(), deny.clone()], vec![deny, allow]] {
        assert_eq!(
            outcome(&decide(&rules, Source::Gateway, Some("cursor"), "/p")),
            (Effect::Deny, Some("b"))
        );
    }
}

#[test]
fn a_more_specific_layer_still_decides_before_a_clients_rule_of_a_wider_one() {
    let argument = Rule {
        argument: Some(ArgumentMatch {
            pointer: "/path".into(),
            pattern: Pattern::Glob("/etc/**".into()),
            outside: false,
        }),
        ..tool_rule("etc", Effect::Deny)
    };
    let server = for_client(
        "claude-code",
        Rule {
            tool: None,
            ..tool_rule("server", Effect::Allow)
        },
    );
    let tool = for_client("claude-code", tool_rule("tool", Effect::Allow));
    let rules = vec![argument, server, tool];
    assert_eq!(
        outcome(&decide(
            &rules,
            Source::Gateway,
            Some("claude-code"),
            "/etc/x"
        )),
        (Effect::Deny, Some("etc")),
        "an argument rule for everyone is more specific than the client's tool rule"
    );
    assert_eq!(
        outcome(&decide(
            &rules,
            Source::Gateway,
            Some("claude-code"),
            "/home/x"
        )),
        (Effect::Allow, Some("tool"))
    );
}

#[test]
fn claude_code_may_write_under_projects_and_cursor_may_not() {
    let under = |glob: &str, outside| ArgumentMatch {
        pointer: "/path".into(),
        pattern: Pattern::Glob(glob.into()),
        outside,
    };
    let rules = vec![
        for_client(
            "claude-code",
            Rule {
                argument: Some(under("/home/me/projects/**", false)),
                ..tool_rule("claude", Effect::Allow)
            },
        ),
        for_client("cursor", tool_rule("cursor", Effect::Deny)),
    ];
    let claude = |path| decide(&rules, Source::Gateway, Some("claude-code"), path);
    assert_eq!(
        outcome(&claude("/home/me/projects/site/a.txt")),
        (Effect::Allow, Some("claude"))
    );
    assert_eq!(
        outcome(&claude("/home/me/.ssh/config")),
        (Effect::Ask, None),
        "outside the projects, the default"
    );
    assert_eq!(
        outcome(&decide(
            &rules,
            Source::Gateway,
            Some("cursor"),
            "/home/me/projects/site/a.txt"
        )),
        (Effect::Deny, Some("cursor"))
    );
}

#[test]
fn a_rule_for_a_client_is_for_the_gateway_and_names_the_client_plainly() {
    let refused = |rule: Rule, why: &str| {
        let error = rule.validate().expect_err(why);
        assert_eq!(error.code(), crate::ErrorCode::Validation, "{why}: {error}");
        error.to_string()
    };
    let message = refused(
        Rule {
            source: Some(Source::User),
            client: Some("cursor".into()),
            ..tool_rule("r", Effect::Deny)
        },
        "another source",
    );
    assert!(
        message.contains("must be `gateway`, not `user`"),
        "{message}"
    );
    refused(
        Rule {
            client: Some("cursor".into()),
            ..tool_rule("r", Effect::Deny)
        },
        "no source",
    );
    for name in ["", "   ", "tab\there", &"x".repeat(MAX_CLIENT_NAME + 1)] {
        refused(for_client(name, tool_rule("r", Effect::Deny)), name);
    }
    for_client("Claude Code (work)", tool_rule("r", Effect::Deny))
        .validate()
        .expect("a name with spaces and brackets is a name");
}
