//! What a runner shows of its server: the connection it puts in the slot for the gate, and the
//! status and tools it records there and announces as events, as long as it is still the
//! server's current task.

use super::runner::Runner;
use super::slots::{LiveClient, lock};
use super::status::{ServerStatus, ToolInfo};
use crate::vocabulary::events::EngineEvent;

impl Runner {
    /// Puts the connection in the slot, or takes it out, if this task is still the server's
    /// current one.
    pub(super) fn set_live(&self, live: Option<LiveClient>) {
        if let Some(slot) = lock(&self.slots)
            .get_mut(&self.id)
            .filter(|s| s.generation == self.generation)
        {
            slot.live = live;
        }
    }

    /// Records a status made from the number of tools kept (which stay) if this task is still
    /// the server's current one, and announces a change.
    pub(super) fn set_keeping_tools(&self, status: impl FnOnce(usize) -> ServerStatus) {
        let status = {
            let mut slots = lock(&self.slots);
            let Some(slot) = slots
                .get_mut(&self.id)
                .filter(|s| s.generation == self.generation)
            else {
                return;
            };
            let status = status(slot.tools.len());
            if slot.status == status {
                return;
            }
            slot.status = status.clone();
            status
        };
        self.events.publish(EngineEvent::ServerStatus {
            id: self.id.clone(),
            status,
        });
    }

    /// Records a status without tools if this task is still the server's current one, and
    /// announces it.
    pub(super) fn set(&self, status: ServerStatus) {
        self.set_tools(status, Vec::new(), None, false);
    }

    /// Records a status and tool list if this task is still the server's current one, and
    /// announces a change (an unchanged list fetched again is not news, unless the server
    /// `announced` that it changed).
    pub(super) fn set_tools(
        &self,
        status: ServerStatus,
        tools: Vec<ToolInfo>,
        fresh_until: Option<tokio::time::Instant>,
        announced: bool,
    ) {
        {
            let mut slots = lock(&self.slots);
            let Some(slot) = slots
                .get_mut(&self.id)
                .filter(|s| s.generation == self.generation)
            else {
                return;
            };
            slot.revalidating = false;
            slot.tools_fresh_until = fresh_until;
            if !announced && slot.status == status && slot.tools == tools {
                return;
            }
            slot.status = status.clone();
            slot.tools = tools;
        }
        self.events.publish(EngineEvent::ServerStatus {
            id: self.id.clone(),
            status,
        });
    }
}
