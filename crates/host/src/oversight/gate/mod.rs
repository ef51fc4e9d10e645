//! The gate: the one host-owned path every request between Gatehouse and a server takes
//! (gate → policy → approval → session → audit). Whoever asks (the app, the CLI, later an MCP
//! App, a model or another agent) hands the gate a request with its source; the gate decides,
//! records the tool's definition hash, writes the request and the decision to the audit log,
//! runs the request on the connection it was given, follows a task's statuses into the task
//! log, writes the outcome to the audit log, and only then answers with the result.
//!
//! Tool calls, resource reads, prompt gets and completions pass through it, decided by the
//! [`crate::oversight::policy`] with the stored rules ([`admission`]): a call a person starts by
//! hand is its own consent unless a rule denies it (or asks about it); what the policy asks about
//! is covered by a standing grant or put to the person through the [`crate::oversight::approvals`]
//! queue. The requests servers send to the host pass it in [`from_server`]. An MCP App's tool calls
//! are held to its tools' `visibility` first ([`app_visibility`]). While the agents are paused
//! ([`paused`]), what the policy would let an agent do is asked about instead.
//!
//! The gate decides every call with the stored rules. Every tool list a live session or the gate
//! fetches is kept in the definition history (`Gate::tools_listed`), in one transaction per
//! listing, so a call only needs its tool's definition hash, which [`definition_hashes`] keeps
//! from the first call after each listing.

mod admission;
mod agent_answer;
pub mod agent_notices;
pub mod agent_relay;
mod app_visibility;
mod asking;
mod audit_record;
mod calls;
mod decision;
mod definition_hashes;
pub(crate) mod from_server;
pub(crate) mod parked_calls;
mod paused;
pub(crate) mod person;
mod server_secrets;
mod snapshot;
mod standing;
mod state;
mod task_statuses;

pub use crate::vocabulary::definition;
pub use crate::vocabulary::request::{Ask, GateRequest, RequestKind, Source, ToolCall};
pub use decision::{CallOutcome, Decision};
pub use state::{Gate, Target};
