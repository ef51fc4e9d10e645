//! The tasks extension (`io.modelcontextprotocol/tasks`) against the TypeScript SDK v2 fixture's
//! `slow_task`, over stdio and stateless Streamable HTTP: the server answers `tools/call` with a
//! task handle, and the client polls it to the end, answers its input request once with
//! `tasks/update`, reports each status, turns a failed task into the JSON-RPC error, and cancels
//! an abandoned task with `tasks/cancel`.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use crate::support::answers::{Answers, with_form_elicitation};
use crate::support::{HttpServer, ts_sdk_v2_js};
use gatehouse_mcp::{CallOptions, Client, HttpMode, McpError, StdioConfig, Task};
use serde_json::json;
use tokio::sync::mpsc;

/// A handler that approves whatever it is asked.
fn approving() -> Answers {
    Answers::accepting(json!({"approve": true, "note": "ship it"}))
}

fn drain(rx: &mut mpsc::Receiver<Task>) -> Vec<Task> {
    let mut all = Vec::new();
    while let Ok(task) = rx.try_recv() {
        all.push(task);
    }
    all
}

async fn task_status(client: &Client, task_id: &str) -> String {
    let task = client.get_task(task_id).await.expect("tasks/get");
    task.status
}

async fn exercise(client: Client, handler: &Answers) {
    // A plain run: a handle, polling through `working`, the result inlined at the end.
    let (tx, mut rx) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let done = client
        .call_tool(
            "slow_task",
            Some(json!({"steps": 2, "intervalMs": 50})),
            CallOptions {
                task_status: Some(tx),
                ..CallOptions::default()
            },
        )
        .await
        .expect("a task-backed call");
    assert_eq!(
        done.structured_content,
        Some(json!({"steps": 2, "answer": null, "content": null}))
    );
    let statuses = drain(&mut rx);
    let first = statuses.first().expect("the handle is reported");
    assert_eq!(first.status, "working");
    assert_eq!(
        statuses.last().map(|t| t.status.as_str()),
        Some("completed")
    );
    assert!(
        statuses.iter().all(|t| t.task_id == first.task_id),
        "one task"
    );

    // Input during the task: asked once (though every poll repeats it), answered with
    // tasks/update, and the answer reaches the result.
    let (tx, mut rx) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let answered = client
        .call_tool(
            "slow_task",
            Some(json!({"steps": 1, "needInput": true, "intervalMs": 30})),
            CallOptions {
                task_status: Some(tx),
                ..CallOptions::default()
            },
        )
        .await
        .expect("a task that needs input");
    assert_eq!(
        answered.structured_content,
        Some(
            json!({"steps": 1, "answer": "accept", "content": {"approve": true, "note": "ship it"}})
        )
    );
    let statuses: Vec<String> = drain(&mut rx).into_iter().map(|t| t.status).collect();
    assert!(
        statuses.iter().any(|s| s == "input_required"),
        "{statuses:?}"
    );
    let asked = handler.take_asked();
    assert_eq!(asked.len(), 1, "one question, asked once: {asked:?}");
    assert_eq!(asked[0]["method"], "elicitation/create");

    // A failed task is the JSON-RPC error it carries.
    let failed = client
        .call_tool(
            "slow_task",
            Some(json!({"steps": 1, "fail": true, "intervalMs": 10})),
            CallOptions::default(),
        )
        .await;
    match failed {
        Err(McpError::Rpc { error, .. }) => {
            assert_eq!(error.code, -32603);
            assert_eq!(error.message, "slow_task was asked to fail");
        }
        other => panic!("a failed task is an error: {other:?}"),
    }

    // Abandoning the call cancels the task on the server.
    let (tx, mut rx) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let mut long = Box::pin(client.call_tool(
        "slow_task",
        Some(json!({"steps": 1000, "intervalMs": 50})),
        CallOptions {
            task_status: Some(tx),
            ..CallOptions::default()
        },
    ));
    let handle = tokio::select! {
        result = &mut long => panic!("a long task finished early: {result:?}"),
        task = rx.recv() => task.expect("the handle is reported"),
    };
    drop(long);
    let status = support::wait::until(
        "the dropped call cancels its task",
        Duration::from_secs(5),
        || async {
            let status = task_status(&client, &handle.task_id).await;
            if status == "cancelled" {
                Ok(status)
            } else {
                Err(status)
            }
        },
    )
    .await;
    assert_eq!(status, "cancelled", "the dropped call cancelled its task");
    client.close().await.expect("close");
}

#[tokio::test]
async fn task_handles_over_stdio() {
    let mut config = StdioConfig::new("node");
    config.args = vec![ts_sdk_v2_js(), "stdio".to_owned()];
    let handler = Arc::new(approving());
    let client = Client::connect_stdio(&config, with_form_elicitation(), handler.clone())
        .await
        .expect("connect over stdio");
    exercise(client, &handler).await;
}

#[tokio::test]
async fn task_handles_over_streamable_http() {
    let server = HttpServer::ts_sdk_v2().await;
    let handler = Arc::new(approving());
    let client = Client::connect_http(
        &server.config("/mcp"),
        HttpMode::Auto,
        with_form_elicitation(),
        handler.clone(),
    )
    .await
    .expect("connect over Streamable HTTP");
    exercise(client, &handler).await;
}
