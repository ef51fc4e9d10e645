//! The engine's commands: `gatehouse serve` (the engine with no window, until SIGTERM or
//! Ctrl-C) and `gatehouse status` (whether one runs, where, since when, its servers and faces),
//! and the attached forms of the commands a running engine serves (`tools`, `call`): they use
//! its live session, so no second copy of the server is started.

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse_host::control::client::ControlClient;
use gatehouse_host::control::engine::Engine;
use gatehouse_host::control::lock::{EngineKind, EngineLock};
use gatehouse_host::control::protocol::{CallParams, ErrorCode, FaceKind, Notice};
use gatehouse_host::protocol::{Content, Progress};
use gatehouse_host::{Host, HostError, HostOptions};
use serde_json::json;
use tokio::sync::mpsc;

use crate::args::CallArgs;
use crate::ctrl_c::interrupted;
use crate::finish::Finish;
use crate::{output, progress};

/// Attaches to the engine of the data directory, if one runs.
pub async fn attach(
    data_dir: Option<&std::path::Path>,
) -> Result<Option<ControlClient>, HostError> {
    ControlClient::connect(data_dir, FaceKind::Cli, "gatehouse").await
}

/// `gatehouse serve`.
pub async fn serve(data_dir: Option<PathBuf>) -> Result<Finish, HostError> {
    let lock = EngineLock::acquire(data_dir.as_deref(), EngineKind::Serve)?;
    let host = Arc::new(
        Host::open(HostOptions {
            data_dir,
            live_sessions: true,
            ..Default::default()
        })
        .await?,
    );
    // A request that needs a person waits for an answer (`gatehouse approvals`), and is denied
    // after the approval timeout when nobody gives one, as in the app.
    host.set_attended(true);
    host.start().await?;
    let engine = Engine::serve(lock, host.clone()).await?;
    if let Some(info) = engine.info() {
        say_err!(
            "gatehouse serve: engine pid {} on {}",
            info.pid,
            info.socket.display()
        );
    }
    stopped().await;
    engine.stop().await;
    host.shutdown().await;
    Ok(Finish::Success)
}

/// Resolves on SIGTERM or SIGINT.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            _ => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// `gatehouse status [--json]`.
pub async fn status(data_dir: Option<PathBuf>, json: bool) -> Result<Finish, HostError> {
    let Some(client) = attach(data_dir.as_deref()).await? else {
        if json {
            output::print_json(&json!({ "running": false }))?;
        } else {
            say!("no engine runs on this data directory");
        }
        return Ok(Finish::Success);
    };
    let status = client.status().await?;
    if json {
        output::print_json(&json!({
            "running": true,
            "kind": status.engine.kind,
            "pid": status.engine.pid,
            "since": status.engine.since,
            "socket": status.engine.socket,
            "dataDir": status.engine.data_dir,
            "version": status.engine.version,
            "servers": status.servers,
            "faces": status.faces,
        }))?;
        return Ok(Finish::Success);
    }
    let engine = &status.engine;
    say!(
        "engine: gatehouse {} pid {} since {} on {}",
        engine.kind.as_str(),
        engine.pid,
        engine.since,
        engine.socket.display()
    );
    let rows: Vec<[String; 2]> = status
        .servers
        .iter()
        .map(|s| {
            let state = serde_json::to_value(&s.status)
                .ok()
                .and_then(|v| v.get("state").and_then(|s| s.as_str().map(str::to_owned)))
                .unwrap_or_default();
            [output::name(&s.name), state]
        })
        .collect();
    output::print_table(["SERVER", "STATUS"], &rows);
    for face in &status.faces {
        say!(
            "face: {} {} pid {} since {}",
            face.face.as_str(),
            output::name(&face.name),
            face.pid,
            face.since
        );
    }
    Ok(Finish::Success)
}

/// `gatehouse call` through the running engine: progress as in-process, Ctrl-C cancels (130).
pub async fn call(client: &ControlClient, args: CallArgs) -> Result<Finish, HostError> {
    let (updates, received) = mpsc::channel(gatehouse_host::protocol::UPDATE_BUFFER);
    let display = progress::spawn(received);
    let (notices, mut noticed) = mpsc::channel::<Notice>(gatehouse_host::protocol::UPDATE_BUFFER);
    let forward = tokio::spawn(async move {
        while let Some(notice) = noticed.recv().await {
            if let Notice::Progress {
                progress,
                total,
                message,
                ..
            } = notice
            {
                let _ = updates
                    .send(Progress {
                        progress,
                        total,
                        message,
                    })
                    .await;
            }
        }
    });
    let params = CallParams {
        server: args.server.clone(),
        tool: args.tool.clone(),
        arguments: args.args.clone(),
        timeout_ms: args
            .timeout
            .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
    };
    let outcome = client.call_tool(params, notices, interrupted()).await;
    let _ = forward.await;
    let _ = display.await;
    let reply = match outcome {
        Err(HostError::Remote {
            code: ErrorCode::Cancelled,
            ..
        }) => {
            say_err!(
                "error: interrupted; `{}` was cancelled on the server",
                args.tool
            );
            return Ok(Finish::Interrupted);
        }
        other => other?,
    };
    if let Some(problem) = &reply.schema_problem {
        say_err!("warning: {problem}");
    }
    if args.json {
        output::print_json(&json!({
            "server": reply.server,
            "tool": reply.tool,
            "content": reply.content,
            "structuredContent": reply.structured_content,
            "isError": reply.is_error,
            "schemaProblem": reply.schema_problem,
        }))?;
    } else {
        for block in &reply.content {
            say!(
                "{}",
                output::describe_content(&Content::parse(block.clone()))
            );
        }
        if let Some(structured) = &reply.structured_content {
            if !reply.content.is_empty() {
                say!("structuredContent:");
            }
            output::print_json(structured)?;
        }
    }
    if reply.is_error {
        say_err!("error: `{}` reported an error (isError)", args.tool);
        return Ok(Finish::ToolError);
    }
    Ok(Finish::Success)
}
