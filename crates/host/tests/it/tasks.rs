//! The task log followed by live sessions: a task left behind by a client that went away is
//! polled to its end on a shared (HTTP) server, and a stdio task whose process died is marked as
//! ended, since it died with that process. The server is the TypeScript SDK v2 fixture.

use crate::support;

use std::time::Duration;

use crate::support::{fixtures, settled, stdio};
use gatehouse_host::connect::open_client;
use gatehouse_host::{EngineEvent, Host, ServerStatus, TaskRecord};
use gatehouse_mcp::Task;
use serde_json::json;

/// The server's one logged task once it has finished (at most 20 s).
async fn finished(host: &Host, server: &str) -> TaskRecord {
    support::wait::until("the task finishes", Duration::from_secs(20), || async {
        let tasks = host.tasks(server).await.expect("tasks");
        match tasks.as_slice() {
            [task] if task.is_finished() => Ok(task.clone()),
            _ => Err(tasks),
        }
    })
    .await
}

#[tokio::test]
async fn a_task_left_behind_on_an_http_server_is_followed_to_its_end() {
    let (_server, url) = support::ts_sdk_v2_http().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    host.add_server(support::http("modern", &url))
        .await
        .expect("add");
    assert!(matches!(
        settled(&host, "modern").await,
        ServerStatus::Connected { .. }
    ));
    let mut events = host.subscribe();

    // Another client starts a task, logs its handle and goes away without polling it.
    let config = host.registry().get("modern").await.expect("config");
    let other = open_client(&config, host.registry()).await.expect("client");
    let handle = other
        .peer()
        .request(
            "tools/call",
            Some(json!({"name": "slow_task", "arguments": {"steps": 4, "intervalMs": 100}})),
            Duration::from_secs(10),
        )
        .await
        .expect("tools/call");
    assert_eq!(handle["resultType"], "task");
    let task: Task = serde_json::from_value(handle).expect("a task");
    host.registry()
        .record_task(&config.id, "slow_task", &task)
        .await
        .expect("record");
    other.close().await.expect("close");

    let done = finished(&host, "modern").await;
    assert_eq!(done.task_id, task.task_id);
    assert_eq!(done.status, "completed");
    assert_eq!(done.status_message.as_deref(), Some("done"));
    let mut announced = false;
    while let Ok(event) = events.try_recv() {
        announced |= matches!(event, EngineEvent::TasksChanged { ref id } if *id == config.id);
    }
    assert!(announced, "task changes are announced");
    host.shutdown().await;
}

#[tokio::test]
async fn a_stdio_task_whose_process_ended_is_marked_as_ended() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let script = fixtures()
        .join("ts-sdk-v2/server.mjs")
        .display()
        .to_string();
    host.add_server(stdio("ts", "node", vec![script, "stdio".into()]))
        .await
        .expect("add");
    let config = host.registry().get("ts").await.expect("config");
    let task: Task = serde_json::from_value(json!({
        "taskId": "from-a-dead-process", "status": "working", "pollIntervalMs": 100
    }))
    .expect("a task");
    host.registry()
        .record_task(&config.id, "slow_task", &task)
        .await
        .expect("record");
    // The task was recorded by a process that has since exited.
    let mut gone = std::process::Command::new("true").spawn().expect("spawn");
    let pid = gone.id();
    gone.wait().expect("wait");
    sqlx::query("UPDATE tasks SET recorder_pid = ?")
        .bind(i64::from(pid))
        .execute(host.store().pool())
        .await
        .expect("update");

    let ended = finished(&host, "ts").await;
    assert_eq!(ended.status, "failed");
    assert!(
        ended
            .status_message
            .as_deref()
            .is_some_and(|m| m.contains("ended")),
        "{ended:?}"
    );
    host.shutdown().await;
}
