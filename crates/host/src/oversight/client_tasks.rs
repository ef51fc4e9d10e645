//! The tasks (of the tasks extension, `io.modelcontextprotocol/tasks`) the gateway hands its
//! 2026-07-28 clients (`gateway::task_handles`): each under a task id of the gateway's own
//! ([`TaskHandles::adopt`]: unguessable, bound to that client, mapped to the server and the
//! server's task id), dropped at the task's `ttlMs` or after [`MAX_TTL`], at most
//! [`MAX_PER_CLIENT`] per client (the one that expires first makes room, handed back so its end
//! is recorded). Each task's follow-up (`gateway::task_follow`) is owned by its entry: dropping
//! the entry aborts it, unless the follow-up is the one dropping it. Engine-wide, held by the
//! host: over HTTP each 2026-07-28 request is a session of its own.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Tasks one client may hold at once; the one that expires first is dropped for a new one.
pub const MAX_PER_CLIENT: usize = 64;
/// The longest a task is kept, whatever its `ttlMs` says (and when it says none).
pub const MAX_TTL: Duration = Duration::from_secs(60 * 60);

/// The statuses a task has (tasks extension).
const STATUSES: [&str; 5] = [
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
];

/// A task handed to a client.
#[derive(Debug, Clone)]
pub struct Held {
    pub client: String,
    pub server_id: String,
    /// The server's name and the tool the task runs, for the audit row of its end.
    pub server: String,
    pub tool: String,
    pub server_task: String,
    pub expires: Instant,
    /// The last status the server gave (its `CreateTaskResult`, then each `tasks/get`).
    pub status: String,
    /// Whether its end is on record (once).
    pub ended: bool,
}

/// The call a task was made by: the server (id and name) and the tool.
#[derive(Debug, Clone)]
pub struct MadeBy<'a> {
    pub server_id: &'a str,
    pub server: &'a str,
    pub tool: &'a str,
}

/// A task handed to a client, under the gateway's id.
#[derive(Debug)]
pub struct Adopted {
    pub id: String,
    /// The server's `CreateTaskResult`, under the gateway's id.
    pub given: Value,
    /// The task dropped to make room, when its end was not on record yet.
    pub evicted: Option<(String, Held)>,
}

/// A held task and its follow-up.
#[derive(Debug)]
struct Entry {
    held: Held,
    poller: Option<JoinHandle<()>>,
}

impl Drop for Entry {
    fn drop(&mut self) {
        if let Some(poller) = self.poller.take()
            && Some(poller.id()) != tokio::task::try_id()
        {
            poller.abort();
        }
    }
}

/// A task taken out when the engine stops, with its follow-up (not aborted yet).
#[derive(Debug)]
pub struct Drained {
    pub id: String,
    pub held: Held,
    pub poller: Option<JoinHandle<()>>,
}

/// The tasks handed to the gateway's clients, by the gateway's task id.
#[derive(Debug, Default)]
pub struct TaskHandles {
    held: Mutex<HashMap<String, Entry>>,
}

impl TaskHandles {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the server's `CreateTaskResult` for `client` and returns it under a task id of the
    /// gateway's own; `None` when it carries no task id.
    pub fn adopt(
        &self,
        client: &str,
        made: &MadeBy<'_>,
        mut handle: Value,
        now: Instant,
    ) -> Option<Adopted> {
        let server_task = handle.get("taskId")?.as_str()?.to_owned();
        let ttl = handle
            .get("ttlMs")
            .and_then(Value::as_u64)
            .map_or(MAX_TTL, Duration::from_millis)
            .min(MAX_TTL);
        let status = handle
            .get("status")
            .and_then(Value::as_str)
            .filter(|s| STATUSES.contains(s))
            .unwrap_or("working")
            .to_owned();
        let id = uuid::Uuid::new_v4().to_string();
        let mut held = self.lock();
        // An expired task whose end is not on record yet is its follow-up's to drop.
        held.retain(|_, e| e.held.expires > now || !e.held.ended);
        let mine: Vec<(&String, &Entry)> = held
            .iter()
            .filter(|(_, e)| e.held.client == client)
            .collect();
        let mut evicted = None;
        if mine.len() >= MAX_PER_CLIENT
            && let Some(oldest) = mine
                .into_iter()
                .min_by_key(|(_, e)| e.held.expires)
                .map(|(id, _)| id.clone())
            && let Some(entry) = held.remove(&oldest)
            && !entry.held.ended
        {
            evicted = Some((oldest, entry.held.clone()));
        }
        held.insert(
            id.clone(),
            Entry {
                held: Held {
                    client: client.to_owned(),
                    server_id: made.server_id.to_owned(),
                    server: made.server.to_owned(),
                    tool: made.tool.to_owned(),
                    server_task,
                    expires: now + ttl,
                    status,
                    ended: false,
                },
                poller: None,
            },
        );
        handle["taskId"] = json!(id);
        Some(Adopted {
            id,
            given: handle,
            evicted,
        })
    }

    /// Gives the task `id` its follow-up, owned by it (aborted when it is dropped or ends).
    pub fn follow(&self, id: &str, poller: JoinHandle<()>) {
        match self.lock().get_mut(id) {
            Some(entry) if !entry.held.ended => entry.poller = Some(poller),
            _ => poller.abort(),
        }
    }

    /// Marks the end of the task `id` on record: the task as it was, the first time only. Its
    /// follow-up stops (unless it is the caller, recording the end itself).
    pub fn end(&self, id: &str) -> Option<Held> {
        let mut held = self.lock();
        let entry = held.get_mut(id).filter(|e| !e.held.ended)?;
        entry.held.ended = true;
        if let Some(poller) = entry.poller.as_ref()
            && Some(poller.id()) != tokio::task::try_id()
        {
            poller.abort();
        }
        Some(entry.held.clone())
    }

    /// The status the server last gave for the task `id` (one of the statuses a task has: a
    /// server's other text is not kept).
    pub fn saw(&self, id: &str, status: &str) {
        if !STATUSES.contains(&status) {
            return;
        }
        if let Some(entry) = self.lock().get_mut(id) {
            status.clone_into(&mut entry.held.status);
        }
    }

    /// When the task `id` expires; `None` when it is not held.
    pub fn expires(&self, id: &str) -> Option<Instant> {
        self.lock().get(id).map(|e| e.held.expires)
    }

    /// The task `id`, whoever holds it.
    pub fn held(&self, id: &str) -> Option<Held> {
        self.lock().get(id).map(|e| e.held.clone())
    }

    /// Drops the task `id` (by its follow-up, once its end is on record).
    pub fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Takes every task out (the engine stops), each with its follow-up still to stop.
    pub fn drain(&self) -> Vec<Drained> {
        let entries = std::mem::take(&mut *self.lock());
        entries
            .into_iter()
            .map(|(id, mut entry)| Drained {
                id,
                held: entry.held.clone(),
                poller: entry.poller.take(),
            })
            .collect()
    }

    /// The server and its task id behind `id`, when `client` was given it and it has not
    /// expired.
    pub fn find(&self, client: &str, id: &str, now: Instant) -> Option<Held> {
        let mut held = self.lock();
        held.retain(|_, e| e.held.expires > now || !e.held.ended);
        held.get(id)
            .map(|e| &e.held)
            .filter(|h| h.client == client && h.expires > now)
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(server_id: &str) -> MadeBy<'_> {
        MadeBy {
            server_id,
            server: "server",
            tool: "tool",
        }
    }

    fn handle(task: &str, ttl: Value) -> Value {
        json!({ "resultType": "task", "taskId": task, "status": "working", "ttlMs": ttl })
    }

    #[test]
    fn a_task_is_found_by_its_own_client_only_and_under_a_new_id() {
        let tasks = TaskHandles::default();
        let now = Instant::now();
        let given = tasks
            .adopt("a", &made("srv"), handle("server-1", json!(60000)), now)
            .expect("a task id")
            .given;
        let id = given["taskId"].as_str().expect("an id");
        assert_ne!(id, "server-1", "the server's id is not shown");
        assert_eq!(given["status"], "working", "the rest as the server said");
        let held = tasks.find("a", id, now).expect("found by its client");
        assert_eq!(
            (held.server_id.as_str(), held.server_task.as_str()),
            ("srv", "server-1")
        );
        assert_eq!(held.status, "working");
        tasks.saw(id, "made-up by the server");
        assert_eq!(
            tasks.held(id).expect("held").status,
            "working",
            "not a status"
        );
        tasks.saw(id, "input_required");
        assert_eq!(tasks.held(id).expect("held").status, "input_required");
        assert!(tasks.find("b", id, now).is_none(), "another client's task");
        assert!(
            tasks.find("a", "server-1", now).is_none(),
            "the server's id"
        );
    }

    #[test]
    fn a_task_is_dropped_at_its_ttl_and_the_oldest_when_a_client_holds_too_many() {
        let tasks = TaskHandles::default();
        let now = Instant::now();
        let short = tasks
            .adopt("a", &made("s"), handle("t", json!(1000)), now)
            .expect("id")
            .id;
        assert!(
            tasks
                .find("a", &short, now + Duration::from_millis(999))
                .is_some()
        );
        assert!(
            tasks
                .find("a", &short, now + Duration::from_millis(1000))
                .is_none()
        );
        let forever = tasks
            .adopt("a", &made("s"), handle("u", Value::Null), now)
            .expect("id")
            .id;
        assert!(tasks.find("a", &forever, now + MAX_TTL).is_none(), "capped");
        let first = tasks
            .adopt("a", &made("s"), handle("first", json!(5000)), now)
            .expect("id")
            .id;
        for n in 0..MAX_PER_CLIENT {
            tasks.adopt("a", &made("s"), handle(&format!("n{n}"), json!(60000)), now);
        }
        assert!(
            tasks.find("a", &first, now).is_none(),
            "the oldest made room"
        );
        assert!(
            tasks
                .adopt("a", &made("s"), json!({ "resultType": "task" }), now)
                .is_none()
        );
    }
}
