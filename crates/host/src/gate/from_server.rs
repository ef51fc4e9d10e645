//! Requests a server sends to the host (sampling, form and URL elicitation, `roots/list`, and
//! the input requests of multi round-trip results, which reach the same handler) pass the gate
//! too: each is written to the audit log with the `server` source before it is answered, and
//! its answer (or refusal) is on record before it goes back to the server. Who answers stays
//! the connection's handler: the host's (roots, declining what needs a person) or, in the CLI,
//! the person at the terminal.

use std::sync::Arc;
use std::time::Instant;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Value, json};

use crate::audit::{AuditEvent, AuditKind, AuditLog};

/// A handler whose requests are audited on their way through.
pub struct AuditedHandler {
    inner: Arc<dyn Handler>,
    audit: AuditLog,
    server: String,
}

impl AuditedHandler {
    pub fn new(inner: Arc<dyn Handler>, audit: AuditLog, server: impl Into<String>) -> Self {
        Self {
            inner,
            audit,
            server: server.into(),
        }
    }
}

impl Handler for AuditedHandler {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let inner = self.inner.clone();
        let audit = self.audit.clone();
        let base = AuditEvent {
            server: Some(self.server.clone()),
            source: Some("server".into()),
            method: Some(method.clone()),
            correlation: Some(uuid::Uuid::new_v4().to_string()),
            ..AuditEvent::default()
        };
        Box::pin(async move {
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
            let answer = inner.on_request(method.clone(), params).await;
            let (error_type, detail) = match &answer {
                Ok(result) => (declined(result), json!({ "result": result })),
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
        })
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        self.inner.on_notification(method, params);
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
