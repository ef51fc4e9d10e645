//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) through the gateway, for
//! 2026-07-28 agents over HTTP: the conformance suite's Everything Server registered over
//! Streamable HTTP makes its tools tasks. An agent declaring the extension gets the task under
//! an id of the gateway's own and polls it to its end (the result inlined); an `input_required`
//! task is answered with `tasks/update`; another client's task id is refused by the gateway
//! itself; a request without the extension gets `MissingRequiredClientCapability`; the call is
//! audited as the agent's. A task's input request passes the gate: the agent's answer is on
//! record, and a rule denying the server's requests keeps it from the agent; each task's end is
//! on record once.

use std::time::Duration;

use serde_json::{Value, json};

use crate::gateway_http::{bearer, client_with_token, exchange, http_engine, message, post};
use crate::support::{ok, ok_json, wait};

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// A 2026-07-28 request, declaring the tasks extension when `tasks` says so.
fn request(id: u64, method: &str, mut params: Value, tasks: bool) -> String {
    let capabilities = if tasks {
        json!({ "elicitation": {}, "extensions": { TASKS: {} } })
    } else {
        json!({ "elicitation": {} })
    };
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": { "name": "raw-tasks", "version": "1" },
    });
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

/// Posts one request with its headers (`Mcp-Name` naming the tool or task) and returns the
/// response message.
fn send(port: u16, token: &str, method: &str, name: &str, body: String) -> Value {
    let host = format!("127.0.0.1:{port}");
    let headers = [
        bearer(token),
        "MCP-Protocol-Version: 2026-07-28".to_owned(),
        format!("Mcp-Method: {method}"),
        format!("Mcp-Name: {name}"),
    ];
    let (status, _, body) = exchange(port, &post("/mcp", &host, &headers, &body));
    assert!(status == 200 || status == 400, "{status}: {body}");
    message(&body)
}

/// Calls `tool` with `arguments` declaring the extension, and returns the task id it was given.
fn task_of(port: u16, token: &str, id: u64, tool: &str, arguments: Value) -> String {
    let args = json!({ "name": tool, "arguments": arguments });
    let created = send(
        port,
        token,
        "tools/call",
        tool,
        request(id, "tools/call", args, true),
    );
    let created = &created["result"];
    assert_eq!(created["resultType"], "task", "{created}");
    assert!(created.get("result").is_none(), "{created}");
    created["taskId"].as_str().expect("a task id").to_owned()
}

/// The task's state once `done` says it is what the test waits for.
fn poll(port: u16, token: &str, task: &str, step: &str, done: impl Fn(&Value) -> bool) -> Value {
    let get = || {
        let body = request(50, "tasks/get", json!({ "taskId": task }), true);
        let got = send(port, token, "tasks/get", task, body);
        let state = got["result"].clone();
        if done(&state) { Ok(state) } else { Err(got) }
    };
    wait::until(step, Duration::from_secs(15), get)
}

#[test]
fn a_2026_agent_gets_the_servers_task_under_the_gateways_id_and_polls_it_to_its_end() {
    let data = tempfile::tempdir().expect("temp dir");
    let data = data.path();
    let _fixture = crate::support::gateway::conformance_for_agents(data);
    let owner = client_with_token(data, "agent-a");
    let other = client_with_token(data, "agent-b");
    let (port, _serve) = http_engine(data);

    // A task created through the gateway, polled to completion, its result inlined.
    let slow = "c__slow_compute";
    let task = task_of(port, &owner, 1, slow, json!({ "seconds": 0.2 }));
    let done = poll(port, &owner, &task, "the task completes", |s| {
        s["status"] == "completed"
    });
    assert_eq!(
        done["taskId"],
        task.as_str(),
        "answered under the gateway's id"
    );
    assert_eq!(
        done["result"]["content"][0]["text"], "Computed after 0.2s",
        "{done}"
    );

    // Another client's task id, and one never given, are refused by the gateway itself.
    for (token, id) in [(&other, task.as_str()), (&owner, "not-a-task")] {
        let body = request(2, "tasks/get", json!({ "taskId": id }), true);
        let refused = send(port, token, "tasks/get", id, body);
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        let said = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(said.contains("no such task for this client"), "{said}");
    }
    // Without the extension declared: MissingRequiredClientCapability, naming it.
    let body = request(3, "tasks/get", json!({ "taskId": task }), false);
    let refused = send(port, &owner, "tasks/get", &task, body);
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert!(
        refused["error"]["data"]["requiredCapabilities"]["extensions"]
            .get(TASKS)
            .is_some(),
        "{refused}"
    );
    // ...and a call without it is not a task: the server answered as to such a client.
    let args = json!({ "name": slow, "arguments": { "seconds": 0 } });
    let plain = send(
        port,
        &owner,
        "tools/call",
        slow,
        request(4, "tools/call", args, false),
    );
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["content"][0]["text"], "Computed after 0s");

    // An input_required task answered with tasks/update.
    let confirm = "c__confirm_delete";
    let task = task_of(port, &owner, 5, confirm, json!({}));
    let asked = poll(port, &owner, &task, "the task asks", |s| {
        s["status"] == "input_required"
    });
    let keys: Vec<&String> = asked["inputRequests"]
        .as_object()
        .expect("requests")
        .keys()
        .collect();
    assert_eq!(keys, ["confirm"], "{asked}");
    assert_eq!(
        asked["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    let answer = json!({
        "taskId": task,
        "inputResponses": { "confirm": { "action": "accept", "content": { "confirm": true } } },
    });
    let body = request(6, "tasks/update", answer, true);
    let acked = send(port, &owner, "tasks/update", &task, body);
    assert_eq!(acked["result"]["resultType"], "complete", "{acked}");
    let done = poll(port, &owner, &task, "the answered task completes", |s| {
        s["status"] == "completed"
    });
    let said = done["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(said, r#"Delete confirmed: {"confirm":true}"#, "{done}");
    // The server's request passed the gate: received, and answered by the agent on record.
    crate::support::gateway::answered_by_agent(data, "agent-a", 1);

    // A rule denying the server's requests holds for a task's too: the agent is never shown
    // it (the task is `working` to it), and the server is told no (an elicitation declined).
    ok(data, &["policy", "set", "c", "--source", "server", "deny"]);
    let task = task_of(port, &owner, 7, confirm, json!({}));
    let done = poll(port, &owner, &task, "the denied task completes", |s| {
        assert!(
            s.get("inputRequests").is_none() && s["status"] != "input_required",
            "a denied request reached the agent: {s}"
        );
        s["status"] == "completed"
    });
    assert_eq!(
        done["result"]["content"][0]["text"], "Delete confirmed: {}",
        "the server got no answer of the agent's: {done}"
    );
    // A task's sampling request denied by that rule cannot be refused by an input response:
    // the task is cancelled on its server rather than left waiting to its expiry.
    let sampled = "c__sampled_summary";
    let task = task_of(port, &owner, 8, sampled, json!({}));
    poll(
        port,
        &owner,
        &task,
        "the task whose sampling was denied ends",
        |s| s["status"] == "cancelled",
    );

    // The calls are audited as agent-a's, through the gateway.
    let audit = ok_json(data, &["audit", "list", "--json", "--client", "agent-a"]);
    let tools: Vec<&str> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["kind"] == "request_received" && r["source"] == "gateway")
        .filter_map(|r| r["tool"].as_str())
        .collect();
    assert_eq!(
        tools.iter().filter(|t| **t == "slow_compute").count(),
        2,
        "{tools:?}"
    );
    assert!(tools.contains(&"confirm_delete"), "{tools:?}");
    // Each task's end is on record once, when the agent saw it terminal.
    let ended: Vec<(String, String)> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["kind"] == "call_finished" && r["detail"]["task"].is_object())
        .map(|r| {
            (
                r["tool"].as_str().unwrap_or_default().to_owned(),
                r["detail"]["task"]["status"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    let completed = |tool: &str| {
        ended
            .iter()
            .filter(|(t, s)| t == tool && s == "completed")
            .count()
    };
    assert_eq!(completed("slow_compute"), 1, "{ended:?}");
    assert_eq!(completed("confirm_delete"), 2, "{ended:?}");
}

/// The `call_finished` rows of the gateway's task `task` (the agent's audit rows).
fn ends_of(data: &std::path::Path, client: &str, task: &str) -> Vec<Value> {
    let audit = ok_json(data, &["audit", "list", "--json", "--client", client]);
    audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["kind"] == "call_finished" && r["detail"]["task"]["id"] == task)
        .cloned()
        .collect()
}

// Each test's client has a name of its own: tokens are kept in the keyring by client name.
#[test]
fn a_tasks_end_is_on_record_once_though_the_agent_never_asks_for_it() {
    let data = tempfile::tempdir().expect("temp dir");
    let data = data.path();
    let _fixture = crate::support::gateway::conformance_for_agents(data);
    let owner = client_with_token(data, "agent-unpolled");
    let (port, _serve) = http_engine(data);

    // The agent makes a task and never asks about it again: the engine follows it to its end.
    let task = task_of(
        port,
        &owner,
        1,
        "c__slow_compute",
        json!({ "seconds": 0.2 }),
    );
    let ended = wait::until(
        "the engine records the end of the task nobody polls",
        Duration::from_secs(20),
        || {
            let rows = ends_of(data, "agent-unpolled", &task);
            if rows.is_empty() { Err(rows) } else { Ok(rows) }
        },
    );
    assert_eq!(ended.len(), 1, "{ended:?}");
    let row = &ended[0];
    assert_eq!(row["source"], "gateway", "{row}");
    assert_eq!(row["tool"], "slow_compute", "{row}");
    assert_eq!(row["detail"]["caller"], "agent-unpolled", "{row}");
    assert_eq!(row["detail"]["task"]["status"], "completed", "{row}");
    assert_eq!(row["detail"]["seenBy"], "engine", "{row}");
    assert_eq!(
        row["detail"]["result"]["content"][0]["text"], "Computed after 0.2s",
        "{row}"
    );

    // The agent polls it terminal after all: its end is still on record once.
    let done = poll(port, &owner, &task, "the agent sees the task ended", |s| {
        s["status"] == "completed"
    });
    assert_eq!(done["taskId"], task.as_str());
    let ended = ends_of(data, "agent-unpolled", &task);
    assert_eq!(ended.len(), 1, "one end, whoever saw it first: {ended:?}");
}

#[test]
fn a_task_running_when_the_engine_stops_is_on_record_as_stopped() {
    let data = tempfile::tempdir().expect("temp dir");
    let data = data.path();
    let _fixture = crate::support::gateway::conformance_for_agents(data);
    let owner = client_with_token(data, "agent-stopped");
    let (port, mut serve) = http_engine(data);

    let task = task_of(
        port,
        &owner,
        1,
        "c__slow_compute",
        json!({ "seconds": 600 }),
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(serve.pid()).expect("pid")),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
    let status = wait::until("the engine stops", Duration::from_secs(20), || {
        serve.0.try_wait().expect("wait").ok_or("still running")
    });
    assert_eq!(status.code(), Some(0), "a graceful stop");

    let ended = ends_of(data, "agent-stopped", &task);
    assert_eq!(ended.len(), 1, "{ended:?}");
    let row = &ended[0];
    assert_eq!(row["errorType"], "engine_stopped", "{row}");
    assert_eq!(row["detail"]["caller"], "agent-stopped", "{row}");
    assert_eq!(
        row["detail"]["task"]["status"], "working",
        "the last status known: {row}"
    );
}
