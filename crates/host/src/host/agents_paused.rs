//! Pause all agents, from any face (the window's switch, the tray, `gatehouse agents pause`):
//! the gate asks about every agent's request while they are paused (see
//! `oversight/gate/paused.rs`). Each change is on the audit log as the person's policy change
//! (`agents_paused`) and sent as [`EngineEvent::AgentsPaused`], so every face shows it.

use serde_json::json;

use super::Host;
use crate::error::Result;
use crate::vocabulary::events::EngineEvent;

impl Host {
    /// Pauses (`true`) or resumes (`false`) every agent; whether that changed anything. A
    /// change is on the audit log before it is announced; asking for the state already in
    /// force writes and sends nothing.
    pub async fn set_agents_paused(&self, paused: bool) -> Result<bool> {
        if !self.gate.set_agents_paused(paused) {
            return Ok(false);
        }
        let recorded = self
            .record_policy_change("agents_paused", json!({ "paused": paused }))
            .await;
        if let Err(e) = recorded {
            // Not on record: the change is taken back, so nothing unrecorded stays in force.
            self.gate.set_agents_paused(!paused);
            return Err(e);
        }
        self.events.publish(EngineEvent::AgentsPaused { paused });
        Ok(true)
    }

    /// Whether the agents are paused.
    pub fn agents_paused(&self) -> bool {
        self.gate.agents_paused()
    }
}
