//! Rules for one agent through the real gateway: two Python SDK clients (nobody here wrote it)
//! start `gatehouse mcp` under different names against one engine; the rule for one client
//! denies its call (a result with `isError`, naming the rule), while the other client's own
//! rule lets the same call through, and the audit log says which client each decision was for.

use std::path::Path;

use crate::support::gateway::{StopsTheEngine, fixtures, run_client};
use crate::support::{ok, ok_json};
use serde_json::Value;

/// The Python SDK client as the agent `client`, calling `e__echo {message}` through
/// `gatehouse mcp --client CLIENT`; the call's result.
fn echo_as(data: &Path, client: &str, message: &str) -> Value {
    let call = format!("e__echo={}", serde_json::json!({ "message": message }));
    let python = fixtures().join("python/.venv/bin/python");
    run_client(data, &python, "py_sdk_client.py", client, &[&call], &[])
        .into_iter()
        .find(|line| line["step"] == "call")
        .map(|line| line["value"]["result"].clone())
        .expect("the client printed its call")
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// The id `policy set` printed.
fn added(printed: &str) -> String {
    printed
        .trim()
        .strip_prefix("added rule ")
        .expect("the new rule's id is printed")
        .to_owned()
}

#[test]
fn a_rule_for_one_agent_denies_it_through_the_gateway_while_another_agent_is_allowed() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let deny = added(&ok(
        data,
        &[
            "policy", "set", "e", "--tool", "echo", "--client", "cursor", "deny",
        ],
    ));
    let allow = added(&ok(
        data,
        &[
            "policy",
            "set",
            "e",
            "--tool",
            "echo",
            "--client",
            "claude-code",
            "allow",
        ],
    ));
    let _engine = StopsTheEngine(data);

    let cursor = echo_as(data, "cursor", "from cursor");
    assert_eq!(cursor["isError"], true, "{cursor}");
    let denied = text(&cursor);
    assert!(
        denied.contains("Gatehouse denied `e__echo`") && denied.contains(&deny),
        "the denial names the rule for cursor: {denied}"
    );
    let claude = echo_as(data, "claude-code", "from claude");
    assert_eq!(claude["isError"], false, "{claude}");
    assert_eq!(text(&claude), "Echo: from claude");

    let audit = ok_json(data, &["audit", "list", "--json", "--limit", "200"]);
    // Each request's rows share a correlation: its client is on the row that received it, the
    // decision and its rule on the decision row.
    let rows = audit["rows"].as_array().expect("rows");
    let field = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let decisions: Vec<(String, String, String)> = rows
        .iter()
        .filter(|r| r["kind"] == "decision" && r["source"] == "gateway")
        .map(|decided| {
            let caller = rows
                .iter()
                .find(|r| {
                    r["kind"] == "request_received" && r["correlation"] == decided["correlation"]
                })
                .map(|received| field(&received["detail"]["caller"]))
                .unwrap_or_default();
            (
                caller,
                field(&decided["decision"]),
                field(&decided["detail"]["rule"]),
            )
        })
        .collect();
    for expected in [("cursor", "deny", &deny), ("claude-code", "allow", &allow)] {
        let expected = (
            expected.0.to_owned(),
            expected.1.to_owned(),
            expected.2.clone(),
        );
        assert!(
            decisions.contains(&expected),
            "{expected:?} is on record: {decisions:?}"
        );
    }
}
