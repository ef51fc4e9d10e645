//! The tasks (of the tasks extension, `io.modelcontextprotocol/tasks`) the gateway hands its
//! 2026-07-28 clients (`gateway::task_handles`): each under a task id of the gateway's own
//! ([`TaskHandles::adopt`]: unguessable, bound to that client, mapped to the server and the
//! server's task id), dropped at the task's `ttlMs` or after [`MAX_TTL`], at most
//! [`MAX_PER_CLIENT`] per client (the one that expires first makes room). Engine-wide, held by
//! the host: over HTTP each 2026-07-28 request is a session of its own.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

/// Tasks one client may hold at once; the one that expires first is dropped for a new one.
pub const MAX_PER_CLIENT: usize = 64;
/// The longest a task is kept, whatever its `ttlMs` says (and when it says none).
pub const MAX_TTL: Duration = Duration::from_secs(60 * 60);

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

/// The tasks handed to the gateway's clients, by the gateway's task id.
#[derive(Debug, Default)]
pub struct TaskHandles {
    held: Mutex<HashMap<String, Held>>,
}

impl TaskHandles {
    /// Takes the server's `CreateTaskResult` for `client` and returns it under a task id of the
    /// gateway's own; `None` when it carries no task id.
    pub fn adopt(
        &self,
        client: &str,
        made: &MadeBy<'_>,
        mut handle: Value,
        now: Instant,
    ) -> Option<Value> {
        let server_task = handle.get("taskId")?.as_str()?.to_owned();
        let ttl = handle
            .get("ttlMs")
            .and_then(Value::as_u64)
            .map_or(MAX_TTL, Duration::from_millis)
            .min(MAX_TTL);
        let id = uuid::Uuid::new_v4().to_string();
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.retain(|_, h| h.expires > now);
        let mine: Vec<(&String, &Held)> = held.iter().filter(|(_, h)| h.client == client).collect();
        if mine.len() >= MAX_PER_CLIENT
            && let Some(oldest) = mine
                .into_iter()
                .min_by_key(|(_, h)| h.expires)
                .map(|(id, _)| id.clone())
        {
            held.remove(&oldest);
        }
        held.insert(
            id.clone(),
            Held {
                client: client.to_owned(),
                server_id: made.server_id.to_owned(),
                server: made.server.to_owned(),
                tool: made.tool.to_owned(),
                server_task,
                expires: now + ttl,
                ended: false,
            },
        );
        handle["taskId"] = json!(id);
        Some(handle)
    }

    /// Marks the end of the task `id` on record: `true` the first time only.
    pub fn end(&self, id: &str) -> bool {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get_mut(id)
            .is_some_and(|h| !std::mem::replace(&mut h.ended, true))
    }

    /// The server and its task id behind `id`, when `client` was given it and it has not
    /// expired.
    pub fn find(&self, client: &str, id: &str, now: Instant) -> Option<Held> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.retain(|_, h| h.expires > now);
        held.get(id).filter(|h| h.client == client).cloned()
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
            .expect("a task id");
        let id = given["taskId"].as_str().expect("an id");
        assert_ne!(id, "server-1", "the server's id is not shown");
        assert_eq!(given["status"], "working", "the rest as the server said");
        let held = tasks.find("a", id, now).expect("found by its client");
        assert_eq!(
            (held.server_id.as_str(), held.server_task.as_str()),
            ("srv", "server-1")
        );
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
            .expect("id");
        let short = short["taskId"].as_str().expect("an id").to_owned();
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
            .expect("id");
        let forever = forever["taskId"].as_str().expect("an id").to_owned();
        assert!(tasks.find("a", &forever, now + MAX_TTL).is_none(), "capped");
        let first = tasks
            .adopt("a", &made("s"), handle("first", json!(5000)), now)
            .expect("id");
        let first = first["taskId"].as_str().expect("an id").to_owned();
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
