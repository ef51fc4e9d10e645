//! `gatehouse call <server> <tool>`: call one tool and print its result. Progress goes to
//! stderr; Ctrl-C cancels the call on the server (dropping the call sends
//! `notifications/cancelled`) and exits with 130; a result with `isError` exits with 3.
//! The tools are listed first, so structured output is checked against the tool's
//! `outputSchema` and a mismatch is reported as a warning. A call that runs as a task shows its
//! status as it goes, and every status is written to the task log, where the app shows it
//! (`gatehouse tasks <server>` lists it).

use std::time::Duration;

use gatehouse_host::{Host, HostError};
use gatehouse_mcp::{CallOptions, CallToolResult, Client, Task};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::Finish;
use crate::args::CallArgs;
use crate::commands::connection::Connection;
use crate::ctrl_c::interrupted;
use crate::{output, progress};

/// How long to wait, after a cancellation, for the server to acknowledge a ping, so that the
/// `notifications/cancelled` sent before it has gone out before the connection closes.
const CANCEL_FLUSH: Duration = Duration::from_secs(2);

pub async fn run(host: &Host, args: CallArgs) -> Result<Finish, HostError> {
    let connection = Connection::open(host, &args.server).await?;
    let server = connection.server.clone();
    let log = TaskLog {
        host,
        server_id: &connection.server_id,
        tool: &args.tool,
    };
    let outcome = call(&connection.client, &args, &log).await;
    let result = connection.close(outcome).await?;
    let Some(result) = result else {
        say_err!(
            "error: interrupted; `{}` was cancelled on the server",
            args.tool
        );
        return Ok(Finish::Interrupted);
    };
    if let Some(problem) = &result.schema_problem {
        say_err!("warning: {problem}");
    }
    if args.json {
        output::print_json(&json!({
            "server": server,
            "tool": args.tool,
            "content": result.content,
            "structuredContent": result.structured_content,
            "isError": result.is_error,
            "schemaProblem": result.schema_problem,
        }))?;
    } else {
        print_result(&result)?;
    }
    if result.is_error {
        say_err!("error: `{}` reported an error (isError)", args.tool);
        return Ok(Finish::ToolError);
    }
    Ok(Finish::Success)
}

/// Where a task's statuses are recorded.
struct TaskLog<'a> {
    host: &'a Host,
    server_id: &'a str,
    tool: &'a str,
}

impl TaskLog<'_> {
    /// Records each status, then passes it on to `display`; returns the last status seen once
    /// the call is over.
    async fn record(
        &self,
        mut statuses: mpsc::UnboundedReceiver<Task>,
        display: mpsc::UnboundedSender<Task>,
    ) -> Option<Task> {
        let mut last = None;
        while let Some(task) = statuses.recv().await {
            self.save(&task).await;
            let _ = display.send(task.clone());
            last = Some(task);
        }
        last
    }

    /// Records that a task was given up on at the terminal.
    async fn cancelled(&self, mut task: Task) {
        if task.is_terminal() {
            return;
        }
        task.status = "cancelled".into();
        task.status_message = Some("cancelled from the terminal (Ctrl-C)".into());
        self.save(&task).await;
    }

    /// Writes one status to the task log; a failure is only worth a warning.
    async fn save(&self, task: &Task) {
        if let Err(e) = self
            .host
            .registry()
            .record_task(self.server_id, self.tool, task)
            .await
        {
            tracing::warn!("cannot record the status of task {}: {e}", task.task_id);
        }
    }
}

/// Calls the tool, or returns `None` if Ctrl-C came first.
async fn call(
    client: &Client,
    args: &CallArgs,
    log: &TaskLog<'_>,
) -> Result<Option<CallToolResult>, HostError> {
    if let Err(e) = client.list_tools().await {
        tracing::info!("cannot list tools, so the result is not checked against a schema: {e}");
    }
    let (updates, received) = mpsc::unbounded_channel();
    let display = progress::spawn(received);
    let (statuses, to_record) = mpsc::unbounded_channel();
    let recorded = log.record(to_record, progress::task_updates(updates.clone()));
    let mut options = CallOptions {
        progress: Some(updates),
        task_status: Some(statuses),
        // The person at the terminal decides when to give up: Ctrl-C.
        max_total: None,
        ..CallOptions::default()
    };
    if let Some(timeout) = args.timeout {
        options.timeout = timeout;
    }
    let arguments = args.args.clone().map(Value::Object);
    let calling = async {
        tokio::select! {
            result = client.call_tool(&args.tool, arguments, options) => Some(result),
            () = interrupted() => None,
        }
    };
    // The call future ends (its senders with it) before the recorder can.
    let (outcome, last_task) = tokio::join!(calling, recorded);
    // The call and the recorder are gone (their progress senders with them): the display ends.
    if let Err(e) = display.await {
        tracing::debug!("the progress display stopped: {e}");
    }
    match outcome {
        Some(result) => Ok(Some(result?)),
        None => {
            if let Some(task) = last_task {
                log.cancelled(task).await;
            }
            // Messages go out in order: once the ping is answered, the cancellation was sent.
            let _ = tokio::time::timeout(CANCEL_FLUSH, client.ping()).await;
            Ok(None)
        }
    }
}

fn print_result(result: &CallToolResult) -> Result<(), HostError> {
    for block in &result.content {
        say!("{}", output::describe_content(block));
    }
    if let Some(structured) = &result.structured_content {
        if !result.content.is_empty() {
            say!("structuredContent:");
        }
        output::print_json(structured)?;
    }
    Ok(())
}
