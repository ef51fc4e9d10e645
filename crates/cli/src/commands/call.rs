//! `gatehouse call <server> <tool>`: call one tool through the host's gate and print its
//! result. Progress goes to stderr; Ctrl-C cancels the call on the server and exits with 130; a
//! result with `isError` exits with 3. The gate lists the tools first, so structured output is
//! checked against the tool's `outputSchema` (a mismatch is a warning), and writes every status
//! of a call that runs as a task to the task log, where the app shows it (`gatehouse tasks
//! <server>` lists it); the statuses are shown here as they come.

use gatehouse_host::protocol::CallOptions;
use gatehouse_host::{CallOutcome, Host, HostError, Source, ToolCall};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::args::CallArgs;
use crate::commands::connection::Connection;
use crate::ctrl_c::interrupted;
use crate::finish::Finish;
use crate::{output, progress};

pub async fn run(host: &Host, args: CallArgs) -> Result<Finish, HostError> {
    let connection = Connection::open(host, &args.server).await?;
    let server = connection.server().to_owned();
    let (updates, received) = mpsc::channel(gatehouse_host::protocol::UPDATE_BUFFER);
    let display = progress::spawn(received);
    let mut options = CallOptions {
        progress: Some(updates.clone()),
        task_status: Some(progress::task_updates(updates)),
        // The person at the terminal decides when to give up: Ctrl-C.
        max_total: None,
        ..CallOptions::default()
    };
    if let Some(timeout) = args.timeout {
        options.timeout = timeout;
    }
    let call = ToolCall {
        tool: args.tool.clone(),
        arguments: args.args.clone().map(Value::Object),
        source: Source::User,
        caller: None,
    };
    let outcome = connection.call_tool(call, options, interrupted()).await;
    let outcome = connection.close(outcome).await;
    // The call is over, and its progress senders with it: the display ends.
    if let Err(e) = display.await {
        tracing::debug!("the progress display stopped: {e}");
    }
    let CallOutcome::Done(result) = outcome? else {
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

fn print_result(result: &gatehouse_host::protocol::CallToolResult) -> Result<(), HostError> {
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
