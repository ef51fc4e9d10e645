//! What the gateway tests share: the engine `gatehouse mcp` starts on its own (stopped when a test
//! ends), and a real SDK client run as an agent against `gatehouse mcp --client NAME`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

/// tests/fixtures, where the servers and the client scripts are.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Whatever engine runs on the data directory when the test ends (the one `gatehouse mcp`
/// started), stopped with SIGTERM and waited for (at most 10 s, then SIGKILL), even when the
/// test fails before it knows the engine's pid.
pub struct StopsTheEngine<'a>(pub &'a Path);

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

/// Runs a client script that starts `gatehouse mcp --client NAME` on `data`, with a `--call` for
/// each of `calls` and the `more` options; its JSON lines.
pub fn run_client(
    data: &Path,
    program: &Path,
    script: &str,
    client: &str,
    calls: &[&str],
    more: &[&str],
) -> Vec<Value> {
    let mut command = client_command(data, program, script, client, calls, more);
    let output = command.output().expect("the client runs");
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{script} failed: {out}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    out.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
        .collect()
}

/// The command [`run_client`] runs, to run otherwise (in the background, with more variables).
pub fn client_command(
    data: &Path,
    program: &Path,
    script: &str,
    client: &str,
    calls: &[&str],
    more: &[&str],
) -> Command {
    let mut command = Command::new(program);
    command.current_dir(fixtures().join("clients")).arg(script);
    for call in calls {
        command.args(["--call", call]);
    }
    command.args(more);
    command
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("--data-dir")
        .arg(data)
        .args(["mcp", "--client", client])
        .env_remove("GATEHOUSE_DATA_DIR");
    command
}

/// With `agents` (each a client script run with `--wait-list-changed`, its stdout gathered) at
/// their first list, adds server-memory as `m`, and waits for each agent to be told its tools
/// changed, to list them again and to end well.
pub fn add_a_server_and_wait_until_the_agents_list_again(
    data: &Path,
    agents: &mut [(&mut super::engine::Reaped, &super::engine::Gathered)],
) {
    for (_, out) in agents.iter() {
        out.wait_for(
            "the agent has its first list",
            r#""step":"ready""#,
            Duration::from_secs(60),
        );
    }
    let memory = fixtures()
        .join("node_modules/@modelcontextprotocol/server-memory/dist/index.js")
        .display()
        .to_string();
    super::add_stdio(data, "m", "node", &[&memory]);
    for (agent, out) in agents.iter_mut() {
        out.wait_for(
            "the agent is told its tools changed and lists them again",
            "tools-after-change",
            Duration::from_secs(30),
        );
        let status = super::wait::until("the agent ends", Duration::from_secs(10), || {
            agent.0.try_wait().expect("wait").ok_or("running")
        });
        assert!(status.success(), "{}", out.text());
    }
}

/// server-everything as `e`, with every request of agents allowed (a gateway rule).
pub fn everything_for_agents() -> tempfile::TempDir {
    let data = crate::support::data_with_everything("e");
    crate::support::ok(
        data.path(),
        &["policy", "set", "e", "--source", "gateway", "allow"],
    );
    data
}

/// The conformance suite's Everything Server over Streamable HTTP (where Gatehouse speaks
/// 2026-07-28 with it), registered in `data` as `c`, every agent's request of it allowed.
pub fn conformance_for_agents(data: &Path) -> crate::support::HttpFixture {
    let fixture = crate::support::HttpFixture::conformance();
    crate::support::ok(data, &["server", "add", "c", "--url", &fixture.url("/mcp")]);
    crate::support::ok(
        data,
        &["policy", "set", "c", "--source", "gateway", "allow"],
    );
    fixture
}

/// The texts of the call of `tool` that a client script printed.
pub fn called(lines: &[Value], tool: &str) -> String {
    let call = steps(lines, "call")
        .into_iter()
        .find(|c| c["name"] == tool)
        .unwrap_or_else(|| panic!("no call of {tool}: {lines:?}"));
    texts(&call["result"])
}

/// The text parts of a tool's result, one per line.
pub fn texts(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The values of the steps named `name` that a client script printed, in order.
pub fn steps<'a>(lines: &'a [Value], name: &str) -> Vec<&'a Value> {
    lines
        .iter()
        .filter(|l| l["step"] == name)
        .map(|l| &l["value"])
        .collect()
}

/// The audit row of `client`'s call of `tool` finished as cancelled, waited for (bounded).
pub fn cancelled_call(data: &Path, client: &str, tool: &str) -> Value {
    crate::support::wait::until(
        "the cancelled call is audited",
        std::time::Duration::from_secs(15),
        || {
            let audit =
                crate::support::ok_json(data, &["audit", "list", "--json", "--client", client]);
            let rows = audit["rows"].as_array().cloned().unwrap_or_default();
            rows.into_iter()
                .find(|r| {
                    r["kind"] == "call_finished"
                        && r["tool"] == tool
                        && r["errorType"] == "cancelled"
                })
                .ok_or(audit)
        },
    )
}

/// The server requests on `data`'s audit log, each answered by an agent (asserted), as
/// (client, method), sorted.
pub fn answered_by_agents(data: &Path) -> Vec<(String, String)> {
    let audit = crate::support::ok_json(data, &["audit", "list", "--json", "--limit", "200"]);
    let mut answered: Vec<(String, String)> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["kind"] == "decision" && r["source"] == "server")
        .map(|r| {
            assert_eq!(r["detail"]["answeredBy"], "agent", "{r}");
            let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            (text(&r["detail"]["client"]), text(&r["method"]))
        })
        .collect();
    answered.sort();
    answered
}

/// The decision rows of the servers' requests: `count` of them, each answered by the agent
/// `client`, and the person asked nothing.
pub fn answered_by_agent(data: &Path, client: &str, count: usize) {
    let answered = answered_by_agents(data);
    assert_eq!(answered.len(), count, "{answered:?}");
    for (by, method) in &answered {
        assert_eq!(by, client, "{method}");
    }
    assert!(
        crate::support::ok_json(data, &["approvals", "list", "--json"])["approvals"]
            .as_array()
            .is_some_and(Vec::is_empty),
        "the person was not asked"
    );
}
