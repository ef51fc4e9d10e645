//! `gatehouse tasks <server>`: the tool calls that ran as tasks on a server, newest first, from
//! the task log (whichever process started them), with their latest status. No connection is
//! made.

use gatehouse_host::{Host, HostError};
use serde_json::json;

use crate::output;

pub async fn run(host: &Host, server: &str, json: bool) -> Result<(), HostError> {
    let config = host.server(server).await?.config;
    let tasks = host.tasks(&config.id).await?;
    if json {
        return output::print_json(&json!({ "server": config.name, "tasks": tasks }));
    }
    let rows: Vec<[String; 5]> = tasks
        .iter()
        .map(|t| {
            [
                t.task_id.clone(),
                t.tool.clone(),
                t.status.clone(),
                t.updated_at.clone(),
                output::first_line(t.status_message.as_ref()),
            ]
        })
        .collect();
    output::print_rows(
        &config.name,
        "tasks",
        ["TASK", "TOOL", "STATUS", "UPDATED", "MESSAGE"],
        &rows,
    );
    Ok(())
}
