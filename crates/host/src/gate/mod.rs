//! The gate: the one host-owned path every request between Gatehouse and a server takes
//! (gate → policy → approval → session → audit). Whoever asks (the app, the CLI, later an MCP
//! App, a model or another agent) hands the gate a request with its source; the gate decides,
//! records the tool's definition hash, writes the request and the decision to the audit log,
//! runs the request on the connection it was given, follows a task's statuses into the task
//! log, writes the outcome to the audit log, and only then answers with the result.
//!
//! Tool calls, resource reads, prompt gets and completions pass through it, decided by the [`crate::policy`] with the stored rules: a
//! call a person starts by hand is its own consent unless a rule denies it; what the policy
//! would ask about is refused until the approval queue exists.

mod audit_record;
pub mod definition;
pub mod from_server;
pub mod request;
mod server_secrets;
mod task_statuses;

use std::future::Future;
use std::time::Duration;

use gatehouse_mcp::{CallOptions, CallToolResult, Client, McpError};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::audit::AuditLog;
use crate::error::{HostError, Result};
use crate::policy::{self, Effect, PolicyInput, PolicyStore};
use crate::registry::Registry;
pub use request::{Ask, GateRequest, RequestKind, Source, ToolCall};
use server_secrets::ServerSecrets;
use task_statuses::TaskStatuses;

/// How long, after a cancellation, to wait for a round trip, so that the cancellation sent
/// before it has gone out before the connection closes.
const CANCEL_FLUSH: Duration = Duration::from_secs(2);

/// How a call through the gate ended.
#[derive(Debug)]
pub enum CallOutcome {
    /// The server answered (a tool error is an `is_error` result).
    Done(CallToolResult),
    /// The caller gave up; the call was cancelled on the server.
    Cancelled,
}

/// What the gate decided about a request, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub allowed: bool,
    /// Why, in words.
    pub reason: String,
    /// The rule that decided, if one did.
    pub rule: Option<String>,
}

/// The gate of one host.
#[derive(Debug, Clone)]
pub struct Gate {
    registry: Registry,
    policy: PolicyStore,
    audit: AuditLog,
    secrets: ServerSecrets,
}

/// The server a request goes to: its registered name and id, and its live connection.
pub struct Target<'a> {
    pub server: &'a str,
    pub server_id: &'a str,
    pub client: &'a Client,
}

impl Gate {
    pub fn new(registry: Registry, audit: AuditLog) -> Self {
        let policy = PolicyStore::new(registry.pool().clone());
        Self {
            registry,
            policy,
            audit,
            secrets: ServerSecrets::default(),
        }
    }

    /// Makes sure the audit log hides the secret values of the server `server_id`.
    pub async fn learn_secrets(&self, server_id: &str) -> Result<()> {
        self.secrets
            .learn(&self.registry, server_id, &self.audit)
            .await
    }

    /// Keeps the definitions of the tools a server just listed in the policy's history, so
    /// that a rule made for one definition of a tool is void once the server shows another.
    pub async fn tools_listed(&self, server_id: &str, tools: &[gatehouse_mcp::Tool]) -> Result<()> {
        self.policy.record_definitions(server_id, tools).await
    }

    /// The audit log the gate writes to.
    pub fn audit(&self) -> &AuditLog {
        &self.audit
    }

    /// Calls a tool through the gate. `options` carry progress and task-status sinks as usual;
    /// the statuses are also written to the task log. If `cancel` completes first, the call is
    /// cancelled on the server and [`CallOutcome::Cancelled`] returned.
    pub async fn call_tool(
        &self,
        target: Target<'_>,
        call: ToolCall,
        mut options: CallOptions,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallOutcome> {
        let (tool, arguments) = (call.tool.clone(), call.arguments.clone());
        let request = self.request_for(&target, call).await?;
        let record = self.admit(&target, &request).await?;
        let started = std::time::Instant::now();
        let tasks = TaskStatuses {
            registry: &self.registry,
            server_id: target.server_id,
            tool: &tool,
        };
        let display = options.task_status.take();
        let (statuses, to_record) = mpsc::unbounded_channel();
        options.task_status = Some(statuses);
        let recorded = tasks.record(to_record, display);
        let calling = async {
            tokio::select! {
                result = target.client.call_tool(&tool, arguments, options) => Some(result),
                () = cancel => None,
            }
        };
        // The call future ends, and its status sender with it, before the recorder can.
        let (outcome, last_task) = tokio::join!(calling, recorded);
        // The outcome is on record before the caller sees it.
        let finished = record.finished(outcome.as_ref(), started.elapsed());
        self.audit.append(finished).await?;
        match outcome {
            Some(result) => Ok(CallOutcome::Done(result?)),
            None => {
                if let Some(task) = last_task {
                    tasks.cancelled(task, "cancelled by the caller").await;
                }
                // Messages go out in order: once this round trip is answered, the
                // cancellation was sent.
                let _ = tokio::time::timeout(CANCEL_FLUSH, target.client.ping()).await;
                Ok(CallOutcome::Cancelled)
            }
        }
    }

    /// Runs a request of another kind than a tool call through the gate: it is decided and put
    /// on record, `send` (a future not yet started) is run only if it is allowed, and its
    /// outcome is on record before it is returned.
    pub async fn run<T: serde::Serialize>(
        &self,
        target: Target<'_>,
        ask: Ask,
        send: impl Future<Output = std::result::Result<T, McpError>>,
    ) -> Result<T> {
        let request = GateRequest {
            id: uuid::Uuid::new_v4().to_string(),
            source: ask.source,
            server: target.server.to_owned(),
            kind: ask.kind,
        };
        let record = self.admit(&target, &request).await?;
        let started = std::time::Instant::now();
        let outcome = send.await;
        let finished = match &outcome {
            Ok(value) => record.answered(
                serde_json::to_value(value).unwrap_or(Value::Null),
                started.elapsed(),
            ),
            Err(error) => record.failed(error, started.elapsed()),
        };
        self.audit.append(finished).await?;
        Ok(outcome?)
    }

    /// Decides a request and puts it and its decision on record, before anything reaches the
    /// server; a denied request ends here.
    async fn admit(
        &self,
        target: &Target<'_>,
        request: &GateRequest,
    ) -> Result<audit_record::Record> {
        self.learn_secrets(target.server_id).await?;
        let decision = self.decide(request, target.server_id).await?;
        let record = audit_record::Record::new(request, target.client.transport_kind());
        self.audit
            .append_all(vec![record.received(), record.decided(&decision)])
            .await?;
        if !decision.allowed {
            let what = match request.kind {
                RequestKind::ToolCall { .. } => "the call",
                _ => "the request",
            };
            return Err(HostError::Denied {
                reason: format!("{what} was denied: {}", decision.reason),
                rule: decision.rule,
            });
        }
        Ok(record)
    }

    /// The request for a tool call, with the tool's definition as last listed (listing the
    /// tools first if they were not, so the definition hash is known, and keeping what was
    /// listed in the policy's history).
    async fn request_for(&self, target: &Target<'_>, call: ToolCall) -> Result<GateRequest> {
        if target.client.cached_tool(&call.tool).is_none() {
            match target.client.list_tools().await {
                Ok(page) => self.tools_listed(target.server_id, &page.items).await?,
                Err(e) => tracing::info!("cannot list the tools of `{}`: {e}", target.server),
            }
        }
        let definition = target.client.cached_tool(&call.tool);
        let definition_hash = definition.as_ref().map(definition::definition_hash);
        let annotations = definition
            .as_ref()
            .and_then(|t| t.extra.get("annotations").cloned())
            .unwrap_or(Value::Null);
        Ok(GateRequest {
            id: uuid::Uuid::new_v4().to_string(),
            source: call.source,
            server: target.server.to_owned(),
            kind: RequestKind::ToolCall {
                tool: call.tool,
                arguments: call.arguments,
                annotations,
                definition_hash,
            },
        })
    }

    /// Decides a request under the policy. A request the policy would ask about is refused
    /// while nobody can be asked (the approval queue comes next), with the reason.
    async fn decide(&self, request: &GateRequest, server_id: &str) -> Result<Decision> {
        let (tool, arguments, annotations, definition_hash) = match &request.kind {
            RequestKind::ToolCall {
                tool,
                arguments,
                annotations,
                definition_hash,
            } => (
                tool.as_str(),
                arguments.as_ref(),
                annotations,
                definition_hash.as_deref(),
            ),
            // Other kinds name no tool: only server and global rules concern them.
            _ => ("", None, &Value::Null, None),
        };
        let rules = self.policy.rules_for(server_id).await?;
        let verdict = policy::evaluate(
            &rules,
            &PolicyInput {
                source: request.source,
                server: server_id,
                tool,
                arguments,
                annotations,
                definition_hash,
                trust_read_only: self.policy.trusts_read_only(server_id).await?,
            },
        );
        let allowed = verdict.effect == Effect::Allow;
        let reason = match verdict.effect {
            Effect::Ask => format!(
                "{}, and no one can be asked here yet ({} request)",
                verdict.reason,
                request.source.as_str()
            ),
            _ => verdict.reason,
        };
        Ok(Decision {
            allowed,
            reason,
            rule: verdict.rule,
        })
    }
}
