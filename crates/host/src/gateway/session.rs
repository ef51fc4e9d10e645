//! One agent's MCP session with the gateway: Gatehouse as an MCP server (2024-11-05 through
//! 2025-11-25, the `initialize` handshake; 2025-11-25 basic/lifecycle), reading the agent's
//! JSON-RPC messages one per line and answering through a bounded queue. It serves `ping`, the
//! tools, prompts, resources and resource templates of every enabled server (named by
//! [`super::names`]; URIs as the servers gave them), `completion/complete`, and `tools/call`,
//! which goes through [`Host::call_tool`] and so the gate with source `gateway` and the client's
//! name as the caller: policy, approvals, grants per client, the audit log (prompts, reads and
//! completions pass the same gate).
//! The agent's `notifications/cancelled` cancels its call on the server; the agent going away
//! cancels every call it still has running. A server connecting, listing new tools or going
//! away sends the agent `notifications/tools/list_changed` (2025-11-25 server/tools, "List
//! Changed Notification"), within [`CHANGES_SETTLE`] of it. The client's profile
//! ([`super::profiles`]) decides what it is served, and is read again when any profile changes
//! (the agent told when its list did); its limits (requests in flight and per minute across its
//! sessions, message size) refuse what is over them at once. The `clientInfo` of `initialize`
//! goes into every audit row of the session's requests. A 2026-07-28 request (no `initialize`,
//! its version, capabilities and `clientInfo` in its own `_meta`) is served alongside, checked
//! and stamped by [`super::modern`]; its `subscriptions/listen` streams are [`super::listen`]'s.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use gatehouse_mcp::transport::lines::{Line, LineReader};
use serde_json::{Value, json};
use tokio::io::AsyncBufRead;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, watch};

use super::changes::{Changed, List, ToolChanges};
use super::notices::{Notices, Told};
use super::profiles::Served;
use super::relay::AgentLink;
use super::replies::{Reply, caught, error, fail, finish, panicked, refusal, rpc};
use super::running::Running;
use super::tasks::AgentTasks;
use super::{agent_call, completion, handshake, pages, prompts, resources, servers, tools};
use super::{input_required, listen, modern, task_handles};
use crate::host::Host;
use crate::oversight::gate::agent_relay::AgentAnswers;
use crate::vocabulary::caller_info;
use crate::vocabulary::events::EngineEvent;

/// What an agent's requests running when the engine stops are answered.
const STOPPING: &str = "Gatehouse is stopping (the app quit or `gatehouse serve` was stopped); the request was cancelled on the server";
/// How long changes gather before the agent is told its tools changed.
const CHANGES_SETTLE: std::time::Duration = std::time::Duration::from_millis(100);
/// How long the calls of an agent that went away may take to end once cancelled.
const CANCEL_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// What an agent is answered when its profile cannot be read.
const NO_PROFILE: &str = "Gatehouse cannot read this client's profile; try again";

/// Who the agent is, as the person named it (`gatehouse mcp --client NAME`).
#[derive(Debug, Clone)]
pub struct Agent {
    pub client: String,
}

type InFlight = Arc<Mutex<HashMap<String, watch::Sender<bool>>>>;

/// What the session's requests share beyond the agent's name and profile: its side of the
/// servers' requests ([`super::relay`]) and what it is told of them ([`super::notices`]).
struct AgentSide {
    link: Arc<AgentLink>,
    notices: Arc<Notices>,
    tasks: Arc<AgentTasks>,
}

/// Serves one agent until it closes its side or `stop` is set, then cancels what it still runs.
pub async fn serve<R: AsyncBufRead + Unpin>(
    host: Arc<Host>,
    agent: Agent,
    mut lines: LineReader<R>,
    out: mpsc::Sender<Value>,
    mut stop: watch::Receiver<bool>,
) {
    // The client is attached while this session runs (the Clients page shows it).
    let _present = host.gateway_presence().enter(&agent.client);
    let in_flight: InFlight = Arc::default();
    let mut requests = Running::new();
    // Set when the engine stops: the requests it cancels are answered with an error saying so.
    let stopping = Arc::new(AtomicBool::new(false));
    // Changes to the agent's tools, told once it has been answered `initialize`, at most one
    // notification per [`CHANGES_SETTLE`].
    let mut events = host.subscribe();
    let mut changes = ToolChanges::from_connected(servers::connected_ids(&host).await);
    let mut changed = Changed::default();
    let side = Arc::new(AgentSide {
        link: AgentLink::new(&agent.client, out.clone()),
        notices: Arc::default(),
        tasks: Arc::default(),
    });
    // The servers' log messages, resource updates and list changes.
    let mut heard = host.gate().agent_notices().listen();
    let mut initialized = false;
    // The agent's `subscriptions/listen` streams (2026-07-28).
    let listening = Arc::new(listen::Listeners::default());
    let mut changed_at: Option<tokio::time::Instant> = None;
    let mut served = Served::read(&host, &agent.client).await;
    // What the agent said of itself in `initialize`.
    let mut client_info: Option<Value> = None;
    loop {
        let settled = async {
            match changed_at {
                Some(at) => tokio::time::sleep_until(at + CHANGES_SETTLE).await,
                None => std::future::pending().await,
            }
        };
        let line = tokio::select! {
            line = lines.next_line() => line,
            () = requests.next(), if !requests.is_empty() => continue,
            () = async { let _ = stop.wait_for(|stop| *stop).await; } => {
                stopping.store(true, Ordering::Release);
                break;
            }
            event = events.recv() => {
                let mut lists_changed = changes.changed_by(&event);
                if matches!(event, Ok(EngineEvent::ClientProfilesChanged) | Err(RecvError::Lagged(_)))
                    && let Some(now) = Served::read(&host, &agent.client).await
                {
                    lists_changed |= served.as_ref().is_none_or(|before| {
                        !before.profile.shows_the_same(&now.profile) || before.prefix != now.prefix
                    });
                    served = Some(now);
                }
                if lists_changed && changed.add(&List::ALL) {
                    changed_at = Some(tokio::time::Instant::now());
                }
                continue;
            }
            note = heard.recv() => {
                let told = match note {
                    Ok(note) => side.notices.told(&note),
                    // Missed notifications may have been list changes.
                    Err(RecvError::Lagged(_)) => Told::Changed(None),
                    Err(RecvError::Closed) => break,
                };
                let lists = match told {
                    Told::Send(notice) => {
                        let mut sent = listening.updated(&notice);
                        if initialized {
                            sent.push(notice);
                        }
                        if !send_all(&out, sent).await {
                            break;
                        }
                        continue;
                    }
                    Told::Changed(Some(list)) => vec![list],
                    Told::Changed(None) => List::ALL.to_vec(),
                    Told::Nothing => continue,
                };
                if changed.add(&lists) {
                    changed_at = Some(tokio::time::Instant::now());
                }
                continue;
            }
            () = settled, if initialized || !listening.is_empty() => {
                changed_at = None;
                for list in changed.take() {
                    let mut sent = listening.changed(list);
                    if initialized {
                        sent.push(list.notification());
                    }
                    if !send_all(&out, sent).await {
                        break;
                    }
                }
                continue;
            }
        };
        let bytes = match line {
            Ok(Some(Line::Data(bytes))) => bytes,
            Ok(Some(Line::TooLong { len, .. })) => {
                let why = format!("a message of {len} bytes is over the gateway's limit");
                let _ = out
                    .send(error(Value::Null, rpc::INVALID_REQUEST, &why))
                    .await;
                continue;
            }
            Ok(None) | Err(_) => break,
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let message: Value = match serde_json::from_slice(&bytes) {
            Ok(Value::Object(message)) => Value::Object(message),
            Ok(_) | Err(_) => {
                let why = "not a JSON-RPC message";
                let _ = out.send(error(Value::Null, rpc::PARSE_ERROR, why)).await;
                continue;
            }
        };
        let limits = served
            .as_ref()
            .map(|served| served.profile.limits())
            .unwrap_or_else(|| super::profiles::Profile::default().limits());
        if bytes.len() > limits.max_message_bytes as usize {
            let why = format!(
                "a message of {} bytes is over client `{}`'s limit of {} bytes (the person can raise it: `gatehouse clients profile {} --max-message-bytes N`)",
                bytes.len(),
                agent.client,
                limits.max_message_bytes,
                agent.client
            );
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            let _ = out.send(error(id, rpc::INVALID_REQUEST, &why)).await;
            continue;
        }
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let id = message.get("id").cloned();
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        // A 2026-07-28 request: its `_meta` checked, then served as the era wants.
        let modern = match (modern::is_modern(&message), &id) {
            (true, Some(id)) => match modern::request_meta(&params) {
                Ok(meta) => Some(meta),
                Err(refused) => {
                    let refused = json!({ "jsonrpc": "2.0", "id": id, "error": refused.error() });
                    let _ = out.send(refused).await;
                    continue;
                }
            },
            _ => None,
        };
        match (method, id) {
            (Some(method), Some(id)) if modern.is_some() && method == "subscriptions/listen" => {
                let Some(served) = served.clone() else {
                    let _ = out.send(error(id, rpc::INTERNAL, NO_PROFILE)).await;
                    continue;
                };
                let (host, client, out) = (host.clone(), agent.client.clone(), out.clone());
                let (side, listening) = (side.clone(), listening.clone());
                requests.push(Box::pin(async move {
                    let notices = &side.notices;
                    let told =
                        listen::open(&host, &client, &served, notices, &listening, &id, &params);
                    let told = caught(&method, told).await;
                    let _ = out
                        .send(told.unwrap_or_else(|| finish(id, Err(panicked(&method)))))
                        .await;
                }));
            }
            (Some(method), Some(id)) => {
                if method == "initialize" && modern.is_none() {
                    initialized = true;
                    side.link.initialized(&params);
                    client_info = caller_info::from_initialize(&params);
                }
                let now = tokio::time::Instant::now();
                let admitted = match host.gateway_limits().admit(&agent.client, &limits, now) {
                    Ok(admitted) => admitted,
                    Err(over) => {
                        let why = over.message(&agent.client);
                        let _ = out.send(error(id, rpc::LIMITED, &why)).await;
                        continue;
                    }
                };
                let key = id.to_string();
                let (cancel, cancelled) = watch::channel(false);
                in_flight
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key.clone(), cancel);
                let (host, agent, out, in_flight, stopping, side, served, info) = (
                    host.clone(),
                    agent.clone(),
                    out.clone(),
                    in_flight.clone(),
                    stopping.clone(),
                    side.clone(),
                    served.clone(),
                    modern
                        .as_ref()
                        .map_or(client_info.clone(), |m| m.client_info.clone()),
                );
                let asked = modern.is_some().then(|| params.clone());
                let modern = modern.clone();
                let mut params = params;
                if let (Some(_), Some(fields)) = (&asked, params.as_object_mut()) {
                    // 2026-07-28 has no `task` augmentation (the tasks extension ignores it,
                    // SEP-2663): the 2025-11-25 tasks below are the legacy eras' alone.
                    fields.remove("task");
                }
                requests.push(Box::pin(async move {
                    let reply = match served {
                        Some(served) => {
                            let work = async {
                                if asked.is_some()
                                    && let Some(early) =
                                        Box::pin(modern::before(&host, &served, &method)).await
                                {
                                    return Some(early);
                                }
                                if asked.is_none()
                                    && let Some(answered) =
                                        Box::pin(side.tasks.answer(&method, &params)).await
                                {
                                    return Some(answered);
                                }
                                // The tasks extension's requests about a task the agent holds.
                                if let Some(meta) = &modern
                                    && task_handles::TASK_METHODS.contains(&method.as_str())
                                {
                                    let caps = &meta.capabilities;
                                    let serving = task_handles::serve(
                                        &host,
                                        &agent.client,
                                        caps,
                                        &method,
                                        &params,
                                    );
                                    return Box::pin(serving).await;
                                }
                                // A server's requests as the era's input requests.
                                if let Some(meta) = &modern
                                    && input_required::wanted(&method, &params, &meta.capabilities)
                                {
                                    let caps = &meta.capabilities;
                                    let (client, served) = (&agent.client, &served);
                                    let run = input_required::call_of(
                                        &host, client, served, &method, &params,
                                    );
                                    let calls = host.gate().parked_calls();
                                    let serving = input_required::serve(
                                        calls, client, caps, &method, &params, cancelled, &out, run,
                                    );
                                    return Box::pin(serving).await;
                                }
                                let link = side.link.for_request(&key);
                                answer(
                                    &host, &agent, &side, &served, link, &method, params,
                                    cancelled, &out,
                                )
                                .await
                            };
                            let caught = caught(&method, caller_info::scope(info, work)).await;
                            caught.unwrap_or_else(|| Some(Err(panicked(&method))))
                        }
                        None => Some(Err(fail(rpc::INTERNAL, NO_PROFILE.to_owned()))),
                    };
                    // No longer in flight once answered: the agent may send the next at once.
                    drop(admitted);
                    in_flight
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .remove(&key);
                    // A request the agent cancelled is not answered (2025-11-25
                    // utilities/cancellation); one the engine's stop cancelled is, with an error.
                    let reply = reply.or_else(|| {
                        stopping
                            .load(Ordering::Acquire)
                            .then(|| Err(fail(rpc::INTERNAL, STOPPING.to_owned())))
                    });
                    if let Some(reply) = reply {
                        let response = match &asked {
                            Some(asked) => modern::respond(&method, asked, finish(id, reply)),
                            None => finish(id, reply),
                        };
                        let _ = out.send(response).await;
                    }
                }));
            }
            (Some(method), None) => {
                if method == "notifications/cancelled"
                    && let Some(id) = params.get("requestId")
                    && !listening.cancel(id)
                    && let Some(cancel) = in_flight
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get(&id.to_string())
                {
                    let _ = cancel.send(true);
                }
                // `notifications/initialized` and others need nothing.
            }
            // A response: the agent's answer to a server's request (`super::relay`).
            (None, _) => side.link.answered(&message),
        }
    }
    if stopping.load(Ordering::Acquire) {
        let _ = send_all(&out, listening.close_all()).await;
    }
    side.link.close();
    side.notices.leave(&host).await;
    for cancel in in_flight
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .values()
    {
        let _ = cancel.send(true);
    }
    // Cancelled calls (and tasks) end at once; one that does not is cut after a grace.
    let requests_end = async {
        let ended = async {
            while !requests.is_empty() {
                requests.next().await;
            }
        };
        let _ = tokio::time::timeout(CANCEL_GRACE, ended).await;
        // What is still running is dropped here.
        drop(requests);
    };
    tokio::join!(requests_end, side.tasks.stop(CANCEL_GRACE));
}

#[allow(clippy::too_many_arguments)]
async fn answer(
    host: &Arc<Host>,
    agent: &Agent,
    side: &Arc<AgentSide>,
    served: &Arc<Served>,
    link: Arc<dyn AgentAnswers>,
    method: &str,
    mut params: Value,
    cancelled: watch::Receiver<bool>,
    out: &mpsc::Sender<Value>,
) -> Reply {
    // Each method's work is boxed: the future of a request is then as large as the one method
    // it runs needs, not the largest of them all (unboxed, every request's task was over
    // 200 KiB, allocated and copied per call; see docs/performance.md).
    let answered = match method {
        "initialize" => {
            return Some(Ok(
                Box::pin(handshake::initialize(host, served, &params)).await
            ));
        }
        "ping" => return Some(Ok(json!({}))),
        // A call made a task (2025-11-25 utilities/tasks): answered at once, run in the background.
        "tools/call" if params.get("task").is_some_and(Value::is_object) => {
            let (asked, tasks) = (params["task"].take(), side.tasks.clone());
            let (host, served, out) = (host.clone(), served.clone(), out.clone());
            let run = move |cancelled| async move {
                agent_call::call(&host, link, &served, params, cancelled, &out).await
            };
            return Some(tasks.start(&asked, tokio::time::Instant::now(), run));
        }
        "tools/call" => {
            return Box::pin(agent_call::call(host, link, served, params, cancelled, out)).await;
        }
        "tools/list" => Box::pin(tools::list(host, &agent.client, served))
            .await
            .and_then(|tools| pages::page("tools", tools, &params, pages::page_size())),
        "prompts/list" => Box::pin(prompts::list(host, &agent.client, served))
            .await
            .and_then(|prompts| pages::page("prompts", prompts, &params, pages::page_size())),
        "prompts/get" => Box::pin(prompts::get(host, &agent.client, served, link, &params)).await,
        "resources/list" => Box::pin(resources::list(host, &agent.client, served, false))
            .await
            .and_then(|items| pages::page("resources", items, &params, pages::page_size())),
        "resources/templates/list" => Box::pin(resources::list(host, &agent.client, served, true))
            .await
            .and_then(|items| pages::page("resourceTemplates", items, &params, pages::page_size())),
        "resources/subscribe" => {
            let notices = &side.notices;
            Box::pin(notices.subscribe(host, &agent.client, served, &params)).await
        }
        "resources/unsubscribe" => Box::pin(side.notices.unsubscribe(host, &params)).await,
        "logging/setLevel" => side.notices.set_level(&params),
        "resources/read" => {
            Box::pin(resources::read(host, &agent.client, served, link, &params)).await
        }
        "completion/complete" => {
            Box::pin(completion::complete(host, &agent.client, served, &params)).await
        }
        other => {
            return Some(Err(fail(
                rpc::METHOD_NOT_FOUND,
                format!("the gateway does not serve `{other}`"),
            )));
        }
    };
    Some(answered.map_err(refusal))
}

/// Sends `messages` in order; false when the agent's side has gone.
async fn send_all(out: &mpsc::Sender<Value>, messages: Vec<Value>) -> bool {
    for message in messages {
        if out.send(message).await.is_err() {
            return false;
        }
    }
    true
}
