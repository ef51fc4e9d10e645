//! A server's input requests in a task it handed an agent (tasks extension: a task
//! `input_required`, its `inputRequests` shown by `tasks/get`, answered with `tasks/update`)
//! pass the gate as every server request does (`gate::from_server`): each, once, is received on
//! the audit log with the `server` source; one the agent declared it can answer (its request's
//! `_meta` capabilities) is put to it unless a rule denies the server's requests, and its answer
//! is on record (`answeredBy: agent`); one it did not declare goes to the person, as any
//! server request would. The gateway itself sends the server each answer (`tasks/update` with
//! that key), so only what passed the gate reaches it; the agent's `tasks/update` only hands
//! its answers to the requests waiting for it (others are ignored, "Ignore responses for unknown
//! or already-satisfied keys"). `tasks/get` shows the agent only what waits for it; with none,
//! the task is `working` to it (the server waits for the person, or for the answer just sent).
//! A request the gate refuses with an error (a rule denying the server's sampling or roots,
//! which no input response can refuse; nobody answering) cancels the task on its server
//! (`tasks/cancel`): it cannot go on as the server asked, and would otherwise wait to its expiry.
//! Each request's way through the gate is a task of its slot (`oversight::task_input_slots`),
//! aborted with it; an agent that never answers is given up on after [`ANSWER_WITHIN`].

use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::jsonrpc::codes;
use gatehouse_mcp::peer::Withdrawal;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use super::relay::answerable;
use super::replies::fail;
use crate::host::Host;
use crate::oversight::client_tasks::Held;
use crate::oversight::gate::Source;
use crate::oversight::gate::agent_relay::{AgentAnswers, within};
use crate::oversight::gate::from_server::Asked;
use crate::oversight::task_input_slots::{Phase, SlotKey};

/// How long a request put to the agent waits for its `tasks/update`.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(600);
/// How long `tasks/get` waits for the gate to decide a request the agent declared (an audit row
/// and a policy read; the person is never waited for here).
const SCREEN_WITHIN: Duration = Duration::from_secs(10);

/// The agent holding a task, as the answerer of one of its input requests.
struct TaskAgent {
    host: Arc<Host>,
    client: String,
    capabilities: Value,
    slot: SlotKey,
}

impl AgentAnswers for TaskAgent {
    fn client(&self) -> &str {
        &self.client
    }

    fn takes(&self, method: &str, params: Option<&Value>) -> bool {
        answerable(&self.capabilities, method, params)
    }

    fn ask(
        &self,
        _method: &str,
        _params: Option<Value>,
        _withdrawal: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let (answer, answered) = oneshot::channel();
        self.host
            .gateway_task_inputs()
            .wait_for_agent(&self.slot, answer);
        let client = self.client.clone();
        Box::pin(async move {
            match tokio::time::timeout(ANSWER_WITHIN, answered).await {
                Ok(Ok(answer)) => answer,
                _ => Err(fail(
                    codes::INTERNAL_ERROR,
                    format!("the agent `{client}` gave no answer in time"),
                )),
            }
        })
    }
}

/// The `tasks/get` result `got` of the task `id` as `client` (whose request declared
/// `capabilities`) may see it: each new input request started on its way through the gate,
/// and only those waiting for this agent shown.
pub async fn shown(
    host: &Arc<Host>,
    client: &str,
    capabilities: &Map<String, Value>,
    id: &str,
    held: &Held,
    mut got: Value,
) -> Value {
    if got.get("status").and_then(Value::as_str) != Some("input_required") {
        return got;
    }
    let requests = got
        .get("inputRequests")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let capabilities = Value::Object(capabilities.clone());
    let mut waiting = Map::new();
    for (key, request) in requests {
        let slot = (id.to_owned(), key.clone());
        let method = request
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let params = request.get("params").cloned();
        let declared = answerable(&capabilities, &method, params.as_ref());
        if host.gateway_task_inputs().open(&slot) {
            let agent = TaskAgent {
                host: host.clone(),
                client: client.to_owned(),
                capabilities: capabilities.clone(),
                slot: slot.clone(),
            };
            start(host, held, agent, method, params);
        }
        // What the agent did not declare is the person's; what it did is waited for until the
        // gate has put it to the agent or refused it.
        let Some(mut phase) = host.gateway_task_inputs().watch(&slot) else {
            continue;
        };
        if declared {
            let _ = tokio::time::timeout(SCREEN_WITHIN, phase.wait_for(|p| *p != Phase::Screening))
                .await;
        }
        if *phase.borrow() == Phase::ForAgent {
            waiting.insert(key, request);
        }
    }
    if let Some(fields) = got.as_object_mut() {
        if waiting.is_empty() {
            fields.insert("status".into(), json!("working"));
            fields.remove("inputRequests");
        } else {
            fields.insert("inputRequests".into(), Value::Object(waiting));
        }
    }
    got
}

/// Takes one input request through the gate, within its agent, then sends the server its
/// answer, unless it was refused with an error.
fn start(host: &Arc<Host>, held: &Held, agent: TaskAgent, method: String, params: Option<Value>) {
    let slot = agent.slot.clone();
    let (engine, held, key) = (host.clone(), held.clone(), slot.clone());
    let way = tokio::spawn(async move {
        let (host, slot) = (engine, key);
        let server = match host.server(&held.server_id).await {
            Ok(view) => view.config.name,
            Err(_) => held.server_id.clone(),
        };
        let asked = Asked {
            server: &server,
            server_id: &held.server_id,
            source: Source::Server,
            caller: None,
        };
        let answer = within(
            Arc::new(agent),
            host.gate()
                .answer_asked(asked, method, params, None, Withdrawal::never()),
        )
        .await;
        host.gateway_task_inputs().answered(&slot);
        // An answer goes to the server; a refusal (a rule denying the server's sampling or
        // roots, nobody answering), which an input response cannot carry, cancels the task
        // rather than leave it waiting for what will not come.
        let (method, params, what) = match answer {
            Ok(answer) => {
                let update = json!({
                    "taskId": held.server_task,
                    "inputResponses": { slot.1.clone(): answer },
                });
                ("tasks/update", update, "the answer to its task's input")
            }
            Err(refused) => {
                tracing::info!(
                    "cancelling `{server}`'s task {}: its input `{}` was refused ({})",
                    held.server_task,
                    slot.1,
                    refused.message
                );
                let cancel = json!({ "taskId": held.server_task });
                ("tasks/cancel", cancel, "the cancellation of its task")
            }
        };
        let sent = match host.live_client(&held.server_id).await {
            Ok(server) => server.task_request(method, params).await.map(drop),
            Err(e) => Err(gatehouse_mcp::McpError::Closed {
                reason: e.to_string(),
            }),
        };
        if let Err(e) = sent {
            tracing::warn!("cannot send `{server}` {what}: {e}");
        }
        host.gateway_task_inputs().close(&slot);
    });
    host.gateway_task_inputs().follow(&slot, way.abort_handle());
}

/// Hands the agent's `inputResponses` for the task `id` to the requests waiting for it.
pub fn answer(host: &Host, id: &str, responses: &Map<String, Value>) {
    for (key, response) in responses {
        if response.is_object() {
            host.gateway_task_inputs()
                .answer(&(id.to_owned(), key.clone()), response.clone());
        }
    }
}
