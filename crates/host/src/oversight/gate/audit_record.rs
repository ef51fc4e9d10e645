//! The audit rows of one request at the gate: the request as received (a tool call's
//! arguments, definition hash and annotations; a read's URI; a prompt and its arguments), the
//! decision (allow or deny, with the reason and the rule), and the outcome (the result, a tool
//! error, a protocol error or a cancellation, with its duration). Field names follow the OpenTelemetry MCP conventions (`error.type` is
//! `tool_error` for an `isError` result); the audit log redacts secrets before writing. Every row
//! of a gateway client's request names the client (`caller`) and what it said of itself
//! (`client_info`, [`crate::vocabulary::caller_info`]), so the log can be listed by client.

use std::time::Duration;

use gatehouse_mcp::{CallToolResult, McpError};
use serde_json::{Value, json};

use super::decision::Decision;
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::oversight::policy::Verdict;
use crate::vocabulary::request::{GateRequest, RequestKind, Source};
use crate::vocabulary::{caller_info, given_input};

/// What every row of one request shares, and what the request asked.
pub(super) struct Record {
    base: AuditEvent,
    asked: Value,
    /// What every row's detail also carries (a gateway client's `caller` and `client_info`).
    every_row: serde_json::Map<String, Value>,
}

impl Record {
    pub(super) fn new(request: &GateRequest, transport: &str) -> Self {
        Record {
            base: AuditEvent {
                server: Some(request.server.clone()),
                source: Some(request.source.as_str().to_owned()),
                method: Some(request.method().to_owned()),
                tool: request.tool().map(str::to_owned),
                correlation: Some(request.id.clone()),
                transport: Some(transport.to_owned()),
                ..AuditEvent::default()
            },
            asked: Self::with_caller(Self::asked_detail(&request.kind), request),
            every_row: Self::every_row(request),
        }
    }

    /// A gateway client's name and `clientInfo`, for every row of its request.
    fn every_row(request: &GateRequest) -> serde_json::Map<String, Value> {
        let mut fields = serde_json::Map::new();
        if request.source == Source::Gateway {
            if let Some(caller) = &request.caller {
                fields.insert("caller".to_owned(), Value::String(caller.clone()));
            }
            if let Some(info) = caller_info::current() {
                fields.insert("client_info".to_owned(), info);
            }
        }
        fields
    }

    /// Names the caller within the source (the face, app view or client that asked) in what
    /// the first row records, when the source has several.
    fn with_caller(mut asked: Value, request: &GateRequest) -> Value {
        if let (Value::Object(map), Some(caller)) = (&mut asked, &request.caller) {
            map.insert("caller".to_owned(), Value::String(caller.clone()));
        }
        asked
    }

    /// What a request asks, as its first row records it.
    pub(super) fn asked_detail(kind: &RequestKind) -> Value {
        match kind {
            RequestKind::ToolCall {
                arguments,
                annotations,
                definition_hash,
                ..
            } => {
                let mut asked = json!({
                    "arguments": arguments,
                    "definitionHash": definition_hash,
                    "annotations": annotations,
                });
                if let Some(given) = given_input::current() {
                    asked["inputResponses"] = Value::Object(given);
                }
                asked
            }
            RequestKind::ResourceRead { uri } => json!({ "uri": uri }),
            RequestKind::PromptGet { name, arguments } => {
                json!({ "prompt": name, "arguments": arguments })
            }
            RequestKind::Completion {
                reference,
                argument,
                value,
            } => json!({ "ref": reference, "argument": argument, "value": value }),
        }
    }

    fn event(&self, kind: AuditKind, mut detail: Value) -> AuditEvent {
        if let Value::Object(map) = &mut detail {
            for (key, value) in &self.every_row {
                map.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
        AuditEvent {
            kind,
            detail,
            ..self.base.clone()
        }
    }

    pub(super) fn received(&self) -> AuditEvent {
        self.event(AuditKind::RequestReceived, self.asked.clone())
    }

    /// The request waits for a person: why it is asked about.
    pub(super) fn asked(&self, verdict: &Verdict) -> AuditEvent {
        AuditEvent {
            decision: Some("ask".to_owned()),
            ..self.event(
                AuditKind::Decision,
                json!({ "reason": verdict.reason, "rule": verdict.rule, "stale": verdict.stale }),
            )
        }
    }

    /// The decision, with who made it (`answeredBy`: policy, grant, person, timeout, nobody).
    pub(super) fn decided(&self, decision: &Decision) -> AuditEvent {
        let mut detail = json!({
            "reason": decision.reason,
            "rule": decision.rule,
            "answeredBy": decision.by,
        });
        if let (Value::Object(map), Value::Object(extra)) = (&mut detail, &decision.extra) {
            map.extend(extra.clone());
        }
        AuditEvent {
            decision: Some(if decision.allowed { "allow" } else { "deny" }.to_owned()),
            ..self.event(AuditKind::Decision, detail)
        }
    }

    /// The outcome of a tool call: `None` when the caller gave up and it was cancelled.
    pub(super) fn finished(
        &self,
        outcome: Option<&Result<CallToolResult, McpError>>,
        elapsed: Duration,
    ) -> AuditEvent {
        match outcome {
            Some(Ok(result)) => self.outcome(
                result.is_error.then_some("tool_error"),
                json!({
                    "isError": result.is_error,
                    "content": result.content,
                    "structuredContent": result.structured_content,
                    "schemaProblem": result.schema_problem,
                }),
                elapsed,
            ),
            Some(Err(error)) => self.failed(error, elapsed),
            None => self.outcome(Some("cancelled"), json!({ "cancelled": true }), elapsed),
        }
    }

    /// The outcome of another kind of request: its result, or its error.
    pub(super) fn answered(&self, result: Value, elapsed: Duration) -> AuditEvent {
        self.outcome(None, json!({ "result": result }), elapsed)
    }

    pub(super) fn failed(&self, error: &McpError, elapsed: Duration) -> AuditEvent {
        let kind = error_type(error);
        self.outcome(Some(&kind), json!({ "error": error.to_string() }), elapsed)
    }

    fn outcome(&self, error_type: Option<&str>, detail: Value, elapsed: Duration) -> AuditEvent {
        AuditEvent {
            error_type: error_type.map(str::to_owned),
            duration_ms: Some(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)),
            ..self.event(AuditKind::CallFinished, detail)
        }
    }
}

/// `error.type` for a failed request: the JSON-RPC code for a server's error, else the kind.
fn error_type(error: &McpError) -> String {
    match error {
        McpError::Rpc { error, .. } => error.code.to_string(),
        McpError::Timeout { .. } => "timeout".into(),
        McpError::Closed { .. } => "connection_closed".into(),
        McpError::Transport { .. } | McpError::RequestFailed { .. } | McpError::Io(_) => {
            "transport".into()
        }
        McpError::InvalidResponse { .. } | McpError::MalformedResponse { .. } => {
            "invalid_response".into()
        }
        McpError::NotSupported { .. } => "not_supported".into(),
        McpError::UrlElicitationRequired { .. } => "url_elicitation_required".into(),
        McpError::ResourceNotFound { .. } => "resource_not_found".into(),
        McpError::TaskCancelled { .. } => "cancelled".into(),
        _ => "error".into(),
    }
}
