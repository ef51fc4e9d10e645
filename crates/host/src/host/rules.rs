//! Changing the policy from the app or the CLI, as [`Host`] operations: adding and removing
//! rules, trusting a server's read-only hints, listing the rules as [`RuleView`]s (with their
//! server's name and whether a rule made for one definition of a tool is stale), and listing
//! and revoking standing grants. Every change is written to the audit log.

use crate::error::Result;
use crate::host::Host;
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::oversight::policy::RuleView;
use crate::oversight::policy::rule::{Effect, Rule};
use crate::oversight::policy::store::ToolDefinitionRecord;
use serde_json::json;

impl Host {
    /// Checks and stores a rule (its id is assigned), and records the change.
    pub async fn add_rule(&self, rule: Rule) -> Result<Rule> {
        let added = self.policy().add(rule).await?;
        self.record_policy_change("rule added", json!({ "rule": added }))
            .await?;
        Ok(added)
    }

    /// Deletes a rule, and records the change.
    pub async fn remove_rule(&self, id: &str) -> Result<()> {
        self.policy().remove(id).await?;
        self.record_policy_change("rule removed", json!({ "rule": id }))
            .await
    }

    /// Trusts (or stops trusting) a server's `readOnlyHint`, and records the change.
    pub async fn set_trust_read_only(&self, server: &str, trust: bool) -> Result<()> {
        let config = self.registry().get(server).await?;
        self.policy().set_trust_read_only(&config.id, trust).await?;
        let change = if trust {
            "read-only hints trusted"
        } else {
            "read-only hints not trusted"
        };
        self.record_policy_change(change, json!({ "server": config.name }))
            .await
    }

    /// Every rule, with its server's name and whether it is stale.
    pub async fn rules(&self) -> Result<Vec<RuleView>> {
        let servers = self.registry().list().await?;
        let mut views = Vec::new();
        for rule in self.policy().rules().await? {
            let server = rule
                .server
                .as_ref()
                .and_then(|id| servers.iter().find(|s| &s.id == id).map(|s| s.name.clone()));
            let current = match (&rule.server, &rule.tool) {
                (Some(server_id), Some(tool)) => self
                    .policy()
                    .latest_definition(server_id, tool)
                    .await?
                    .map(|(hash, _)| hash),
                _ => None,
            };
            let stale = match (&rule.definition_hash, &current) {
                (Some(granted), Some(current)) => {
                    rule.tool.is_some() && rule.effect == Effect::Allow && granted != current
                }
                _ => false,
            };
            views.push(RuleView {
                id: rule.id,
                server,
                server_id: rule.server,
                tool: rule.tool,
                argument: rule.argument,
                decision: rule.effect,
                definition_hash: rule.definition_hash,
                source: rule.source,
                client: rule.client,
                stale,
                current_definition_hash: current,
            });
        }
        Ok(views)
    }

    /// The standing grants that still hold somewhere.
    pub async fn grants(&self) -> Result<Vec<crate::oversight::policy::Grant>> {
        self.gate().grants().list().await
    }

    /// Revokes a standing grant, and records the change.
    pub async fn revoke_grant(&self, id: &str) -> Result<crate::oversight::policy::Grant> {
        let grant = self.gate().grants().revoke(id).await?;
        self.record_policy_change("grant revoked", json!({ "grant": grant }))
            .await?;
        Ok(grant)
    }

    /// Every definition kept of a server's tools (or of one tool), each with when it was
    /// first and last seen; the server is named by id or name.
    pub async fn definition_history(
        &self,
        server: &str,
        tool: Option<&str>,
    ) -> Result<Vec<ToolDefinitionRecord>> {
        let config = self.registry().get(server).await?;
        self.policy().definitions(&config.id, tool).await
    }

    /// Whether the person trusts the server's read-only hints; the server is named by id or
    /// name.
    pub async fn trusts_read_only(&self, server: &str) -> Result<bool> {
        let config = self.registry().get(server).await?;
        self.policy().trusts_read_only(&config.id).await
    }

    /// Writes a `policy_change` row: `what` changed, with `detail`.
    pub(crate) async fn record_policy_change(
        &self,
        what: &str,
        detail: serde_json::Value,
    ) -> Result<()> {
        let mut detail = detail;
        if let serde_json::Value::Object(map) = &mut detail {
            map.insert("change".into(), json!(what));
        }
        self.audit()
            .append(AuditEvent {
                kind: AuditKind::PolicyChange,
                source: Some("user".into()),
                detail,
                ..AuditEvent::default()
            })
            .await?;
        Ok(())
    }
}
