//! The engine's own follow-up of a task it handed a 2026-07-28 agent (tasks extension): from the
//! moment the task is adopted ([`adopt`]) the engine asks the server that made it for it
//! (`tasks/get` with the server's own id: the same way the agent's `tasks/get` goes, minus the
//! agent, so nothing the agent sends is involved) at the task's `pollIntervalMs` (between
//! [`MIN_WAIT`] and [`MAX_WAIT`], backing off while nothing changes), so that its end is on the
//! audit log even when the agent never asks again: once, by whoever sees it first
//! (`oversight::task_ends`). A follow-up puts no input request to anyone (only the agent's
//! `tasks/get` shows them). It ends when the task ends, and at the task's expiry (an `expired`
//! row with the last status known); it is owned by the task's entry (`client_tasks`), so it is
//! aborted when the entry is dropped and when the engine stops (`task_ends::stop_all`). Once a
//! task's end is on record, its input requests still on their way through the gate are ended
//! (`task_input_slots`): nobody will answer them now.

use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::host::Host;
use crate::oversight::client_tasks::{Held, MadeBy, TaskHandles};
use crate::oversight::task_ends::{self, End, Seer};

/// The shortest wait between two polls, whatever the server asks.
pub const MIN_WAIT: Duration = Duration::from_secs(1);
/// The longest wait between two polls.
pub const MAX_WAIT: Duration = Duration::from_secs(30);
/// How long one poll may take (the server reconnecting included).
const POLL_WITHIN: Duration = Duration::from_secs(30);

/// Takes the server's `CreateTaskResult` for `client` (see `TaskHandles::adopt`), records the
/// end of a task dropped to make room, and starts the task's follow-up; the result under the
/// gateway's id, `None` when it carries no task id.
pub async fn adopt(
    host: &Arc<Host>,
    client: &str,
    made: &MadeBy<'_>,
    handle: Value,
) -> Option<Value> {
    let asked = handle.get("pollIntervalMs").and_then(Value::as_u64);
    let adopted = host
        .gateway_tasks()
        .adopt(client, made, handle, Instant::now())?;
    if let Some((id, held)) = &adopted.evicted {
        let end = End::Dropped { why: "evicted" };
        task_ends::record(host.audit(), id, held, end).await;
        host.gateway_task_inputs().close_task(id);
    }
    let (engine, id) = (Arc::downgrade(host), adopted.id.clone());
    let poller = tokio::spawn(async move { follow(engine, id, asked).await });
    host.gateway_tasks().follow(&adopted.id, poller);
    Some(adopted.given)
}

/// Follows the task `id` until it ends or expires, and records its end unless the agent's
/// `tasks/get` did first.
async fn follow(host: Weak<Host>, id: String, asked: Option<u64>) {
    let Some(host) = host.upgrade() else { return };
    let tasks: &TaskHandles = host.gateway_tasks();
    let Some(held) = tasks.held(&id) else { return };
    let get = || async {
        let ask = async {
            let server = host.live_client(&held.server_id).await.ok()?;
            let params = json!({ "taskId": held.server_task });
            server.task_request("tasks/get", params).await.ok()
        };
        tokio::time::timeout(POLL_WITHIN, ask).await.ok().flatten()
    };
    match until_end(tasks, &id, asked, get).await {
        Ending::Seen(got, held) => {
            let end = End::Seen {
                got: &got,
                by: Seer::Engine,
            };
            task_ends::record(host.audit(), &id, &held, end).await;
        }
        Ending::Expired(held) => {
            let end = End::Dropped { why: "expired" };
            task_ends::record(host.audit(), &id, &held, end).await;
            tasks.forget(&id);
        }
        Ending::Gone => return,
    }
    // Its input requests still on their way through the gate will not be answered now.
    host.gateway_task_inputs().close_task(&id);
}

/// How a follow-up ended.
#[derive(Debug)]
pub(crate) enum Ending {
    /// The server showed the task terminal first (this result), before the agent did.
    Seen(Value, Held),
    /// The task expired with its end not on record.
    Expired(Held),
    /// Its end was on record already, or the task is no longer held.
    Gone,
}

/// The wait before the next poll: what the server asked (`pollIntervalMs`), within
/// [`MIN_WAIT`]..=[`MAX_WAIT`], doubled for each poll in a row that changed nothing.
pub(crate) fn pace(asked: Option<u64>, unchanged: u32) -> Duration {
    let base = asked
        .map_or(MIN_WAIT, Duration::from_millis)
        .clamp(MIN_WAIT, MAX_WAIT);
    base.saturating_mul(1 << unchanged.min(5)).min(MAX_WAIT)
}

/// Polls the task `id` with `get` (its `tasks/get` result, `None` when the server could not say)
/// on tokio's clock until the server shows it terminal or it expires; the end is marked on
/// record in `tasks` (once) before it is returned.
pub(crate) async fn until_end<F, Fut>(
    tasks: &TaskHandles,
    id: &str,
    mut asked: Option<u64>,
    mut get: F,
) -> Ending
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<Value>>,
{
    let Some(expires) = tasks.expires(id) else {
        return Ending::Gone;
    };
    let expired = || tasks.end(id).map_or(Ending::Gone, Ending::Expired);
    let mut unchanged = 0;
    let mut last: Option<String> = None;
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(expires) => return expired(),
            () = tokio::time::sleep(pace(asked, unchanged)) => {}
        }
        let got = tokio::select! {
            () = tokio::time::sleep_until(expires) => return expired(),
            got = get() => got,
        };
        let status = got
            .as_ref()
            .and_then(|g| g.get("status"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let (Some(got), Some(status)) = (got, status) else {
            unchanged += 1;
            continue;
        };
        if task_ends::terminal(&status) {
            return match tasks.end(id) {
                Some(held) => Ending::Seen(got, held),
                None => Ending::Gone,
            };
        }
        if got.get("pollIntervalMs").is_some() {
            asked = got.get("pollIntervalMs").and_then(Value::as_u64);
        }
        if last.as_deref() == Some(status.as_str()) {
            unchanged += 1;
        } else {
            tasks.saw(id, &status);
            last = Some(status);
            unchanged = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::oversight::client_tasks::MAX_PER_CLIENT;

    fn made() -> MadeBy<'static> {
        MadeBy {
            server_id: "srv",
            server: "server",
            tool: "slow",
        }
    }

    /// A task adopted for client `a` with `ttl_ms`, its gateway id.
    fn adopted(tasks: &TaskHandles, ttl_ms: u64) -> String {
        let handle = json!({ "taskId": "t", "status": "working", "ttlMs": ttl_ms });
        tasks
            .adopt("a", &made(), handle, Instant::now())
            .expect("adopted")
            .id
    }

    #[test]
    fn the_wait_is_what_the_server_asks_within_bounds_and_backs_off() {
        assert_eq!(
            pace(Some(0), 0),
            MIN_WAIT,
            "a server cannot make it poll faster"
        );
        assert_eq!(pace(Some(100), 0), MIN_WAIT);
        assert_eq!(pace(None, 0), MIN_WAIT);
        assert_eq!(pace(Some(5000), 0), Duration::from_secs(5));
        assert_eq!(pace(Some(u64::MAX), 0), MAX_WAIT);
        assert_eq!(pace(Some(1000), 1), Duration::from_secs(2));
        assert_eq!(pace(Some(1000), 3), Duration::from_secs(8));
        assert_eq!(
            pace(Some(1000), 40),
            MAX_WAIT,
            "backing off stops at the most"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_task_that_never_ends_is_ended_at_its_expiry_with_its_last_status() {
        let tasks = TaskHandles::default();
        let id = adopted(&tasks, 10_000);
        let started = Instant::now();
        let polled = Mutex::new(Vec::new());
        let get = || {
            polled.lock().expect("lock").push(started.elapsed());
            async { Some(json!({ "status": "input_required", "pollIntervalMs": 100 })) }
        };
        let ending = until_end(&tasks, &id, Some(100), get).await;
        let Ending::Expired(held) = ending else {
            panic!("expired, not {ending:?}");
        };
        assert_eq!(started.elapsed(), Duration::from_secs(10), "at its ttl");
        assert_eq!(held.status, "input_required", "the last status known");
        let secs = |s| Duration::from_secs(s);
        assert_eq!(
            *polled.lock().expect("lock"),
            [secs(1), secs(2), secs(4), secs(8)],
            "at least a second apart, backing off while nothing changes"
        );
        assert!(tasks.end(&id).is_none(), "its end is on record once");
        assert!(tasks.find("a", &id, Instant::now()).is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn the_follow_up_that_sees_the_end_first_records_it_and_the_agent_does_not() {
        let tasks = TaskHandles::default();
        let id = adopted(&tasks, 60_000);
        let answers = Mutex::new(vec![
            None,
            Some(json!({ "status": "working" })),
            Some(json!({ "status": "completed", "result": { "content": [] } })),
        ]);
        let get = || {
            let next = answers.lock().expect("lock").remove(0);
            async move { next }
        };
        let ending = until_end(&tasks, &id, None, get).await;
        let Ending::Seen(got, held) = ending else {
            panic!("seen, not {ending:?}");
        };
        assert_eq!(got["status"], "completed");
        assert_eq!(held.status, "working", "the status before the end");
        assert!(
            tasks.end(&id).is_none(),
            "the agent's tasks/get records nothing"
        );
        assert!(
            tasks.find("a", &id, Instant::now()).is_some(),
            "the agent can still get it"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_follow_up_stops_when_the_agent_records_the_end_or_the_task_makes_room() {
        let tasks = Arc::new(TaskHandles::default());
        let working = || async { Some(json!({ "status": "working" })) };
        for evict in [false, true] {
            let id = adopted(&tasks, 60_000);
            let (follower, task) = (tasks.clone(), id.clone());
            // Dropped with the follow-up's future: the sign that it stopped.
            let (alive, stopped) = tokio::sync::oneshot::channel::<()>();
            let poller = tokio::spawn(async move {
                let _alive = alive;
                drop(until_end(&follower, &task, None, working).await);
            });
            let watched = poller.abort_handle();
            tasks.follow(&id, poller);
            // The clock is paused: this advances it past several polls, it waits for nothing.
            tokio::time::sleep(Duration::from_secs(5)).await;
            assert!(!watched.is_finished(), "followed while the task runs");
            if evict {
                let evicted = (0..MAX_PER_CLIENT)
                    .filter_map(|_| {
                        let handle = json!({ "taskId": "u", "ttlMs": 60_000 });
                        tasks.adopt("a", &made(), handle, Instant::now())?.evicted
                    })
                    .map(|(gone, held)| (gone, held.status))
                    .collect::<Vec<_>>();
                assert_eq!(
                    evicted,
                    [(id.clone(), "working".to_owned())],
                    "the oldest, handed back for its end to be recorded"
                );
            } else {
                assert!(tasks.end(&id).is_some(), "the agent saw the end first");
            }
            // Bounded on the paused clock: the follow-up's own timers let it advance.
            let waited = tokio::time::timeout(Duration::from_secs(1), stopped).await;
            assert!(
                waited.is_ok(),
                "step: the follow-up stops (evicted: {evict})"
            );
        }
    }
}
