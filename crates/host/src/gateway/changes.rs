//! When an agent's tool list changed: a server connected (or listed new tools, which the host
//! announces as a `Connected` status with the new count) or left the connected set (it failed,
//! stopped, was disabled or removed). Health checks going degraded and back, and the steps of
//! connecting, do not count. An event lost to lag counts, so nothing is missed.

use std::collections::HashSet;

use tokio::sync::broadcast::error::RecvError;

use crate::vocabulary::events::EngineEvent;
use crate::vocabulary::status::ServerStatus;

/// The connected servers an agent's list was last built from, as the events tell it.
#[derive(Debug, Default)]
pub struct ToolChanges {
    connected: HashSet<String>,
}

impl ToolChanges {
    /// Starts from the servers connected now.
    pub fn from_connected(ids: impl IntoIterator<Item = String>) -> ToolChanges {
        ToolChanges {
            connected: ids.into_iter().collect(),
        }
    }

    /// Whether what the engine announced (or failed to deliver) may change the agent's tools.
    pub fn changed_by(&mut self, event: &Result<EngineEvent, RecvError>) -> bool {
        match event {
            Ok(EngineEvent::ServerStatus { id, status }) => match status {
                ServerStatus::Connected { .. } => {
                    self.connected.insert(id.clone());
                    true
                }
                ServerStatus::Degraded { .. } => {
                    self.connected.insert(id.clone());
                    false
                }
                _ => self.connected.remove(id),
            },
            Ok(_) => false,
            Err(RecvError::Lagged(_)) => true,
            Err(RecvError::Closed) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(id: &str, status: ServerStatus) -> Result<EngineEvent, RecvError> {
        Ok(EngineEvent::ServerStatus {
            id: id.to_owned(),
            status,
        })
    }

    fn connected() -> ServerStatus {
        ServerStatus::Connected {
            protocol_version: "2025-11-25".into(),
            era: "legacy".into(),
            server_name: "s".into(),
            server_version: "1".into(),
            tool_count: 1,
            offers: Vec::new(),
        }
    }

    #[test]
    fn connecting_and_leaving_change_the_tools_and_health_checks_do_not() {
        let mut changes = ToolChanges::from_connected(["a".to_owned()]);
        assert!(!changes.changed_by(&status("b", ServerStatus::Connecting)));
        assert!(changes.changed_by(&status("b", connected())), "b connected");
        assert!(
            changes.changed_by(&status("b", connected())),
            "b's tools changed"
        );
        let degraded = ServerStatus::Degraded {
            reason: "no answer".into(),
            misses: 1,
        };
        assert!(
            !changes.changed_by(&status("a", degraded)),
            "a is still there"
        );
        assert!(
            changes.changed_by(&status("a", ServerStatus::Disabled)),
            "a left"
        );
        assert!(
            !changes.changed_by(&status("a", ServerStatus::Stopped)),
            "a was gone already"
        );
        assert!(
            changes.changed_by(&Err(RecvError::Lagged(3))),
            "missed events count"
        );
    }
}
