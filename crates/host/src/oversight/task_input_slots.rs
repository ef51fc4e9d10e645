//! The input requests of tasks the gateway handed its 2026-07-28 clients (tasks extension, a
//! task `input_required` with `inputRequests`), each on its way through the gate
//! (`gateway::task_inputs`): by the gateway's task id and the server's key, whether the gate is
//! still deciding, it waits for the agent's `tasks/update`, or it was answered. Engine-wide (each
//! 2026-07-28 request over HTTP is a session of its own), at most [`MAX_SLOTS`]; each slot's
//! task (the request's way through the gate) is aborted when the slot goes, and a task's slots
//! go when its end is on record.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use gatehouse_mcp::error::RpcError;
use serde_json::Value;
use tokio::sync::{oneshot, watch};
use tokio::task::AbortHandle;

/// Input requests on their way at once, across clients.
pub const MAX_SLOTS: usize = 256;

/// Where a task's input request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The gate is deciding (or the person is asked).
    Screening,
    /// Waiting for the agent's answer.
    ForAgent,
    /// Answered (by the agent, the person or a rule), or given up.
    Answered,
}

/// A task's input request, by the gateway's task id and the server's key.
pub type SlotKey = (String, String);

struct Slot {
    phase: watch::Sender<Phase>,
    answer: Option<oneshot::Sender<Result<Value, RpcError>>>,
    way: Option<AbortHandle>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(way) = self.way.take() {
            way.abort();
        }
    }
}

/// The slots of every client's tasks.
#[derive(Default)]
pub struct TaskInputSlots {
    slots: Mutex<HashMap<SlotKey, Slot>>,
}

impl std::fmt::Debug for TaskInputSlots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskInputSlots").finish_non_exhaustive()
    }
}

impl TaskInputSlots {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SlotKey, Slot>> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The phase of `key`, watched; `None` when it has no slot.
    pub fn watch(&self, key: &SlotKey) -> Option<watch::Receiver<Phase>> {
        self.lock().get(key).map(|slot| slot.phase.subscribe())
    }

    /// Opens a slot for `key` (screening); `false` when it has one or too many are open.
    pub fn open(&self, key: &SlotKey) -> bool {
        let mut slots = self.lock();
        if slots.contains_key(key) || slots.len() >= MAX_SLOTS {
            return false;
        }
        slots.insert(
            key.clone(),
            Slot {
                phase: watch::Sender::new(Phase::Screening),
                answer: None,
                way: None,
            },
        );
        true
    }

    /// Gives the slot the task that takes its request through the gate (aborted with the slot).
    pub fn follow(&self, key: &SlotKey, way: AbortHandle) {
        match self.lock().get_mut(key) {
            Some(slot) => slot.way = Some(way),
            None => way.abort(),
        }
    }

    /// The gate put the request to the agent: its answer goes to `answer`.
    pub fn wait_for_agent(&self, key: &SlotKey, answer: oneshot::Sender<Result<Value, RpcError>>) {
        if let Some(slot) = self.lock().get_mut(key) {
            slot.answer = Some(answer);
            slot.phase.send_replace(Phase::ForAgent);
        }
    }

    /// The agent's answer to `key`; `false` when nothing waits for one.
    pub fn answer(&self, key: &SlotKey, response: Value) -> bool {
        let mut slots = self.lock();
        let Some(slot) = slots.get_mut(key) else {
            return false;
        };
        let Some(answer) = slot.answer.take() else {
            return false;
        };
        slot.phase.send_replace(Phase::Answered);
        answer.send(Ok(response)).is_ok()
    }

    /// The request is answered, whoever answered it.
    pub fn answered(&self, key: &SlotKey) {
        if let Some(slot) = self.lock().get(key) {
            slot.phase.send_replace(Phase::Answered);
        }
    }

    /// Ends every slot, aborting the requests still on their way (the engine stops).
    pub fn close_all(&self) {
        let slots = std::mem::take(&mut *self.lock());
        drop(slots);
    }

    /// Ends every slot of the task `task` (it ended, or was dropped): the requests still on
    /// their way through the gate are aborted, as nobody will answer them now.
    pub fn close_task(&self, task: &str) {
        let mut slots = self.lock();
        let gone: Vec<SlotKey> = slots.keys().filter(|k| k.0 == task).cloned().collect();
        let ended: Vec<Slot> = gone.iter().filter_map(|k| slots.remove(k)).collect();
        drop(slots);
        drop(ended);
    }

    /// Ends the slot of `key` (its task is the caller, ending: not aborted).
    pub fn close(&self, key: &SlotKey) {
        if let Some(mut slot) = self.lock().remove(key) {
            slot.way.take();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_goes_from_the_gate_to_the_agent_to_answered_once() {
        let slots = TaskInputSlots::default();
        let key = ("task".to_owned(), "user_name".to_owned());
        assert!(slots.open(&key));
        assert!(!slots.open(&key), "one slot per key");
        let phase = slots.watch(&key).expect("watched");
        assert_eq!(*phase.borrow(), Phase::Screening);
        assert!(
            !slots.answer(&key, Value::Null),
            "nothing waits for the agent yet: its answer is ignored"
        );
        let (answer, mut answered) = oneshot::channel();
        slots.wait_for_agent(&key, answer);
        assert_eq!(*phase.borrow(), Phase::ForAgent);
        assert!(slots.answer(&key, Value::Bool(true)));
        assert_eq!(
            answered.try_recv().expect("answered").expect("ok"),
            Value::Bool(true)
        );
        assert!(!slots.answer(&key, Value::Null), "answered once");
        assert_eq!(*phase.borrow(), Phase::Answered);
        slots.close(&key);
        assert!(slots.watch(&key).is_none());
    }

    #[tokio::test]
    async fn closing_every_slot_aborts_the_requests_on_their_way() {
        let slots = TaskInputSlots::default();
        let key = ("task".to_owned(), "k".to_owned());
        assert!(slots.open(&key));
        let way = tokio::spawn(std::future::pending::<()>());
        slots.follow(&key, way.abort_handle());
        slots.close_all();
        let ended = tokio::time::timeout(std::time::Duration::from_secs(5), way)
            .await
            .expect("step: the aborted request's task ends");
        assert!(ended.is_err_and(|e| e.is_cancelled()));
        assert!(slots.watch(&key).is_none());
    }

    #[tokio::test]
    async fn a_tasks_end_aborts_its_own_requests_on_their_way_only() {
        let slots = TaskInputSlots::default();
        let (mine, other) = (
            ("task".to_owned(), "k".to_owned()),
            ("other".to_owned(), "k".to_owned()),
        );
        let mut ways = Vec::new();
        for key in [&mine, &other] {
            assert!(slots.open(key));
            let way = tokio::spawn(std::future::pending::<()>());
            slots.follow(key, way.abort_handle());
            ways.push(way);
        }
        slots.close_task("task");
        let theirs = ways.pop().expect("the other task's");
        let ended = tokio::time::timeout(std::time::Duration::from_secs(5), ways.remove(0))
            .await
            .expect("step: the ended task's request stops");
        assert!(ended.is_err_and(|e| e.is_cancelled()));
        assert!(slots.watch(&mine).is_none());
        assert!(
            slots.watch(&other).is_some(),
            "another task's request goes on"
        );
        assert!(!theirs.is_finished());
        theirs.abort();
    }
}
