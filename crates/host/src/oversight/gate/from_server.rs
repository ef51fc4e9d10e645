//! Requests a server sends to the host (sampling, form and URL elicitation, `roots/list`, and the
//! input requests of multi round-trip results, which reach the same handler) pass the gate too,
//! through the [`AuditedHandler`] that wraps the handler of every connection (live sessions and
//! `ServerConnection`): each is written to the audit log with the `server` source before it is
//! answered, and its answer (or refusal) is on record before it goes back to the server. Sampling
//! and elicitation are put to the person through the approval queue ([`super::person`]); the rest
//! is answered by the connection's own handler (the host's roots). A request the server withdraws
//! (`notifications/cancelled`) while it waits is taken off the person's screens, its withdrawal
//! recorded, and nothing is sent back. An MCP App's own requests of the host (its
//! `sampling/createMessage`) take the same path with the `app` source.

use std::sync::Arc;
use std::time::Instant;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::{Handler, Withdrawal};
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Value, json};

use super::agent_relay::{calling, relayed};
use super::person::{ServerAsk, WITHDRAWN, needs_person};
use super::state::Gate;
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::vocabulary::request::Source;

/// A handler whose requests pass the gate on their way through.
pub struct AuditedHandler {
    inner: Arc<dyn Handler>,
    gate: Gate,
    server: String,
    server_id: String,
}

impl AuditedHandler {
    /// The gate's handler for requests of the server `server` (name) with id `server_id`;
    /// `inner` answers what no person needs to.
    pub fn new(inner: Arc<dyn Handler>, gate: Gate, server: &str, server_id: &str) -> Self {
        Self {
            inner,
            gate,
            server: server.to_owned(),
            server_id: server_id.to_owned(),
        }
    }
}

impl Handler for AuditedHandler {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        self.on_withdrawable_request(method, params, Withdrawal::never())
    }

    fn on_withdrawable_request(
        &self,
        method: String,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let inner = self.inner.clone();
        let gate = self.gate.clone();
        let (server, server_id) = (self.server.clone(), self.server_id.clone());
        Box::pin(async move {
            let asked = Asked {
                server: &server,
                server_id: &server_id,
                source: Source::Server,
                caller: None,
            };
            gate.answer_asked(asked, method, params, Some(inner), withdrawal)
                .await
        })
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        self.gate
            .agent_notices
            .offer(&self.server_id, &self.server, method, params.as_ref());
        self.inner.on_notification(method, params);
    }
}

/// Who asks the host something, for [`Gate::answer_asked`].
pub struct Asked<'a> {
    /// The server's name.
    pub server: &'a str,
    pub server_id: &'a str,
    /// The server itself, or the app it rendered (SEP-1865: a view's `sampling/createMessage`
    /// goes through the same approval as its server's).
    pub source: Source,
    /// Which one of its source asked, where it has several (an app view): its own share of
    /// the approval queue.
    pub caller: Option<&'a str>,
}

impl Gate {
    /// Answers a request made of the host, on record: received with its source before it is
    /// answered, and its answer (or refusal) before it goes back. Sampling and elicitation are
    /// put to the person; anything else is `inner`'s to answer (an app has none: refused).
    /// `withdrawal` comes if the requester takes the request back before the answer.
    pub async fn answer_asked(
        &self,
        asked: Asked<'_>,
        method: String,
        params: Option<Value>,
        inner: Option<Arc<dyn Handler>>,
        withdrawal: Withdrawal,
    ) -> Result<Value, RpcError> {
        let audit = self.audit();
        let base = AuditEvent {
            server: Some(asked.server.to_owned()),
            source: Some(asked.source.as_str().into()),
            method: Some(method.clone()),
            correlation: Some(uuid::Uuid::new_v4().to_string()),
            ..AuditEvent::default()
        };
        let received = AuditEvent {
            kind: AuditKind::RequestReceived,
            detail: json!({ "params": params }),
            ..base.clone()
        };
        if let Err(e) = audit.append(received).await {
            tracing::warn!("refusing `{method}`: it cannot be recorded ({e})");
            return Err(unrecorded(&method));
        }
        let started = Instant::now();
        // An agent whose call this request serves answers it when it can (`agent_relay`).
        let calling_agent = (asked.source == Source::Server && relayed(&method))
            .then(|| calling().or_else(|| self.agent_calls.answering(asked.server_id)))
            .flatten();
        let unasked = calling_agent
            .as_ref()
            .filter(|agent| !agent.asks_person())
            .map(|agent| agent.client().to_owned());
        let agent = calling_agent.filter(|agent| agent.takes(&method, params.as_ref()));
        let asking = ServerAsk {
            gate: self,
            server: asked.server,
            server_id: asked.server_id,
            source: asked.source,
            caller: asked.caller,
            method: &method,
            base: &base,
        };
        let answer = match (agent, inner) {
            (Some(agent), _) => asking.relay(agent, params, withdrawal).await,
            (None, _) if needs_person(&method) && unasked.is_some() => Err(RpcError {
                code: gatehouse_mcp::jsonrpc::codes::METHOD_NOT_FOUND,
                message: format!(
                    "the client `{}` cannot answer `{method}`, and its profile in Gatehouse \
                     does not ask the person for it",
                    unasked.unwrap_or_default()
                ),
                data: None,
            }),
            (None, _) if needs_person(&method) => asking.answer(params, withdrawal).await,
            (None, Some(inner)) => {
                inner
                    .on_withdrawable_request(method.clone(), params, withdrawal)
                    .await
            }
            (None, None) => Err(RpcError {
                code: gatehouse_mcp::jsonrpc::codes::METHOD_NOT_FOUND,
                message: format!("`{method}` is not something Gatehouse answers here"),
                data: None,
            }),
        };
        let (error_type, detail) = match &answer {
            Ok(result) => (declined(result), json!({ "result": result })),
            Err(error)
                if error
                    .data
                    .as_ref()
                    .is_some_and(|d| d.get(WITHDRAWN).is_some()) =>
            {
                (Some(WITHDRAWN.to_owned()), json!({ "error": error }))
            }
            Err(error) => (Some(error.code.to_string()), json!({ "error": error })),
        };
        let finished = AuditEvent {
            kind: AuditKind::CallFinished,
            error_type,
            duration_ms: Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)),
            detail,
            ..base
        };
        if let Err(e) = audit.append(finished).await {
            tracing::warn!("refusing `{method}`: its answer cannot be recorded ({e})");
            return Err(unrecorded(&method));
        }
        answer
    }
}

/// `error.type` of an elicitation answered with `decline` or `cancel`.
fn declined(result: &Value) -> Option<String> {
    match result.get("action").and_then(Value::as_str) {
        Some(action @ ("decline" | "cancel")) => Some(action.to_owned()),
        _ => None,
    }
}

/// The refusal of a request that could not be put on record: nothing happens unrecorded.
fn unrecorded(method: &str) -> RpcError {
    RpcError {
        code: gatehouse_mcp::jsonrpc::codes::INTERNAL_ERROR,
        message: format!(
            "Gatehouse could not record `{method}` in its audit log, so it refused it"
        ),
        data: None,
    }
}
