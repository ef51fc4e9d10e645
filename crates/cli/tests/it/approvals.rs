//! Approvals in the CLI: a rule that asks about `echo` puts the call to the person at the
//! terminal (under a pseudo-terminal from `script`), whose answer decides it: allowed for some
//! minutes (for any arguments, the default for the person's own call), the grant is listed by
//! `gatehouse grants list` and holds for the next command until it is revoked. Without a terminal, nobody can be asked: the call exits 4, naming the rule
//! that would allow it.

use crate::support::{data_with_everything, exits, ok, ok_json, on_terminal, stderr};

#[test]
fn an_ask_rule_is_answered_at_the_terminal_and_a_timed_grant_holds_until_revoked() {
    let dir = data_with_everything("everything");
    ok(
        dir.path(),
        &["policy", "set", "everything", "--tool", "echo", "ask"],
    );

    let (screen, succeeded) = on_terminal(
        dir.path(),
        r#"call everything echo --args '{"message":"asked first"}'"#,
        "t\n15\n\n",
    );
    assert!(succeeded, "allowed at the terminal: {screen}");
    assert!(
        screen.contains("wants to call `echo`") && screen.contains("asked first"),
        "the call and its arguments are shown: {screen}"
    );
    assert!(
        screen.contains("even for a call started by hand"),
        "why: {screen}"
    );
    assert!(
        screen.contains("Echo: asked first"),
        "the call ran: {screen}"
    );

    let grants = ok_json(dir.path(), &["grants", "list", "--json"]);
    let listed = grants["grants"].as_array().expect("grants");
    assert_eq!(listed.len(), 1, "{grants}");
    assert_eq!(listed[0]["tool"], "echo");
    assert_eq!(listed[0]["scope"], "timed");
    assert_eq!(
        (&listed[0]["source"], &listed[0]["covers"]),
        (&serde_json::json!("user"), &serde_json::json!("any")),
        "Enter took the default for the person's own call asked about by a tool rule: {grants}"
    );
    let id = listed[0]["id"].as_str().expect("id").to_owned();

    // The grant covers the next command, which has no terminal to ask at.
    let covered = ok(
        dir.path(),
        &[
            "call",
            "everything",
            "echo",
            "--args",
            r#"{"message":"covered"}"#,
        ],
    );
    assert!(covered.contains("covered"), "{covered}");

    ok(dir.path(), &["grants", "revoke", &id]);
    let refused = exits(
        dir.path(),
        &[
            "call",
            "everything",
            "echo",
            "--args",
            r#"{"message":"refused"}"#,
        ],
        4,
    );
    let said = stderr(&refused);
    assert!(
        said.contains("nobody can be asked here")
            && said.contains("gatehouse policy set everything --tool echo allow"),
        "the refusal names the rule that would allow it: {said}"
    );
}

#[test]
fn a_denial_at_the_terminal_is_the_calls_denial() {
    let dir = data_with_everything("everything");
    ok(
        dir.path(),
        &["policy", "set", "everything", "--tool", "echo", "ask"],
    );
    let (screen, succeeded) = on_terminal(
        dir.path(),
        r#"call everything echo --args '{"message":"no"}'"#,
        "d\ntoo risky\n",
    );
    assert!(!succeeded, "{screen}");
    assert!(
        screen.contains("denied by the person: too risky"),
        "the reason reaches the requester: {screen}"
    );
    let audit = ok_json(dir.path(), &["audit", "list", "--tool", "echo", "--json"]);
    let answered: Vec<&str> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["detail"]["answeredBy"].as_str())
        .collect();
    assert_eq!(answered, ["person"], "{audit}");
}
