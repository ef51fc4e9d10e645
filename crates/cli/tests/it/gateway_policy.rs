//! Rules for one agent through the real gateway: two Python SDK clients (nobody here wrote it)
//! start `gatehouse mcp` under different names against one engine; the rule for one client
//! denies its call (a result with `isError`, naming the rule), while the other client's own
//! rule lets the same call through, and the audit log says which client each decision was for.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::support::{ok, ok_json};
use serde_json::Value;

/// The engine `gatehouse mcp` started on the data directory, stopped when the test ends (SIGTERM,
/// a bounded wait, then SIGKILL), even when the test fails before it knows the engine's pid.
struct StopsTheEngine<'a>(&'a Path);

impl Drop for StopsTheEngine<'_> {
    fn drop(&mut self) {
        let Some(pid) = std::fs::read_to_string(self.0.join("engine.json"))
            .ok()
            .and_then(|info| serde_json::from_str::<Value>(&info).ok())
            .and_then(|info| info["pid"].as_i64())
            .and_then(|pid| i32::try_from(pid).ok())
        else {
            return;
        };
        let pid = nix::unistd::Pid::from_raw(pid);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        // A bounded wait for the process to be gone (no panic in a drop).
        let gone = (0..200).any(|_| {
            if nix::sys::signal::kill(pid, None).is_err() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
            false
        });
        if !gone {
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
        }
    }
}

/// The Python SDK client as the agent `client`, calling `e__echo {message}` through
/// `gatehouse mcp --client CLIENT`; the call's result.
fn echo_as(data: &Path, client: &str, message: &str) -> Value {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let call = format!("e__echo={}", serde_json::json!({ "message": message }));
    let output = Command::new(fixtures.join("python/.venv/bin/python"))
        .current_dir(fixtures.join("clients"))
        .args(["py_sdk_client.py", "--call", &call, "--"])
        .arg(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("--data-dir")
        .arg(data)
        .args(["mcp", "--client", client])
        .env_remove("GATEHOUSE_DATA_DIR")
        .output()
        .expect("the client runs");
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "the {client} client failed: {out}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    out.lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("one JSON line per step"))
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
