//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) served to 2026-07-28 agents:
//! when an agent declares it in its request's `_meta` and the server makes its `tools/call` a
//! task, the agent gets the server's `CreateTaskResult` under a task id of the gateway's own
//! (bound to that client, kept by `oversight::client_tasks`). `tasks/get`, `tasks/update` and
//! `tasks/cancel` ([`serve`]) are forwarded to that server with its own id, and its answer
//! comes back under the gateway's; an id the client was not given (another client's, or
//! unknown) is refused with `-32602` without reaching any server. A request that does not
//! declare the extension is refused with `MissingRequiredClientCapability` (`-32021`). A task's
//! input requests pass the gate on their way to the agent, and its answers on their way back
//! (`task_inputs`): `tasks/update` is not forwarded as it came. The engine follows each task
//! itself too (`task_follow`), so its end is on record once, whoever sees it first.

use gatehouse_mcp::McpError;
use gatehouse_mcp::era::{META_CLIENT_CAPABILITIES, TASKS_EXTENSION};
use serde_json::{Map, Value, json};
use tokio::time::Instant;

use std::sync::Arc;

use super::modern::code;
use super::replies::{Reply, fail, refusal};
use super::task_inputs;
use crate::error::HostError;
use crate::host::Host;
use crate::oversight::task_ends::{self, End, Seer};

/// The methods an agent sends about a task it holds.
pub use gatehouse_mcp::features::task_handles::TASK_METHODS;

/// Whether a 2026-07-28 request's `_meta` declares the tasks extension; `None` for a request
/// that carries no client capabilities (a 2025-era one).
pub fn declared(params: &Value) -> Option<bool> {
    let capabilities = params.get("_meta")?.get(META_CLIENT_CAPABILITIES)?;
    Some(
        capabilities
            .pointer(&format!(
                "/extensions/{}",
                TASKS_EXTENSION.replace('/', "~1")
            ))
            .is_some(),
    )
}

/// `MissingRequiredClientCapability`, naming the extension.
fn missing() -> Reply {
    Some(Err(fail(
        code::MISSING_CLIENT_CAPABILITY,
        format!(
            "Missing required client capability: declare the `{TASKS_EXTENSION}` extension in the request's `_meta` clientCapabilities"
        ),
    )))
}

fn not_found(method: &str) -> Reply {
    Some(Err(fail(
        code::INVALID_PARAMS,
        format!("Invalid params: {method}: no such task for this client"),
    )))
}

/// Serves `tasks/get`, `tasks/update` or `tasks/cancel` for `client`, whose request declared
/// `capabilities`: forwarded to the server that made the task, its answer under the
/// gateway's id.
pub async fn serve(
    host: &Arc<Host>,
    client: &str,
    capabilities: &Map<String, Value>,
    method: &str,
    params: &Value,
) -> Reply {
    let declares = capabilities
        .get("extensions")
        .and_then(|e| e.get(TASKS_EXTENSION))
        .is_some();
    if !declares {
        return missing();
    }
    let Some(id) = params.get("taskId").and_then(Value::as_str) else {
        return Some(Err(fail(
            code::INVALID_PARAMS,
            "Invalid params: `taskId` is missing".to_owned(),
        )));
    };
    let Some(held) = host.gateway_tasks().find(client, id, Instant::now()) else {
        return not_found(method);
    };
    if method == "tasks/update" {
        // The agent's answers go to the requests waiting for it; the gateway sends the server
        // each one once it has passed the gate (`task_inputs`).
        match params.get("inputResponses") {
            None | Some(Value::Null) => {}
            Some(Value::Object(responses)) => task_inputs::answer(host, id, responses),
            Some(_) => {
                return Some(Err(fail(
                    code::INVALID_PARAMS,
                    "Invalid params: `inputResponses` is not an object".to_owned(),
                )));
            }
        }
        return Some(Ok(json!({})));
    }
    let mut forwarded = Map::new();
    forwarded.insert("taskId".into(), json!(held.server_task));
    let answered = async {
        let server = host.live_client(&held.server_id).await?;
        Ok::<_, HostError>(
            server
                .task_request(method, Value::Object(forwarded))
                .await?,
        )
    };
    match answered.await {
        Ok(mut result) => {
            if let Some(fields) = result.as_object_mut()
                && fields.contains_key("taskId")
            {
                fields.insert("taskId".into(), json!(id));
            }
            if method == "tasks/get" {
                ended_on_record(host, id, &result).await;
                result = task_inputs::shown(host, client, capabilities, id, &held, result).await;
            }
            Some(Ok(result))
        }
        Err(HostError::Connection(McpError::Rpc { error, .. })) => Some(Err(*error)),
        Err(e) => Some(Err(refusal(e))),
    }
}

/// The end of a task the agent sees terminal, on the audit log once (`task_ends`), unless the
/// engine's follow-up saw it first (`task_follow`); any other status is the last one known.
async fn ended_on_record(host: &Host, id: &str, got: &Value) {
    let status = got
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !task_ends::terminal(status) {
        host.gateway_tasks().saw(id, status);
        return;
    }
    if let Some(held) = host.gateway_tasks().end(id) {
        let end = End::Seen {
            got,
            by: Seer::Agent,
        };
        task_ends::record(host.audit(), id, &held, end).await;
        host.gateway_task_inputs().close_task(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_is_read_from_the_requests_client_capabilities() {
        let with = json!({ "_meta": { META_CLIENT_CAPABILITIES: { "extensions": { TASKS_EXTENSION: {} } } } });
        let without = json!({ "_meta": { META_CLIENT_CAPABILITIES: { "elicitation": {} } } });
        assert_eq!(declared(&with), Some(true));
        assert_eq!(declared(&without), Some(false));
        assert_eq!(declared(&json!({ "_meta": { "progressToken": 1 } })), None);
    }
}
