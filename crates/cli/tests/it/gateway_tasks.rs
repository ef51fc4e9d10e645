//! Tasks through the gateway (2025-11-25 basic/utilities/tasks), with the official TypeScript
//! SDK v1 client's experimental task API as the agent: a call made a task is answered at once
//! as `working`, runs through the gate, completes with the server's result (related to the task)
//! and is listed; a long call made a task and cancelled is cancelled on the server and audited
//! so; another agent session cannot read a task that is not its own.

use std::path::Path;

use crate::support::gateway::{StopsTheEngine, run_client};
use serde_json::Value;

fn step<'a>(lines: &'a [Value], name: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["step"] == name)
        .map(|l| &l["value"])
        .unwrap_or_else(|| panic!("no step {name}: {lines:?}"))
}

#[test]
fn an_agents_call_made_a_task_runs_through_the_gate_and_can_be_cancelled() {
    let data = crate::support::gateway::everything_for_agents();
    let data = data.path();
    let _engine = StopsTheEngine(data);
    let node = Path::new("node");

    let lines = run_client(
        data,
        node,
        "ts_sdk_v1_client.mjs",
        "tasker",
        &[],
        &[
            "--task-call",
            r#"e__echo={"message":"as a task"}"#,
            "--task-cancel",
            r#"e__trigger-long-running-operation={"duration":30,"steps":30}"#,
        ],
    );
    let server = step(&lines, "server");
    assert!(
        server["capabilities"]["tasks"]["requests"]["tools"]["call"].is_object(),
        "the gateway declares tasks for tools/call: {server}"
    );

    let called = step(&lines, "task-call");
    let messages = called["messages"].as_array().expect("messages");
    assert_eq!(messages[0]["type"], "taskCreated", "{messages:?}");
    assert_eq!(messages[0]["task"]["status"], "working", "{messages:?}");
    let task_id = messages[0]["task"]["taskId"].as_str().expect("an id");
    let last = messages.last().expect("a last message");
    assert_eq!(last["type"], "result", "{messages:?}");
    assert_eq!(last["result"]["content"][0]["text"], "Echo: as a task");
    let listed = called["listed"]["tasks"].as_array().expect("tasks");
    assert!(
        listed
            .iter()
            .any(|t| t["taskId"] == task_id && t["status"] == "completed"),
        "the task is listed, completed: {listed:?}"
    );

    let cancel = step(&lines, "task-cancel");
    assert_eq!(cancel["created"]["task"]["status"], "working", "{cancel}");
    assert_eq!(cancel["cancelled"]["status"], "cancelled", "{cancel}");
    assert_eq!(cancel["got"]["status"], "cancelled", "{cancel}");
    assert!(
        cancel["result"]["error"].is_object(),
        "a cancelled task has no result: {cancel}"
    );
    let finished =
        crate::support::gateway::cancelled_call(data, "tasker", "trigger-long-running-operation");
    assert_eq!(finished["source"], "gateway", "{finished}");

    // Another session (another agent) cannot read the task.
    let other = run_client(
        data,
        node,
        "ts_sdk_v1_client.mjs",
        "snooper",
        &[],
        &["--task-get", task_id],
    );
    let got = step(&other, "task-get");
    assert_eq!(got["error"]["code"], -32602, "{got}");
    assert!(got["task"].is_null(), "nothing of the task leaks: {got}");
}
