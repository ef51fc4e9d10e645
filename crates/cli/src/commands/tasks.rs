//! `gatehouse tasks <server>`: the tool calls that ran as tasks on a server, newest first, from
//! the task log (whichever process started them), with their latest status, as the running
//! engine or this process reads it. No connection is made.

use gatehouse_host::HostError;
use gatehouse_host::control::protocol::TaskListing;
use serde_json::json;

use crate::door::Door;
use crate::output;

pub async fn run(door: &Door<'_>, server: &str, json: bool) -> Result<(), HostError> {
    let TaskListing {
        server: name,
        tasks,
    } = match door {
        Door::Attached(engine) => engine.tasks(server).await?,
        Door::InProcess(host) => {
            let config = host.server(server).await?.config;
            let tasks = host.tasks(&config.id).await?;
            TaskListing {
                server: config.name,
                tasks,
            }
        }
    };
    if json {
        return output::print_json(&json!({ "server": name, "tasks": tasks }));
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
        &name,
        "tasks",
        ["TASK", "TOOL", "STATUS", "UPDATED", "MESSAGE"],
        &rows,
    );
    Ok(())
}
