//! When an agent's lists changed, and which ([`List`]; the lists of prompts and resources too,
//! when a server says so: `notifications/prompts/list_changed`,
//! `notifications/resources/list_changed`, 2025-11-25 server/prompts and server/resources,
//! "List Changed Notification"). An agent's tool list changed when a server connected (or listed new tools, which the host
//! announces as a `Connected` status with the new count) or left the connected set (it failed,
//! stopped, was disabled or removed). Health checks going degraded and back, and the steps of
//! connecting, do not count. An event lost to lag counts, so nothing is missed.

use std::collections::HashSet;

use serde_json::{Value, json};

use tokio::sync::broadcast::error::RecvError;

use crate::vocabulary::events::EngineEvent;
use crate::vocabulary::status::ServerStatus;

/// One of an agent's lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum List {
    Tools,
    Prompts,
    Resources,
}

impl List {
    /// Every list: what a server connecting or leaving may change.
    pub const ALL: [List; 3] = [List::Tools, List::Prompts, List::Resources];

    /// The notification that tells an agent this list changed.
    pub fn notification(self) -> Value {
        let method = match self {
            List::Tools => "notifications/tools/list_changed",
            List::Prompts => "notifications/prompts/list_changed",
            List::Resources => "notifications/resources/list_changed",
        };
        json!({ "jsonrpc": "2.0", "method": method })
    }
}

/// The lists changed since the agent was last told, in the order they changed.
#[derive(Debug, Default)]
pub struct Changed(Vec<List>);

impl Changed {
    /// Notes that `lists` changed; true when nothing was waiting to be told before.
    pub fn add(&mut self, lists: &[List]) -> bool {
        let first = self.0.is_empty();
        for list in lists {
            if !self.0.contains(list) {
                self.0.push(*list);
            }
        }
        first && !self.0.is_empty()
    }

    /// The lists to tell the agent about, forgotten once taken.
    pub fn take(&mut self) -> Vec<List> {
        std::mem::take(&mut self.0)
    }
}

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
    fn each_changed_list_is_told_once() {
        let mut changed = Changed::default();
        assert!(
            changed.add(&[List::Prompts]),
            "the first change starts the wait"
        );
        assert!(!changed.add(&List::ALL), "later ones join it");
        assert_eq!(
            changed.take(),
            vec![List::Prompts, List::Tools, List::Resources]
        );
        assert!(changed.take().is_empty());
        assert_eq!(
            List::Resources.notification()["method"],
            "notifications/resources/list_changed"
        );
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
