//! An agent's `tools/call` through the gateway: the tool routed by its exposed name and called
//! through the gate ([`super::tools::call`]), the call's progress forwarded to the agent as
//! `notifications/progress` under its token, and the outcome as the agent sees it: a denial as
//! a result with `isError` and a text the model can act on, other failures as JSON-RPC errors.
//! A profile that does not ask the person for the agent ([`super::profiles::Profile::asks_person`])
//! makes the call offer a server only what the agent can answer.

use std::sync::Arc;

use gatehouse_mcp::{CallOptions, McpError, Progress, TaskHandling};
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use super::profiles::Served;
use super::replies::{Reply, denied, fail, refusal, rpc, tool_error};
use super::tools;
use super::visibility::PROFILE_RULE;
use crate::error::HostError;
use crate::host::Host;
use crate::oversight::gate::agent_relay::AgentAnswers;
use crate::vocabulary::given_input;

/// Calls the tool `params` names for the agent, forwarding the call's progress to it; `None`
/// when the agent cancelled the call.
pub(super) async fn call(
    host: &Arc<Host>,
    relay: Arc<dyn AgentAnswers>,
    served: &Served,
    params: Value,
    cancelled: watch::Receiver<bool>,
    out: &mpsc::Sender<Value>,
) -> Reply {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Some(Err(fail(
            rpc::INVALID_PARAMS,
            "`name` is missing".to_owned(),
        )));
    };
    let arguments = params.get("arguments").cloned();
    // Answers given before the server asked go to it with the call, on record (`given_input`).
    let given = params
        .get("inputResponses")
        .filter(|_| params.get("requestState").is_none())
        .and_then(Value::as_object)
        .filter(|given| !given.is_empty())
        .cloned();
    if given.as_ref().is_some_and(|given| {
        serde_json::to_vec(given).map_or(true, |bytes| bytes.len() > given_input::MAX_BYTES)
    }) {
        return Some(Err(fail(
            rpc::INVALID_PARAMS,
            format!(
                "`inputResponses` given before any was asked may hold at most {} bytes",
                given_input::MAX_BYTES
            ),
        )));
    }
    let token = params.pointer("/_meta/progressToken").cloned();
    let (progress, mut progressed) =
        mpsc::channel::<Progress>(gatehouse_mcp::updates::UPDATE_BUFFER);
    // A 2026-07-28 agent's declaration of the tasks extension is the server's to see: with it
    // the server's task comes back as a task (`super::task_handles`), without it the server
    // answers as to a client without the extension; a 2025-era agent's call follows a task to
    // its end.
    let tasks = match super::task_handles::declared(&params) {
        Some(true) => TaskHandling::Return,
        Some(false) => TaskHandling::Undeclared,
        None => TaskHandling::Follow,
    };
    // A profile that does not ask the person for the agent: a 2026-07-28 server is not offered
    // what the agent cannot answer (and what an older server asks of it is refused:
    // `relay::as_profiled`).
    let withheld = if served.profile.asks_person() {
        Vec::new()
    } else {
        unanswerable(relay.as_ref())
    };
    let options = CallOptions {
        progress: token.is_some().then_some(progress),
        tasks,
        withheld,
        input_responses: given.clone(),
        ..CallOptions::default()
    };
    let forward = async {
        let Some(token) = &token else { return };
        while let Some(p) = progressed.recv().await {
            let mut params = json!({ "progressToken": token, "progress": p.progress });
            if let Some(total) = p.total {
                params["total"] = json!(total);
            }
            if let Some(message) = p.message {
                params["message"] = json!(message);
            }
            let notice =
                json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": params });
            if out.send(notice).await.is_err() {
                return;
            }
        }
    };
    let cancel = async move {
        let mut cancelled = cancelled;
        let _ = cancelled.wait_for(|set| *set).await;
    };
    let run = given_input::scope(
        given,
        tools::call(host, served, relay, name, arguments, options, cancel),
    );
    // The call first: the poll in which it ends (its progress channel closing) ends the
    // forwarding too (see `oversight::gate::calls`).
    let (outcome, ()) = tokio::join!(biased; run, forward);
    match outcome {
        Ok(Some(result)) => Some(Ok(result)),
        Ok(None) => None,
        Err(HostError::Denied {
            reason,
            rule: Some(rule),
        }) if rule == PROFILE_RULE => Some(Ok(tool_error(reason))),
        Err(HostError::Denied { reason, .. }) => Some(Ok(denied(name, &reason))),
        // The server needs a capability the call did not declare (the tasks extension the
        // agent did not declare, or what its profile withheld): the agent is told so.
        Err(HostError::Connection(McpError::Rpc { error, .. }))
            if error.code == super::modern::code::MISSING_CLIENT_CAPABILITY =>
        {
            Some(Err(*error))
        }
        Err(e) => Some(Err(refusal(e))),
    }
}

/// The capabilities the person could answer for that `agent` cannot answer itself.
fn unanswerable(agent: &dyn AgentAnswers) -> Vec<String> {
    let url = json!({ "mode": "url" });
    let mut withheld = Vec::new();
    if !agent.takes("sampling/createMessage", None) {
        withheld.push("sampling".to_owned());
    }
    if !agent.takes("elicitation/create", None) && !agent.takes("elicitation/create", Some(&url)) {
        withheld.push("elicitation".to_owned());
    }
    withheld
}
