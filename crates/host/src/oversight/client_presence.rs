//! Which gateway clients are attached to this engine now: for each, how many sessions (stdio
//! through `gatehouse mcp` and HTTP alike) and since when the first of them. A session holds a
//! [`Present`] while it runs; its end (or its task's) lets go. Known only in the engine's
//! process, so the window shows it and a CLI running on its own does not.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;

use crate::running::server_logs::clock;

/// A client attached now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Attached {
    pub sessions: u32,
    /// When the oldest of its sessions still attached began (RFC 3339, UTC).
    pub since: String,
}

/// The clients attached now, by name.
#[derive(Debug, Default)]
pub struct Presence {
    clients: Mutex<HashMap<String, Vec<String>>>,
}

impl Presence {
    /// Records a session of `client` until the returned guard is dropped.
    pub fn enter(self: &Arc<Self>, client: &str) -> Present {
        let since = clock::now();
        self.lock()
            .entry(client.to_owned())
            .or_default()
            .push(since.clone());
        Present {
            presence: self.clone(),
            client: client.to_owned(),
            since,
        }
    }

    /// Whether `client` is attached now, and since when.
    pub fn of(&self, client: &str) -> Option<Attached> {
        let clients = self.lock();
        let sessions = clients.get(client)?;
        Some(Attached {
            sessions: u32::try_from(sessions.len()).unwrap_or(u32::MAX),
            since: sessions.iter().min()?.clone(),
        })
    }

    /// How many clients (by name) have a session attached now.
    pub fn attached(&self) -> usize {
        self.lock().values().filter(|s| !s.is_empty()).count()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<String>>> {
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One session attached; dropping it lets go.
#[derive(Debug)]
pub struct Present {
    presence: Arc<Presence>,
    client: String,
    since: String,
}

impl Drop for Present {
    fn drop(&mut self) {
        let mut clients = self.presence.lock();
        if let Some(sessions) = clients.get_mut(&self.client) {
            if let Some(at) = sessions.iter().position(|s| *s == self.since) {
                sessions.swap_remove(at);
            }
            if sessions.is_empty() {
                clients.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_is_attached_while_any_of_its_sessions_is() {
        let presence = Arc::new(Presence::default());
        assert_eq!(presence.of("cursor"), None);
        let first = presence.enter("cursor");
        let second = presence.enter("cursor");
        let other = presence.enter("codex");
        let attached = presence.of("cursor").expect("attached");
        assert_eq!(attached.sessions, 2);
        assert_eq!(presence.attached(), 2, "two clients, however many sessions");
        assert_eq!(attached.since, first.since, "since the oldest session");
        drop(first);
        assert_eq!(presence.of("cursor").map(|a| a.sessions), Some(1));
        drop(second);
        assert_eq!(presence.of("cursor"), None, "gone with its last session");
        assert!(
            presence.of("codex").is_some(),
            "another client is not affected"
        );
        assert_eq!(presence.attached(), 1);
        drop(other);
        assert_eq!(presence.attached(), 0);
        assert!(
            presence.lock().is_empty(),
            "nothing is kept of clients gone"
        );
    }
}
