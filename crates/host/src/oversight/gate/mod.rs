//! The gate: the one host-owned path every request between Gatehouse and a server takes
//! (gate → policy → approval → session → audit). Whoever asks (the app, the CLI, later an MCP
//! App, a model or another agent) hands the gate a request with its source; the gate decides,
//! records the tool's definition hash, writes the request and the decision to the audit log,
//! runs the request on the connection it was given, follows a task's statuses into the task
//! log, writes the outcome to the audit log, and only then answers with the result.
//!
//! Tool calls, resource reads, prompt gets and completions pass through it, decided by the
//! [`crate::oversight::policy`] with the stored rules ([`admission`]): a call a person starts by hand is
//! its own consent unless a rule denies it (or asks about it); what the policy asks about is
//! covered by a standing grant or put to the person through the [`crate::oversight::approvals`] queue.
//! The requests servers send to the host pass it in [`from_server`]. An MCP App's tool calls
//! are held to its tools' `visibility` first ([`app_visibility`]).

mod admission;
mod app_visibility;
mod asking;
mod audit_record;
pub mod definition;
pub(crate) mod from_server;
pub(crate) mod person;
pub(crate) mod request;
mod server_secrets;
mod snapshot;
mod standing;
mod task_statuses;

use std::future::Future;
use std::time::Duration;

use gatehouse_mcp::{CallOptions, CallToolResult, Client, McpError};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::error::Result;
use crate::oversight::approvals::Approvals;
use crate::oversight::audit::AuditLog;
use crate::oversight::policy::{Effect, Grants, PolicyStore, Verdict};
use crate::store::registry::Registry;
pub use request::{Ask, GateRequest, RequestKind, Source, ToolCall};
use server_secrets::ServerSecrets;
use snapshot::{Snapshot, Snapshots};
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

/// What the gate decided about a request, why, and who decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub allowed: bool,
    /// Why, in words.
    pub reason: String,
    /// The rule that decided, if one did.
    pub rule: Option<String>,
    /// `policy`, `grant`, `person`, `timeout` or `nobody`.
    pub by: &'static str,
    /// What else the audit row keeps (the grant used, the answer's scope, edits).
    pub extra: Value,
    /// A tool call's arguments as the person edited them.
    pub edited: Option<Value>,
}

impl Decision {
    /// The policy's own decision (allow or deny).
    fn by_policy(verdict: &Verdict) -> Self {
        Decision {
            allowed: verdict.effect == Effect::Allow,
            reason: verdict.reason.clone(),
            rule: verdict.rule.clone(),
            by: "policy",
            extra: Value::Null,
            edited: None,
        }
    }
}

/// The gate of one host.
#[derive(Debug, Clone)]
pub struct Gate {
    registry: Registry,
    policy: PolicyStore,
    grants: Grants,
    audit: AuditLog,
    approvals: Approvals,
    secrets: ServerSecrets,
    snapshots: Snapshots,
}

/// The server a request goes to: its registered name and id, and its live connection.
pub struct Target<'a> {
    pub server: &'a str,
    pub server_id: &'a str,
    pub client: &'a Client,
}

impl Gate {
    pub fn new(registry: Registry, audit: AuditLog, approvals: Approvals) -> Self {
        let policy = PolicyStore::new(registry.pool().clone());
        let grants = Grants::new(registry.pool().clone());
        let snapshots = Snapshots::new(registry.pool().connect_options().get_filename().to_owned());
        Self {
            registry,
            policy,
            grants,
            audit,
            approvals,
            secrets: ServerSecrets::default(),
            snapshots,
        }
    }

    /// The queue of requests waiting for a person.
    pub fn approvals(&self) -> &Approvals {
        &self.approvals
    }

    /// The standing grants, as this process sees them.
    pub fn grants(&self) -> &Grants {
        &self.grants
    }

    /// Makes sure the audit log hides the secret values of the server `server_id`.
    pub async fn learn_secrets(&self, server_id: &str) -> Result<()> {
        let snapshot = self.snapshot(server_id).await?;
        self.learn_secrets_of(server_id, &snapshot).await
    }

    async fn learn_secrets_of(&self, server_id: &str, snapshot: &Snapshot) -> Result<()> {
        self.secrets
            .learn(
                &self.registry,
                server_id,
                &snapshot.config_version,
                &self.audit,
            )
            .await
    }

    /// What decides the requests of the server `server_id`, as of now.
    async fn snapshot(&self, server_id: &str) -> Result<std::sync::Arc<Snapshot>> {
        self.snapshots
            .of(&self.registry, &self.policy, server_id)
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
        let tool = call.tool.clone();
        let (request, definition) = self.request_for(&target, call).await?;
        let mut cancel = std::pin::pin!(cancel);
        let admitted = self
            .admit(&target, &request, definition.as_ref(), cancel.as_mut())
            .await?;
        let (record, edited) = match admitted {
            admission::Admitted::Go { record, edited } => (record, edited),
            admission::Admitted::GaveUp(record) => {
                let gave_up = record.finished(None, std::time::Duration::ZERO);
                self.audit.append(gave_up).await?;
                return Ok(CallOutcome::Cancelled);
            }
        };
        let arguments = match (edited, request.kind) {
            (Some(edited), _) => Some(edited),
            (None, RequestKind::ToolCall { arguments, .. }) => arguments,
            (None, _) => None,
        };
        let started = std::time::Instant::now();
        let tasks = TaskStatuses {
            registry: &self.registry,
            server_id: target.server_id,
            tool: &tool,
        };
        let display = options.task_status.take();
        let (statuses, to_record) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
        options.task_status = Some(statuses);
        let recorded = tasks.record(to_record, display);
        let calling = async {
            // A call that failed because its server died ends with that failure (and its exit
            // status), not as cancelled by the connection's end that follows it.
            tokio::select! {
                biased;
                result = target.client.call_tool(&tool, arguments, options) => Some(result),
                () = cancel.as_mut() => None,
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
            caller: ask.caller,
            server: target.server.to_owned(),
            kind: ask.kind,
        };
        let never = std::pin::pin!(std::future::pending::<()>());
        let admitted = self.admit(&target, &request, None, never).await?;
        let record = match admitted {
            admission::Admitted::Go { record, .. } | admission::Admitted::GaveUp(record) => record,
        };
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

    /// The request for a tool call, with the tool's definition as last listed (listing the
    /// tools first if they were not, so the definition hash is known, and keeping what was
    /// listed in the policy's history).
    async fn request_for(
        &self,
        target: &Target<'_>,
        call: ToolCall,
    ) -> Result<(GateRequest, Option<gatehouse_mcp::Tool>)> {
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
        let request = GateRequest {
            id: uuid::Uuid::new_v4().to_string(),
            source: call.source,
            caller: call.caller,
            server: target.server.to_owned(),
            kind: RequestKind::ToolCall {
                tool: call.tool,
                arguments: call.arguments,
                annotations,
                definition_hash,
            },
        };
        Ok((request, definition))
    }
}
