//! Tasks against server-everything's `simulate-research-query`, a tool that requires task
//! augmentation: one logical call with status updates, and cancellation.

use crate::support;

use gatehouse_mcp::{CallOptions, Client, TaskSupport};
use serde_json::json;

async fn everything() -> Client {
    let client = support::connect_stdio(&support::everything())
        .await
        .expect("connect");
    let tools = client.list_tools().await.expect("tools/list");
    let research = tools
        .items
        .iter()
        .find(|t| t.name == "simulate-research-query")
        .expect("listed");
    assert_eq!(TaskSupport::of(research), TaskSupport::Required);
    assert!(
        client.can_run_as_task(research),
        "server-everything declares task-augmented tool calls"
    );
    client
}

#[tokio::test]
async fn a_required_task_runs_as_one_logical_call_with_status_updates() {
    let client = everything().await;
    let (statuses_tx, mut statuses) =
        tokio::sync::mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let options = CallOptions {
        task_status: Some(statuses_tx),
        ..CallOptions::default()
    };
    let result = client
        .call_tool(
            "simulate-research-query",
            Some(json!({"topic": "gatehouses"})),
            options,
        )
        .await
        .expect("the task completes");
    assert!(!result.is_error);
    let text: String = result.content.iter().filter_map(|c| c.as_text()).collect();
    assert!(
        text.contains("gatehouses"),
        "the result is the task's tool result: {text}"
    );
    let mut seen = Vec::new();
    while let Ok(task) = statuses.try_recv() {
        seen.push(task.status);
    }
    assert_eq!(
        seen.first().map(String::as_str),
        Some("working"),
        "the caller sees the task start: {seen:?}"
    );
    assert_eq!(
        seen.last().map(String::as_str),
        Some("completed"),
        "and finish: {seen:?}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn a_task_can_be_polled_listed_and_cancelled() {
    let client = everything().await;
    let task = client
        .start_tool_task(
            "simulate-research-query",
            Some(json!({"topic": "moats"})),
            Some(60_000),
        )
        .await
        .expect("task created");
    assert_eq!(task.status, "working");
    let polled = client.get_task(&task.task_id).await.expect("tasks/get");
    assert_eq!(polled.task_id, task.task_id);
    if client.server_declares("tasks.list") {
        let listed = client.list_tasks().await.expect("tasks/list");
        assert!(
            listed.items.iter().any(|t| t.task_id == task.task_id),
            "the new task is listed"
        );
    }
    let cancelled = client
        .cancel_task(&task.task_id)
        .await
        .expect("tasks/cancel");
    assert_eq!(cancelled.status, "cancelled");
    // The same research, started after the cancellation, runs to its end: by then the
    // cancelled task would have finished too, had the cancellation not held.
    client
        .call_tool(
            "simulate-research-query",
            Some(json!({"topic": "moats"})),
            CallOptions::default(),
        )
        .await
        .expect("a second research runs to its end");
    let after = client
        .get_task(&task.task_id)
        .await
        .expect("tasks/get after cancel");
    assert_eq!(
        after.status, "cancelled",
        "a cancelled task stays cancelled"
    );
    client.close().await.expect("close");
}
