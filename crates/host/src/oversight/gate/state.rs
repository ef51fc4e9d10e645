//! What a gate holds (the registry, the policy and its grants, the audit log, the approval
//! queue, the servers' secret values and the decision snapshots) and the [`Target`] a request
//! goes to; the requests themselves pass in [`super::calls`].

use gatehouse_mcp::Client;

use super::agent_notices::AgentNotices;
use super::agent_relay::AgentCalls;
use super::definition_hashes::DefinitionHashes;
use super::parked_calls::ParkedCalls;
use super::server_secrets::ServerSecrets;
use super::snapshot::{Snapshot, Snapshots};
use crate::error::Result;
use crate::oversight::approvals::Approvals;
use crate::oversight::audit::AuditLog;
use crate::oversight::policy::{Grants, PolicyStore};
use crate::store::registry::Registry;

/// The gate of one host.
#[derive(Debug, Clone)]
pub struct Gate {
    pub(super) registry: Registry,
    pub(super) policy: PolicyStore,
    pub(super) grants: Grants,
    pub(super) audit: AuditLog,
    pub(super) approvals: Approvals,
    pub(super) secrets: ServerSecrets,
    pub(super) snapshots: Snapshots,
    pub(super) definition_hashes: DefinitionHashes,
    pub(super) agent_calls: AgentCalls,
    pub(super) agent_notices: AgentNotices,
    pub(super) parked_calls: std::sync::Arc<ParkedCalls>,
    /// Whether the agents are paused (see `paused.rs`).
    pub(super) agents_paused: std::sync::Arc<std::sync::atomic::AtomicBool>,
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
            definition_hashes: DefinitionHashes::default(),
            agent_calls: AgentCalls::default(),
            agent_notices: AgentNotices::default(),
            parked_calls: std::sync::Arc::default(),
            agents_paused: std::sync::Arc::default(),
        }
    }

    /// The queue of requests waiting for a person.
    pub fn approvals(&self) -> &Approvals {
        &self.approvals
    }

    /// The gateway's calls in flight, whose agents answer their servers' requests.
    pub fn agent_calls(&self) -> &AgentCalls {
        &self.agent_calls
    }

    /// The 2026-07-28 agents' calls waiting for their input (`gateway::input_required`).
    pub fn parked_calls(&self) -> &std::sync::Arc<ParkedCalls> {
        &self.parked_calls
    }

    /// The servers' notifications for the gateway's agents, and their subscriptions.
    pub fn agent_notices(&self) -> &AgentNotices {
        &self.agent_notices
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

    pub(super) async fn learn_secrets_of(
        &self,
        server_id: &str,
        snapshot: &Snapshot,
    ) -> Result<()> {
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
    pub(super) async fn snapshot(&self, server_id: &str) -> Result<std::sync::Arc<Snapshot>> {
        self.snapshots
            .of(&self.registry, &self.policy, server_id)
            .await
    }

    /// Keeps the definitions of the tools a server just listed in the policy's history, so
    /// that a rule made for one definition of a tool is void once the server shows another.
    pub async fn tools_listed(&self, server_id: &str, tools: &[gatehouse_mcp::Tool]) -> Result<()> {
        self.policy.record_definitions(server_id, tools).await
    }

    /// The definition hash of `tool` as a call records it: computed once per definition a
    /// connection listed (see `definition_hashes.rs`).
    pub fn definition_hash(&self, tool: &std::sync::Arc<gatehouse_mcp::Tool>) -> String {
        self.definition_hashes.of(tool)
    }

    /// The audit log the gate writes to.
    pub fn audit(&self) -> &AuditLog {
        &self.audit
    }
}
