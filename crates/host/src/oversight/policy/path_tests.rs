//! Path rules cannot be escaped: every way of writing a path that leaves the tree a rule names
//! (`..`, `./`, `//`, `~`, `%2e%2e` in a `file:` URI, other `file:` forms, a symbolic link out
//! of it, a loop of links) against allow, ask and deny rules, on a real directory tree; and the
//! ways of staying inside it (Windows-style separators are ordinary characters on Unix, a link
//! within the tree) keep working.

use serde_json::{Value, json};

use super::*;
use crate::vocabulary::request::Source;

/// A real tree: `projects/app/`, `secret/key`, `projects/out` → `../secret`, `projects/in` →
/// `app`, `projects/loop` → itself, `linked` → `projects`. Its canonical path.
fn tree() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::create_dir_all(root.join("projects/app")).expect("projects");
    std::fs::create_dir_all(root.join("secret")).expect("secret");
    std::fs::write(root.join("secret/key"), "k").expect("key");
    let link = |target: &str, at: &str| {
        std::os::unix::fs::symlink(target, root.join(at)).expect("link");
    };
    link("../secret", "projects/out");
    link("app", "projects/in");
    link("loop", "projects/loop");
    link("projects", "linked");
    (dir, root.display().to_string())
}

fn path_rule(id: &str, pattern: Pattern, outside: bool, effect: Effect) -> Rule {
    Rule {
        id: id.into(),
        server: Some("fs".into()),
        tool: Some("write_file".into()),
        argument: Some(ArgumentMatch {
            pointer: "/path".into(),
            pattern,
            outside,
        }),
        effect,
        definition_hash: None,
        source: None,
        client: None,
    }
}

fn glob(glob: &str) -> Pattern {
    Pattern::Glob(glob.into())
}

/// The effect and deciding rule for an agent's `write_file` of `path` under `rules`.
fn decide(rules: &[Rule], path: &str) -> (Effect, Option<String>) {
    let arguments = json!({ "path": path, "content": "x" });
    let verdict = evaluate(
        rules,
        &PolicyInput {
            source: Source::Model,
            caller: None,
            server: "fs",
            tool: "write_file",
            arguments: Some(&arguments),
            annotations: &Value::Null,
            definition_hash: None,
            trust_read_only: false,
        },
    );
    (verdict.effect, verdict.rule)
}

/// Values that leave `{root}/projects`, most of them for `{root}/secret`.
fn escaping(root: &str) -> Vec<String> {
    vec![
        format!("{root}/projects/../secret/key"),
        format!("{root}/projects/app/../../secret/key"),
        format!("{root}/projects/./../secret/key"),
        format!("{root}/projects//..//secret/key"),
        format!("{root}/projects/**/../../secret/key"),
        format!("file://{root}/projects/%2e%2e/secret/key"),
        format!("file://{root}/projects/%2E%2E/secret/key"),
        format!("file://localhost{root}/projects/..%2Fsecret/key"),
        format!("file:{root}/projects/../secret/key"),
        format!("{root}/projects/out/key"),
        format!("{root}/projects/out/new.txt"),
        format!("{root}/projects/in/../out/key"),
        format!("{root}/projects/missing/../out/key"),
        format!("{root}/linked/out/key"),
    ]
}

/// Values that cannot be placed at all: each is outside every tree.
fn unplaceable(root: &str) -> Vec<String> {
    vec![
        "../secret/key".into(),
        "./../secret/key".into(),
        "projects/../../secret/key".into(),
        format!("{root}/projects/loop/x"),
        format!("file://attacker.example{root}/projects/app/x"),
        format!("{root}/projects/{}", "a/".repeat(2100)),
    ]
}

/// Values inside `{root}/projects`, however written.
fn inside(root: &str) -> Vec<String> {
    vec![
        format!("{root}/projects/app/x.txt"),
        format!("{root}/projects/./app//x.txt"),
        format!("{root}/projects/app/sub/../x.txt"),
        format!("file://{root}/projects/app/x.txt"),
        format!("file://{root}/projects/app/a%20b.txt"),
        // On Unix a backslash is part of the name: one file inside projects, not an escape.
        format!(r"{root}/projects/a\..\..\secret\key"),
        format!("{root}/projects/in/x.txt"),
    ]
}

#[test]
fn an_allow_rule_is_never_satisfied_by_a_path_that_leaves_its_tree() {
    let (_dir, root) = tree();
    let rules = [path_rule(
        "projects",
        glob(&format!("{root}/projects/**")),
        false,
        Effect::Allow,
    )];
    for value in escaping(&root).into_iter().chain(unplaceable(&root)) {
        assert_eq!(
            decide(&rules, &value),
            (Effect::Ask, None),
            "{value}: not allowed, the default asks"
        );
    }
    for value in inside(&root) {
        assert_eq!(
            decide(&rules, &value),
            (Effect::Allow, Some("projects".into())),
            "{value}"
        );
    }
    // A backslash path relative to nowhere is one name, not under projects.
    assert_eq!(decide(&rules, r"projects\..\secret").1, None);
}

#[test]
fn an_outside_rule_asks_or_denies_every_path_that_leaves_its_tree() {
    let (_dir, root) = tree();
    for effect in [Effect::Ask, Effect::Deny] {
        let rules = [path_rule(
            "outside",
            glob(&format!("{root}/projects/**")),
            true,
            effect,
        )];
        for value in escaping(&root).into_iter().chain(unplaceable(&root)) {
            assert_eq!(
                decide(&rules, &value),
                (effect, Some("outside".into())),
                "{value}"
            );
        }
        for value in inside(&root) {
            assert_eq!(decide(&rules, &value).1, None, "{value}: inside");
        }
    }
}

#[test]
fn a_rule_on_a_tree_meets_every_path_that_reaches_into_it() {
    let (_dir, root) = tree();
    for effect in [Effect::Ask, Effect::Deny] {
        let rules = [path_rule(
            "secret",
            glob(&format!("{root}/secret/**")),
            false,
            effect,
        )];
        for value in escaping(&root).into_iter().chain(unplaceable(&root)) {
            assert_eq!(
                decide(&rules, &value),
                (effect, Some("secret".into())),
                "{value}"
            );
        }
        for value in inside(&root) {
            assert_eq!(decide(&rules, &value).1, None, "{value}: not secret");
        }
    }
}

#[test]
fn the_headline_rule_holds_for_home_and_its_parent() {
    // docs/oversight.md: deny write_file when /path is outside ~/projects/**.
    let headline = [path_rule(
        "home-projects",
        glob("/home/u/projects/**"),
        true,
        Effect::Deny,
    )];
    assert_eq!(
        decide(&headline, "/home/u/projects/../.ssh/authorized_keys"),
        (Effect::Deny, Some("home-projects".into()))
    );
    assert_eq!(
        decide(&headline, "/home/u/projects/site/index.html").1,
        None
    );
    let from_home = [
        "~/projects/../.ssh/authorized_keys",
        "~/projects/./../.ssh/authorized_keys",
        "~/projects//../.ssh/authorized_keys",
        "~",
    ];
    for effect in [Effect::Ask, Effect::Deny] {
        let tilde = [path_rule("tilde", glob("~/projects/**"), true, effect)];
        for value in from_home {
            assert_eq!(
                decide(&tilde, value),
                (effect, Some("tilde".into())),
                "{value}"
            );
        }
    }
    let allowed = [path_rule(
        "tilde",
        glob("~/projects/**"),
        false,
        Effect::Allow,
    )];
    for value in from_home {
        assert_eq!(decide(&allowed, value), (Effect::Ask, None), "{value}");
    }
    assert_eq!(
        decide(&allowed, "~/projects/site/index.html").1,
        Some("tilde".into())
    );
}

#[test]
fn a_regex_rule_sees_the_normalised_path_too() {
    let (_dir, root) = tree();
    let projects = format!("{}/projects/.*", regex::escape(&root));
    let rules = [path_rule(
        "regex",
        Pattern::Regex(projects),
        false,
        Effect::Allow,
    )];
    assert_eq!(
        decide(&rules, &format!("{root}/projects/../secret/key")),
        (Effect::Ask, None)
    );
    assert_eq!(decide(&rules, &format!("{root}/projects/out/key")).1, None);
    assert_eq!(
        decide(&rules, &format!("{root}/projects/app/x")).1,
        Some("regex".into())
    );
}

#[test]
fn values_that_are_not_paths_are_matched_as_written() {
    let rules = [path_rule(
        "site",
        glob("https://example.com/**"),
        false,
        Effect::Allow,
    )];
    assert_eq!(
        decide(&rules, "https://example.com/a//b").1,
        Some("site".into()),
        "a URL is no path: its `//` stays"
    );
    let names = [path_rule("prod", glob("prod-*"), false, Effect::Deny)];
    assert_eq!(decide(&names, "prod-eu").0, Effect::Deny);
}

#[test]
fn a_tree_reached_through_a_link_is_inside_as_written_and_as_resolved() {
    let (_dir, root) = tree();
    // The rule names the link: the link's target is the same tree.
    let linked = [path_rule(
        "linked",
        glob(&format!("{root}/linked/**")),
        false,
        Effect::Allow,
    )];
    for value in [
        format!("{root}/linked/app/x.txt"),
        format!("{root}/projects/app/x.txt"),
    ] {
        assert_eq!(decide(&linked, &value).1, Some("linked".into()), "{value}");
    }
    assert_eq!(decide(&linked, &format!("{root}/linked/out/key")).1, None);
    // The rule names the target: a path written through the link from outside the tree is
    // outside as written, so the rule stays on the safe side.
    let outside = [path_rule(
        "outside",
        glob(&format!("{root}/projects/**")),
        true,
        Effect::Deny,
    )];
    assert_eq!(
        decide(&outside, &format!("{root}/linked/app/x.txt")),
        (Effect::Deny, Some("outside".into()))
    );
}
