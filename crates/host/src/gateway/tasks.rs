//! Tasks the gateway keeps for one agent session (2025-11-25 basic/utilities/tasks): a
//! `tools/call` the agent augments with `task` is answered at once with the task (`working`),
//! runs through the gate as any call does, and its outcome is kept for `tasks/get`,
//! `tasks/result`, `tasks/list` and `tasks/cancel`.
//!
//! The tasks are the session's alone (§Security: "receivers MUST bind tasks to [the
//! requestor's] context"): another agent, or another session of the same one, never sees them.
//! Their ids are random UUIDs all the same. Bounded: at most [`MAX_TASKS`] kept per session
//! (one more is refused until one ends and expires), each kept for its `ttl` after it was made
//! (the agent's, at most [`MAX_TTL`]; [`DEFAULT_TTL`] when it gives none), its result included.
//! Whether the call reaches the server as a task of the server's own is the host's business
//! (`sessions::task_follow`); the agent sees one task either way.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::replies::fail;
use super::task_entry::{Entry, Status};
pub use super::task_entry::{Failure, Outcome};
use crate::running::server_logs::clock;
use crate::vocabulary::caller_info;

/// Tasks one session may have kept at once.
pub const MAX_TASKS: usize = 64;
/// How long a task is kept when the agent asks for no `ttl`.
pub const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);
/// The longest a task is kept, whatever the agent asks.
pub const MAX_TTL: Duration = Duration::from_secs(60 * 60);
/// The `_meta` key relating a message to its task.
pub const RELATED: &str = "io.modelcontextprotocol/related-task";

const INVALID_PARAMS: i64 = -32602;
const INTERNAL: i64 = -32603;

/// A task just made: what to answer the agent, and what the request runs with.
#[derive(Debug)]
pub struct Made {
    pub id: String,
    /// The `CreateTaskResult`.
    pub created: Value,
    /// Becomes true when the agent cancels the task.
    pub cancelled: watch::Receiver<bool>,
}

/// One session's tasks. Dropped with the session, it stops the calls still running.
#[derive(Debug, Default)]
pub struct AgentTasks {
    table: Mutex<BTreeMap<String, Entry>>,
    running: Mutex<JoinSet<()>>,
}

impl AgentTasks {
    /// Makes a task for a request whose `params.task` is `asked` and runs the request (`run`,
    /// given what cancels it) in the background, in the caller's audit scope; answers the
    /// `CreateTaskResult` at once. `run` answering `None` (cancelled) ends the task `cancelled`.
    pub fn start<F, Fut>(self: &Arc<Self>, asked: &Value, now: Instant, run: F) -> Outcome
    where
        F: FnOnce(watch::Receiver<bool>) -> Fut,
        Fut: Future<Output = Option<Outcome>> + Send + 'static,
    {
        let made = self.create(asked, now)?;
        let work = caller_info::scope(caller_info::current(), run(made.cancelled));
        let (tasks, id) = (Arc::downgrade(self), made.id);
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        // Reaps the tasks that ended, so the set holds only running ones.
        while running.try_join_next().is_some() {}
        running.spawn(async move {
            let outcome = work
                .await
                .unwrap_or_else(|| Err(fail(INTERNAL, format!("task `{id}` was cancelled"))));
            if let Some(tasks) = Weak::upgrade(&tasks) {
                tasks.finish(&id, outcome);
            }
        });
        Ok(made.created)
    }

    fn table(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes a task for a request whose `params.task` is `asked` (`{ ttl? }`).
    fn create(&self, asked: &Value, now: Instant) -> Result<Made, Failure> {
        let ttl = match asked.get("ttl") {
            None | Some(Value::Null) => DEFAULT_TTL,
            Some(ttl) => match ttl.as_u64() {
                Some(ms) => Duration::from_millis(ms).min(MAX_TTL),
                None => {
                    return Err(fail(
                        INVALID_PARAMS,
                        "`task.ttl` must be a whole number of milliseconds".to_owned(),
                    ));
                }
            },
        };
        let mut table = self.table();
        table.retain(|_, entry| !entry.expired(now));
        if table.len() >= MAX_TASKS {
            return Err(fail(
                INVALID_PARAMS,
                format!(
                    "this session already has {MAX_TASKS} tasks kept; fetch or cancel some, or \
                     wait for them to expire"
                ),
            ));
        }
        let id = uuid::Uuid::new_v4().to_string();
        let at = clock::now();
        let (cancel, cancelled) = watch::channel(false);
        let entry = Entry {
            created_at: at.clone(),
            updated_at: at,
            made: now,
            ttl,
            status: Status::Working,
            message: None,
            outcome: watch::Sender::new(None),
            cancel,
        };
        let created = json!({ "task": entry.view(&id) });
        table.insert(id.clone(), entry);
        Ok(Made {
            id,
            created,
            cancelled,
        })
    }

    /// Records how the request ended: `completed`, or `failed` for an error or a tool result
    /// with `isError` (§Task Execution Errors). A cancelled task stays cancelled.
    pub fn finish(&self, id: &str, outcome: Outcome) {
        let mut table = self.table();
        let Some(entry) = table.get_mut(id) else {
            return;
        };
        if entry.status == Status::Working {
            let failed = match &outcome {
                Err(failure) => Some(failure.message.clone()),
                Ok(result) if result.get("isError") == Some(&Value::Bool(true)) => {
                    Some("the tool's result is an error".to_owned())
                }
                Ok(_) => None,
            };
            entry.status = if failed.is_some() {
                Status::Failed
            } else {
                Status::Completed
            };
            entry.message = failed;
            entry.updated_at = clock::now();
        }
        entry.outcome.send_replace(Some(outcome));
    }

    /// `tasks/get`.
    pub fn get(&self, params: &Value, now: Instant) -> Result<Value, Failure> {
        let id = task_id(params)?;
        let table = self.table();
        let entry = live(&table, id, now)?;
        Ok(entry.view(id))
    }

    /// `tasks/list`: this session's tasks, newest last; all of them fit one page.
    pub fn list(&self, now: Instant) -> Value {
        let table = self.table();
        let tasks: Vec<Value> = table
            .iter()
            .filter(|(_, entry)| !entry.expired(now))
            .map(|(id, entry)| entry.view(id))
            .collect();
        json!({ "tasks": tasks })
    }

    /// `tasks/cancel`: refused for a task already ended (-32602); else the request is stopped
    /// and the task is `cancelled` before the answer.
    pub fn cancel(&self, params: &Value, now: Instant) -> Result<Value, Failure> {
        let id = task_id(params)?;
        let mut table = self.table();
        live(&table, id, now)?;
        let Some(entry) = table.get_mut(id) else {
            return Err(unknown(id));
        };
        if entry.status != Status::Working {
            return Err(fail(
                INVALID_PARAMS,
                format!("task `{id}` has already ended ({})", entry.status.name()),
            ));
        }
        entry.status = Status::Cancelled;
        entry.message = Some("cancelled by the agent".to_owned());
        entry.updated_at = clock::now();
        entry.cancel.send_replace(true);
        Ok(entry.view(id))
    }

    /// `tasks/result`: waits until the task ends, then answers what the request was answered
    /// with, related to the task in `_meta`. A cancelled task's is an error saying so.
    pub async fn result(&self, params: &Value, now: Instant) -> Result<Value, Failure> {
        let id = task_id(params)?.to_owned();
        let mut outcome = {
            let table = self.table();
            live(&table, &id, now)?.outcome.subscribe()
        };
        let cancelled = async {
            let mut cancel = {
                let table = self.table();
                match table.get(&id) {
                    Some(entry) => entry.cancel.subscribe(),
                    None => return,
                }
            };
            let _ = cancel.wait_for(|set| *set).await;
        };
        let ended = tokio::select! {
            ended = outcome.wait_for(Option::is_some) => ended.ok().and_then(|o| o.clone()),
            () = cancelled => None,
        };
        match ended {
            Some(Ok(mut result)) => {
                if let Some(fields) = result.as_object_mut() {
                    let meta = fields.entry("_meta").or_insert_with(|| json!({}));
                    if let Some(meta) = meta.as_object_mut() {
                        meta.insert(RELATED.into(), json!({ "taskId": id }));
                    }
                }
                Ok(result)
            }
            Some(Err(failure)) => Err(failure),
            None => Err(fail(INVALID_PARAMS, format!("task `{id}` was cancelled"))),
        }
    }

    /// `tasks/get`, `tasks/list`, `tasks/cancel` and `tasks/result`; `None` for another method.
    pub async fn answer(&self, method: &str, params: &Value) -> Option<Outcome> {
        let now = Instant::now();
        Some(match method {
            "tasks/get" => self.get(params, now),
            "tasks/list" => Ok(self.list(now)),
            "tasks/cancel" => self.cancel(params, now),
            "tasks/result" => self.result(params, now).await,
            _ => return None,
        })
    }

    /// Stops every task still running (the session ends): cancelled, their calls end as
    /// cancelled ones do; one that has not after `grace` is cut.
    pub async fn stop(&self, grace: Duration) {
        for entry in self.table().values_mut() {
            if entry.status == Status::Working {
                entry.status = Status::Cancelled;
                entry.message = Some("the agent's session ended".to_owned());
                entry.updated_at = clock::now();
            }
            entry.cancel.send_replace(true);
        }
        let mut running =
            std::mem::take(&mut *self.running.lock().unwrap_or_else(PoisonError::into_inner));
        let ended = async { while running.join_next().await.is_some() {} };
        if tokio::time::timeout(grace, ended).await.is_err() {
            running.abort_all();
        }
    }
}

fn task_id(params: &Value) -> Result<&str, Failure> {
    params
        .get("taskId")
        .and_then(Value::as_str)
        .ok_or_else(|| fail(INVALID_PARAMS, "`taskId` is missing"))
}

fn live<'a>(
    table: &'a BTreeMap<String, Entry>,
    id: &str,
    now: Instant,
) -> Result<&'a Entry, Failure> {
    table
        .get(id)
        .filter(|entry| !entry.expired(now))
        .ok_or_else(|| unknown(id))
}

fn unknown(id: &str) -> Failure {
    fail(
        INVALID_PARAMS,
        format!("no task `{id}` in this session (tasks are kept for their ttl)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_of(made: &Made) -> Value {
        json!({ "taskId": made.id })
    }

    #[tokio::test]
    async fn a_task_works_then_completes_and_its_result_is_related_to_it() {
        let tasks = AgentTasks::default();
        let now = Instant::now();
        let made = tasks.create(&json!({ "ttl": 60_000 }), now).expect("made");
        assert_eq!(made.created["task"]["status"], "working");
        assert_eq!(made.created["task"]["ttl"], 60_000);
        assert_eq!(
            tasks.get(&id_of(&made), now).expect("get")["status"],
            "working"
        );

        let asked = id_of(&made);
        let waiting = tasks.result(&asked, now);
        tasks.finish(&made.id, Ok(json!({ "content": [] })));
        let result = waiting.await.expect("the result");
        assert_eq!(result["_meta"][RELATED]["taskId"], made.id.as_str());
        assert_eq!(
            tasks.get(&id_of(&made), now).expect("get")["status"],
            "completed"
        );
        assert_eq!(tasks.list(now)["tasks"].as_array().map(Vec::len), Some(1));
    }

    #[tokio::test]
    async fn an_error_result_fails_the_task_and_an_error_is_answered_as_it_was() {
        let tasks = AgentTasks::default();
        let now = Instant::now();
        let made = tasks.create(&json!({}), now).expect("made");
        tasks.finish(&made.id, Ok(json!({ "content": [], "isError": true })));
        let task = tasks.get(&id_of(&made), now).expect("get");
        assert_eq!(task["status"], "failed");
        assert!(task["statusMessage"].is_string());

        let other = tasks.create(&json!({}), now).expect("made");
        tasks.finish(&other.id, Err(fail(-32603, "the server went away")));
        assert_eq!(
            tasks.result(&id_of(&other), now).await,
            Err(fail(-32603, "the server went away"))
        );
    }

    #[tokio::test]
    async fn cancelling_stops_the_request_and_a_cancelled_task_stays_cancelled() {
        let tasks = AgentTasks::default();
        let now = Instant::now();
        let made = tasks.create(&json!({}), now).expect("made");
        let asked = id_of(&made);
        let waiting = tasks.result(&asked, now);
        let cancelled = tasks.cancel(&id_of(&made), now).expect("cancel");
        assert_eq!(cancelled["status"], "cancelled");
        assert!(*made.cancelled.borrow(), "the request is told to stop");
        assert!(waiting.await.is_err(), "a waiting tasks/result ends");
        tasks.finish(&made.id, Ok(json!({ "content": [] })));
        assert_eq!(
            tasks.get(&id_of(&made), now).expect("get")["status"],
            "cancelled"
        );
        let again = tasks.cancel(&id_of(&made), now).expect_err("ended");
        assert_eq!(again.code, INVALID_PARAMS);
    }

    #[tokio::test]
    async fn a_session_ending_cancels_its_running_tasks_and_cuts_one_that_lingers() {
        let tasks = Arc::new(AgentTasks::default());
        let (ended, mut heard) = tokio::sync::mpsc::channel(2);
        let polite = ended.clone();
        tasks
            .start(
                &json!({}),
                Instant::now(),
                move |mut cancelled| async move {
                    let _ = cancelled.wait_for(|set| *set).await;
                    let _ = polite.send("cancelled").await;
                    None
                },
            )
            .expect("started");
        tasks
            .start(&json!({}), Instant::now(), |_| std::future::pending())
            .expect("started");
        tokio::time::timeout(
            Duration::from_secs(10),
            tasks.stop(Duration::from_millis(50)),
        )
        .await
        .expect("the session's end is bounded");
        assert_eq!(heard.recv().await, Some("cancelled"));
        drop(ended);
        assert_eq!(heard.recv().await, None, "nothing else runs");
        let listed = tasks.list(Instant::now());
        let statuses: Vec<&Value> = listed["tasks"]
            .as_array()
            .expect("tasks")
            .iter()
            .map(|t| &t["status"])
            .collect();
        assert_eq!(
            statuses,
            [&json!("cancelled"), &json!("cancelled")],
            "{listed}"
        );
    }

    #[test]
    fn tasks_are_bounded_and_expire_after_their_ttl() {
        let tasks = AgentTasks::default();
        let now = Instant::now();
        let first = tasks.create(&json!({ "ttl": 1_000 }), now).expect("made");
        for _ in 1..MAX_TASKS {
            tasks.create(&json!({}), now).expect("made");
        }
        assert!(
            tasks.create(&json!({}), now).is_err(),
            "one more is refused"
        );
        let later = now + Duration::from_millis(1_000);
        assert!(tasks.get(&id_of(&first), later).is_err(), "expired");
        tasks
            .create(&json!({}), later)
            .expect("room once one expired");
        let huge = tasks.create(&json!({ "ttl": u64::MAX }), later);
        assert!(huge.is_err(), "full again");
        assert!(tasks.create(&json!({ "ttl": "soon" }), later).is_err());
    }

    #[test]
    fn a_ttl_is_clipped_and_an_unknown_or_missing_id_is_refused() {
        let tasks = AgentTasks::default();
        let now = Instant::now();
        let made = tasks
            .create(&json!({ "ttl": u64::MAX }), now)
            .expect("made");
        assert_eq!(
            made.created["task"]["ttl"],
            u64::try_from(MAX_TTL.as_millis()).expect("fits")
        );
        assert!(tasks.get(&json!({ "taskId": "nope" }), now).is_err());
        assert!(tasks.get(&json!({}), now).is_err());
        assert!(tasks.cancel(&json!({ "taskId": 7 }), now).is_err());
    }
}
