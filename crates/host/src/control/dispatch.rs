//! What each request on the control socket does. Everything that reaches a server goes through
//! the [`Host`] and its gate on the engine's live session, as the app's IPC does: the source is
//! `user` and the caller the face (`cli`), which the approval dialog and the audit log show.

use std::future::Future;
use std::time::Duration;

use gatehouse_mcp::{CallOptions, Progress, Task};
use serde_json::Value;
use tokio::sync::mpsc;

use super::answers;
use super::outbox::{Face, Outbox};
use super::protocol::{
    AgentsPauseState, CallParams, CallReply, EngineStatus, ErrorCode, Notice, Request, ServerState,
    TaskListing, WatchParams,
};
use super::shared::Shared;
use crate::connections::connection::ServerConnection;
use crate::connections::watching::WatchEvent;
use crate::error::{HostError, Result};
use crate::oversight::gate::{CallOutcome, Source, ToolCall};
use crate::vocabulary::events::EngineEvent;

/// Watch events waiting between the live session and the face's queue.
const WATCH_EVENTS: usize = 64;

pub(crate) async fn dispatch(
    shared: &Shared,
    face: &Face,
    id: u64,
    request: Request,
    cancel: impl Future<Output = ()>,
    outbox: &Outbox,
) -> Result<Value> {
    let host = &shared.host;
    match request {
        Request::Hello(_) => Err(HostError::Protocol("`hello` was already said".into())),
        // Taken by the connection before it gets here (see `face`).
        Request::Gateway(_) => Err(HostError::Protocol("`gateway` comes first".into())),
        Request::Status(_) => {
            let servers = host
                .list_servers()
                .await?
                .into_iter()
                .map(|view| ServerState {
                    name: view.config.name,
                    id: view.config.id,
                    status: view.status,
                })
                .collect();
            to_json(EngineStatus {
                engine: shared.info.clone(),
                servers,
                faces: shared.faces(),
            })
        }
        Request::ListTools(on) => {
            to_json(answers::tool_listing(&live(shared, face, &on.server).await?).await?)
        }
        Request::Ping(on) => to_json(answers::pong(&live(shared, face, &on.server).await?).await?),
        Request::Info(on) => to_json(answers::facts(&live(shared, face, &on.server).await?)),
        Request::ListResources(on) => {
            to_json(answers::resources(&live(shared, face, &on.server).await?).await?)
        }
        Request::ListTemplates(on) => {
            to_json(answers::templates(&live(shared, face, &on.server).await?).await?)
        }
        Request::ListPrompts(on) => {
            to_json(answers::prompts(&live(shared, face, &on.server).await?).await?)
        }
        Request::CallTool(params) => call(shared, face, id, params, cancel, outbox).await,
        Request::ReadResource(params) => {
            let connection = live(shared, face, &params.server).await?;
            to_json(answers::read(&connection, &params.uri).await?)
        }
        Request::GetPrompt(params) => {
            let connection = live(shared, face, &params.server).await?;
            to_json(answers::prompt(&connection, &params.name, &params.arguments).await?)
        }
        Request::Complete(params) => {
            let connection = live(shared, face, &params.server).await?;
            to_json(answers::complete(&connection, &params.ask).await?)
        }
        Request::ListTasks(on) => {
            let server = host.server(&on.server).await?.config.name;
            let tasks = host.tasks(&on.server).await?;
            to_json(TaskListing { server, tasks })
        }
        Request::Watch(params) => {
            watch(shared, id, params, cancel, outbox).await?;
            Ok(Value::Null)
        }
        Request::ListApprovals(_) => to_json(host.pending_approvals()),
        Request::AnswerApproval(params) => {
            host.answer_approval(&params.id, params.answer)?;
            Ok(Value::Null)
        }
        Request::WatchApprovals(_) => {
            watch_approvals(shared, id, cancel, outbox).await;
            Ok(Value::Null)
        }
        Request::AgentsPaused(_) => to_json(AgentsPauseState {
            paused: host.agents_paused(),
            changed: false,
        }),
        Request::SetAgentsPaused(params) => {
            let changed = host.set_agents_paused(params.paused).await?;
            to_json(AgentsPauseState {
                paused: host.agents_paused(),
                changed,
            })
        }
    }
}

/// The engine's live session with `server`, its requests named as the face's.
async fn live(shared: &Shared, face: &Face, server: &str) -> Result<ServerConnection> {
    let connection = shared.host.attached(server).await?;
    Ok(connection.with_caller(face.kind.as_str()))
}

/// Watches `params.server` on the live session, each event sent to the face, until cancelled.
async fn watch(
    shared: &Shared,
    id: u64,
    params: WatchParams,
    cancel: impl Future<Output = ()>,
    outbox: &Outbox,
) -> Result<()> {
    let (events, mut received) = mpsc::channel::<WatchEvent>(WATCH_EVENTS);
    let watched = shared.host.watch(&params.server, &params.resources, events);
    let forward = async {
        while let Some(event) = received.recv().await {
            let notice = Notice::Watched { request: id, event };
            if let Ok(notice) = serde_json::to_value(&notice) {
                // Waits for room: a face slow to read holds the watch back, and the watch
                // counts what it missed ([`WatchEvent::Dropped`]) instead of the queue growing.
                if !outbox.deliver(notice_message(notice)).await {
                    return;
                }
            }
        }
    };
    tokio::pin!(cancel);
    tokio::select! {
        (watched, ()) = async { tokio::join!(watched, forward) } => watched,
        () = &mut cancel => Ok(()),
    }
}

fn to_json(value: impl serde::Serialize) -> Result<Value> {
    serde_json::to_value(value).map_err(|e| HostError::Protocol(format!("cannot encode: {e}")))
}

/// A tool call on the live session, its progress and task statuses sent to the face as they come.
async fn call(
    shared: &Shared,
    face: &Face,
    id: u64,
    params: CallParams,
    cancel: impl Future<Output = ()>,
    outbox: &Outbox,
) -> Result<Value> {
    let (progress, mut progressed) =
        mpsc::channel::<Progress>(gatehouse_mcp::updates::UPDATE_BUFFER);
    let (tasks, mut tasked) = mpsc::channel::<Task>(gatehouse_mcp::updates::UPDATE_BUFFER);
    let mut options = CallOptions {
        progress: Some(progress),
        task_status: Some(tasks),
        ..CallOptions::default()
    };
    if let Some(ms) = params.timeout_ms {
        options.timeout = Duration::from_millis(ms.max(1));
    }
    let call = ToolCall {
        tool: params.tool.clone(),
        arguments: params.arguments.map(Value::Object),
        source: Source::User,
        caller: Some(face.kind.as_str().to_owned()),
    };
    let forward = async {
        let mut step = 0.0;
        loop {
            let notice = tokio::select! {
                Some(p) = progressed.recv() => Notice::Progress {
                    request: id,
                    progress: p.progress,
                    total: p.total,
                    message: p.message,
                },
                Some(task) = tasked.recv() => {
                    step += 1.0;
                    let detail = task.status_message.map(|m| format!(": {m}")).unwrap_or_default();
                    Notice::Progress {
                        request: id,
                        progress: step,
                        total: None,
                        message: Some(format!("task {}{detail}", task.status)),
                    }
                }
                else => return,
            };
            if let Ok(notice) = serde_json::to_value(&notice) {
                outbox.send(notice_message(notice));
            }
        }
    };
    // The configuration is read once: for the call, and for the reply's server name.
    let config = shared.host.registry().get_kept(&params.server).await?;
    let run = shared.host.call_tool_on(&config, call, options, cancel);
    // The call first: the poll in which it ends (its progress channels closing) ends the
    // forwarding too (see `oversight::gate::calls`).
    let (outcome, ()) = tokio::join!(biased; run, forward);
    match outcome? {
        CallOutcome::Done(result) => to_json(CallReply {
            server: config.name,
            tool: params.tool,
            content: result
                .content
                .iter()
                .map(serde_json::to_value)
                .collect::<std::result::Result<_, _>>()
                .map_err(|e| HostError::Protocol(e.to_string()))?,
            structured_content: result.structured_content,
            is_error: result.is_error,
            schema_problem: result.schema_problem,
        }),
        CallOutcome::Cancelled => Err(HostError::Remote {
            code: ErrorCode::Cancelled,
            message: format!("`{}` was cancelled on the server", params.tool),
        }),
    }
}

/// Sends the pending requests, then each one asked, answered or withdrawn, until cancelled.
async fn watch_approvals(
    shared: &Shared,
    id: u64,
    cancel: impl Future<Output = ()>,
    outbox: &Outbox,
) {
    let mut events = shared.host.subscribe();
    let send = |notice: Notice| {
        if let Ok(notice) = serde_json::to_value(&notice) {
            outbox.send(notice_message(notice));
        }
    };
    for approval in shared.host.pending_approvals() {
        send(Notice::ApprovalAsked {
            request: id,
            approval: Box::new(approval),
        });
    }
    tokio::pin!(cancel);
    loop {
        let event = tokio::select! {
            () = &mut cancel => return,
            event = events.recv() => event,
        };
        match event {
            Ok(EngineEvent::ApprovalAsked(approval)) => {
                send(Notice::ApprovalAsked {
                    request: id,
                    approval,
                });
            }
            Ok(EngineEvent::ApprovalAnswered {
                id: answered,
                answer,
            }) => {
                send(Notice::ApprovalAnswered {
                    request: id,
                    id: answered,
                    answer,
                });
            }
            Ok(EngineEvent::ApprovalWithdrawn {
                id: withdrawn,
                reason,
            }) => {
                send(Notice::ApprovalWithdrawn {
                    request: id,
                    id: withdrawn,
                    reason,
                });
            }
            Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        }
    }
}

/// A notice as a JSON-RPC notification.
fn notice_message(mut notice: Value) -> Value {
    if let Value::Object(map) = &mut notice {
        map.insert("jsonrpc".into(), Value::from("2.0"));
    }
    notice
}
