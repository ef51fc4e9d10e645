//! The gateway's stdio face, `gatehouse mcp`, with real MCP clients nobody here wrote: the
//! official TypeScript SDK's v1 and v2 clients and the Python SDK's client start it as their
//! server (the v2 client speaks the 2026-07-28 era with it: `server/discover`, no handshake). With
//! no engine running it starts `gatehouse serve` and waits for it; the clients see the servers'
//! tools as SERVER__TOOL, call them through the gate (source `gateway`, the client's name as the
//! caller in the audit log), receive progress, and a call the policy denies comes back as a
//! result with `isError` and a text the model can act on. A server added while an agent is
//! attached reaches it as `notifications/tools/list_changed`, and its tools are listed then. A
//! client whose prefix is off sees and calls the tools by their own names.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::engine::{Gathered, Reaped};
use crate::support::gateway::steps as step;
use crate::support::gateway::{
    StopsTheEngine, add_a_server_and_wait_until_the_agents_list_again, client_command, fixtures,
    run_client,
};
use crate::support::wait::until;
use crate::support::{ok, ok_json};
use serde_json::Value;

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The TypeScript SDK's clients run as agents, each script with the client name it attaches as.
const TS_CLIENTS: [(&str, &str); 2] = [
    ("ts_sdk_v1_client.mjs", "ts-agent"),
    ("ts_sdk_v2_client.mjs", "ts2-agent"),
];

/// What a TypeScript SDK client run with the calls, reads, prompt and completion of
/// `real_sdk_clients_reach_the_servers_through_gatehouse_mcp_and_the_gate` printed.
fn ts_client_got_what_it_asked(script: &str, ts: &[Value]) {
    let server = step(ts, "server")[0];
    assert_eq!(server["info"]["name"], "gatehouse", "{script}");
    if script == "ts_sdk_v2_client.mjs" {
        // Gatehouse's own instructions, then each server's under its name (the v2 client runs
        // second: server-everything is connected by then, as the v1 client's calls showed).
        let instructions = server["instructions"].as_str().unwrap_or_default();
        assert!(instructions.starts_with("Gatehouse:"), "{instructions}");
        assert!(
            instructions.contains("## e\n# Everything Server"),
            "server-everything's instructions under its name: {instructions}"
        );
    }
    if script == "ts_sdk_v2_client.mjs" {
        // The v2 client speaks 2026-07-28: Gatehouse answers its `server/discover`, and every
        // request after it carries its `_meta` instead of an `initialize` handshake.
        assert_eq!(server["protocolVersion"], "2026-07-28", "{server}");
        assert_eq!(server["era"], "modern", "{server}");
    }
    let tools = step(ts, "tools")[0].as_array().expect("tools").clone();
    assert!(
        tools.iter().any(
            |t| t["name"] == "e__echo" && t["inputSchema"]["properties"]["message"].is_object()
        ),
        "{script}: the server's tools, named SERVER__TOOL, with their schemas: {tools:?}"
    );
    let calls = step(ts, "call");
    assert_eq!(
        text(&calls[0]["result"]),
        "Echo: through the gateway",
        "{script}"
    );
    assert_eq!(
        calls[0]["result"]["isError"], false,
        "{script}: {}",
        calls[0]
    );
    // The TS SDK's client gets the first two of server-everything's three updates even straight
    // from the server (its last one races the result there); through Gatehouse at least as many.
    let progress = calls[1]["progress"].as_array().expect("progress");
    assert!(
        progress.len() >= 2 && progress.iter().all(|p| p["total"] == 3),
        "{script}: the server's progress reached the agent: {progress:?}"
    );
    assert_eq!(calls[2]["result"]["isError"], true, "{}", calls[2]);
    let denied = text(&calls[2]["result"]);
    assert!(
        denied.contains("Gatehouse denied `e__get-sum`")
            && denied.contains("allow it in Gatehouse"),
        "{script}: a denial the model can act on: {denied}"
    );

    // Resources keep their URIs (a listed one, and one of a template); prompts and completions
    // are named SERVER__PROMPT.
    let resources = step(ts, "resources")[0]
        .as_array()
        .expect("resources")
        .clone();
    assert!(
        resources
            .iter()
            .any(|r| r["uri"] == "demo://resource/static/document/features.md"),
        "{script}: {resources:?}"
    );
    let templates = step(ts, "templates")[0]
        .as_array()
        .expect("templates")
        .clone();
    assert!(
        templates
            .iter()
            .any(|t| t["uriTemplate"] == "demo://resource/dynamic/text/{resourceId}"),
        "{script}: {templates:?}"
    );
    let reads = step(ts, "read");
    assert!(
        reads[0]["result"]["contents"][0]["text"]
            .as_str()
            .is_some_and(|t| !t.is_empty()),
        "{script}: {}",
        reads[0]
    );
    assert!(
        reads[1]["result"]["contents"][0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Resource 7")),
        "{script}: a templated URI is routed to its server: {}",
        reads[1]
    );
    let prompts = step(ts, "prompts")[0].as_array().expect("prompts").clone();
    assert!(
        prompts.iter().any(|p| p["name"] == "e__args-prompt"),
        "{script}: {prompts:?}"
    );
    let prompt = &step(ts, "prompt")[0]["result"];
    assert_eq!(
        prompt["messages"][0]["content"]["text"], "What's weather in Oslo?",
        "{script}: {prompt}"
    );
    let completed = &step(ts, "complete")[0]["result"]["completion"]["values"];
    assert_eq!(
        completed,
        &serde_json::json!(["Sales", "Support"]),
        "{script}"
    );
}

#[test]
fn real_sdk_clients_reach_the_servers_through_gatehouse_mcp_and_the_gate() {
    let data = crate::support::gateway::everything_for_agents();
    let data = data.path();
    ok(
        data,
        &[
            "policy", "set", "e", "--tool", "get-sum", "--source", "gateway", "deny",
        ],
    );
    assert_eq!(ok_json(data, &["status", "--json"])["running"], false);
    let _engine = StopsTheEngine(data);

    // The TypeScript SDK's v1 client, then its v2 client (which asks `server/discover` first, on a
    // second `gatehouse mcp` it starts only for that, and falls back to `initialize`). The first
    // started the engine the agents need, and left it running.
    let node = PathBuf::from("node");
    let mut engine = None;
    for (script, agent) in TS_CLIENTS {
        let ts = run_client(
            data,
            &node,
            script,
            agent,
            &[
                r#"e__echo={"message":"through the gateway"}"#,
                r#"e__trigger-long-running-operation={"duration":1,"steps":3}"#,
                r#"e__get-sum={"a":1,"b":2}"#,
            ],
            &[
                "--read",
                "demo://resource/static/document/features.md",
                "--read",
                "demo://resource/dynamic/text/7",
                "--prompt",
                r#"e__args-prompt={"city":"Oslo"}"#,
                "--complete",
                "e__completable-prompt/department=S",
            ],
        );
        let status = ok_json(data, &["status", "--json"]);
        assert_eq!(status["running"], true, "{status}");
        assert_eq!(status["kind"], "serve");
        let pid = engine.get_or_insert_with(|| status["pid"].clone());
        assert_eq!(&status["pid"], pid, "{script}: one engine for every agent");
        ts_client_got_what_it_asked(script, &ts);
    }

    // An agent cancels a long call on its first progress and stays attached: the call is
    // cancelled on the server and audited so while the agent is still there (an agent leaving
    // would cancel it too, so the agent waits on).
    ok(data, &["clients", "add", "ts-cancel"]);
    let mut command = client_command(
        data,
        &node,
        "ts_sdk_v1_client.mjs",
        "ts-cancel",
        &[],
        &[
            "--cancel",
            r#"e__trigger-long-running-operation={"duration":30,"steps":30}"#,
            "--wait-list-changed",
        ],
    );
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the client starts");
    let mut canceller = Reaped(child);
    let out = Gathered::from(canceller.0.stdout.take().expect("the client's stdout"));
    out.wait_for(
        "the agent cancelled its call and waits",
        r#""step":"ready""#,
        Duration::from_secs(60),
    );
    let cancelled = crate::support::gateway::cancelled_call(
        data,
        "ts-cancel",
        "trigger-long-running-operation",
    );
    assert_eq!(cancelled["source"], "gateway", "{cancelled}");
    assert!(
        canceller.0.try_wait().expect("wait").is_none(),
        "the agent is still attached"
    );
    let said: Vec<Value> = out
        .text()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let step_cancelled = step(&said, "cancelled")[0];
    assert!(
        step_cancelled["progress"]
            .as_array()
            .is_some_and(|p| !p.is_empty()),
        "the long call reported progress before the agent cancelled it: {step_cancelled}"
    );
    drop(canceller);

    // Another agent attaches to the same engine: no second engine, no second server. Its
    // prefix is off, so it sees and calls the tools by their own names (one server: no collision).
    ok(data, &["clients", "add", "py-agent"]);
    ok(data, &["clients", "profile", "py-agent", "--prefix", "off"]);
    let python = fixtures().join("python/.venv/bin/python");
    let py = run_client(
        data,
        &python,
        "py_sdk_client.py",
        "py-agent",
        &[r#"echo={"message":"from python"}"#],
        &[],
    );
    let bare: Vec<&str> = step(&py, "tools")[0]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        bare.contains(&"echo") && !bare.iter().any(|n| n.starts_with("e__")),
        "a client with its prefix off sees bare names: {bare:?}"
    );
    assert_eq!(text(&step(&py, "call")[0]["result"]), "Echo: from python");
    assert_eq!(
        Some(ok_json(data, &["status", "--json"])["pid"].clone()),
        engine
    );

    // Every call is in the audit log as the gateway's, naming the client.
    let audit = ok_json(data, &["audit", "list", "--json", "--limit", "200"]);
    let received: Vec<(String, String, String)> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["kind"] == "request_received" && r["method"] == "tools/call")
        .map(|r| {
            (
                r["source"].as_str().unwrap_or_default().to_owned(),
                r["detail"]["caller"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                r["tool"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    for (caller, tool) in [
        ("ts-agent", "echo"),
        ("ts-agent", "trigger-long-running-operation"),
        ("ts-agent", "get-sum"),
        ("ts2-agent", "echo"),
        ("ts2-agent", "trigger-long-running-operation"),
        ("ts2-agent", "get-sum"),
        ("py-agent", "echo"),
    ] {
        assert!(
            received.contains(&("gateway".to_owned(), caller.to_owned(), tool.to_owned())),
            "{caller} calling {tool} is audited as the gateway's: {received:?}"
        );
    }
    let gated: Vec<(String, String)> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["kind"] == "request_received" && r["source"] == "gateway")
        .map(|r| {
            (
                r["method"].as_str().unwrap_or_default().to_owned(),
                r["detail"]["caller"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    for (method, (_, agent)) in ["resources/read", "prompts/get", "completion/complete"]
        .into_iter()
        .flat_map(|method| TS_CLIENTS.map(|client| (method, client)))
    {
        assert!(
            gated.contains(&(method.to_owned(), agent.to_owned())),
            "{method} passed the gate as {agent}'s: {gated:?}"
        );
    }
    // The engine serves on after the agents closed their sessions.
    until(
        "the agents' faces are gone",
        Duration::from_secs(10),
        || {
            let faces = ok_json(data, &["status", "--json"])["faces"].clone();
            match faces.as_array() {
                Some(f) if f.iter().all(|f| f["face"] != "gateway") => Ok(()),
                _ => Err(faces),
            }
        },
    );
}

#[test]
fn an_agent_is_told_when_a_server_is_added_and_then_sees_its_tools() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    // The engine runs with `e` connected before the agent comes: the only change it is told of
    // is the server added below (a server still connecting when the agent listed would be one).
    let _serve = crate::support::engine::serve(data);
    crate::support::engine::wait_connected(data);
    // Both TypeScript SDK clients wait at once, told of the one server added.
    let mut watchers: Vec<_> = TS_CLIENTS
        .iter()
        .map(|(script, _)| {
            let client = Command::new("node")
                .current_dir(fixtures().join("clients"))
                .args([*script, "--wait-list-changed", "--"])
                .arg(env!("CARGO_BIN_EXE_gatehouse"))
                .arg("--data-dir")
                .arg(data)
                .args(["mcp", "--client", "watcher"])
                .env_remove("GATEHOUSE_DATA_DIR")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("the client starts");
            let mut client = crate::support::engine::Reaped(client);
            let out = crate::support::engine::Gathered::from(
                client.0.stdout.take().expect("the client's stdout"),
            );
            (client, out)
        })
        .collect();
    add_a_server_and_wait_until_the_agents_list_again(
        data,
        &mut watchers
            .iter_mut()
            .map(|(client, out)| (client, &*out))
            .collect::<Vec<_>>(),
    );
    for ((script, _), (_, out)) in TS_CLIENTS.iter().zip(&watchers) {
        let lines: Vec<Value> = out
            .text()
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
            .collect();
        let before = step(&lines, "tools")[0].as_array().expect("tools").clone();
        let after = step(&lines, "tools-after-change")[0]
            .as_array()
            .expect("tools")
            .clone();
        assert!(
            !before.iter().any(|t| t["name"] == "m__read_graph"),
            "{script}"
        );
        assert!(
            after.iter().any(|t| t["name"] == "m__read_graph")
                && after.iter().any(|t| t["name"] == "e__echo"),
            "{script}: the added server's tools, beside the others: {after:?}"
        );
    }
}
