//! What the gateway's agents hear from the servers: the notifications an agent may be given
//! (log messages, resource updates, prompt and resource list changes), offered by every live
//! session's handler ([`super::from_server::AuditedHandler`]) on one bounded broadcast; and the
//! resource subscriptions agents share, counted per server and URI so that a server is asked to
//! subscribe once for all the agents that want a resource and to unsubscribe when the last of
//! them no longer does (2025-11-25 server/resources, "Subscriptions").

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use tokio::sync::broadcast;

/// How many notifications wait for the slowest agent before it misses some.
pub const AGENT_NOTICES: usize = 256;

/// A server's notification an agent may be given.
#[derive(Debug, Clone)]
pub struct ServerNote {
    pub server_id: String,
    pub server: String,
    pub method: String,
    pub params: Option<Value>,
}

/// Whether agents are offered a server's notification of this method.
pub fn for_agents(method: &str) -> bool {
    matches!(
        method,
        "notifications/message"
            | "notifications/resources/updated"
            | "notifications/resources/list_changed"
            | "notifications/prompts/list_changed"
    )
}

/// The servers' notifications for agents, and the agents' resource subscriptions.
#[derive(Debug, Clone)]
pub struct AgentNotices {
    notes: broadcast::Sender<ServerNote>,
    subscribed: Arc<Mutex<HashMap<(String, String), usize>>>,
}

impl Default for AgentNotices {
    fn default() -> Self {
        Self {
            notes: broadcast::channel(AGENT_NOTICES).0,
            subscribed: Arc::default(),
        }
    }
}

impl AgentNotices {
    /// Offers a server's notification to the agents listening, if it is one they are given.
    pub fn offer(&self, server_id: &str, server: &str, method: &str, params: Option<&Value>) {
        if for_agents(method) && self.notes.receiver_count() > 0 {
            let _ = self.notes.send(ServerNote {
                server_id: server_id.to_owned(),
                server: server.to_owned(),
                method: method.to_owned(),
                params: params.cloned(),
            });
        }
    }

    /// The notifications offered from now on.
    pub fn listen(&self) -> broadcast::Receiver<ServerNote> {
        self.notes.subscribe()
    }

    /// Counts one more agent subscribed to `uri` of `server_id`; true when it is the first, so
    /// the server must be asked.
    pub fn subscribe(&self, server_id: &str, uri: &str) -> bool {
        let mut counts = self
            .subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let count = counts
            .entry((server_id.to_owned(), uri.to_owned()))
            .or_insert(0);
        *count += 1;
        *count == 1
    }

    /// Counts one agent fewer subscribed to `uri` of `server_id`; true when it was the last, so
    /// the server must be told.
    pub fn unsubscribe(&self, server_id: &str, uri: &str) -> bool {
        let mut counts = self
            .subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let key = (server_id.to_owned(), uri.to_owned());
        match counts.get_mut(&key) {
            Some(count) if *count > 1 => {
                *count -= 1;
                false
            }
            Some(_) => {
                counts.remove(&key);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_is_subscribed_for_the_first_agent_and_unsubscribed_after_the_last() {
        let notices = AgentNotices::default();
        assert!(notices.subscribe("s", "a://1"), "the first asks the server");
        assert!(!notices.subscribe("s", "a://1"), "the second does not");
        assert!(notices.subscribe("t", "a://1"), "another server is its own");
        assert!(
            !notices.unsubscribe("s", "a://1"),
            "one agent still wants it"
        );
        assert!(notices.unsubscribe("s", "a://1"), "the last one left");
        assert!(!notices.unsubscribe("s", "a://1"), "nobody was subscribed");
    }

    #[test]
    fn agents_are_offered_logs_updates_and_list_changes_only() {
        let notices = AgentNotices::default();
        let mut heard = notices.listen();
        notices.offer("id", "s", "notifications/progress", None);
        notices.offer("id", "s", "notifications/message", None);
        let note = heard.try_recv().expect("the log message");
        assert_eq!(
            (note.server.as_str(), note.method.as_str()),
            ("s", "notifications/message")
        );
        assert!(heard.try_recv().is_err(), "progress is not offered");
    }
}
