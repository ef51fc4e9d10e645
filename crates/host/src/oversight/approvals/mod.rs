//! The approval queue: requests the policy asks about (and server requests only a person can
//! answer) wait here for an answer. The queue belongs to the engine, not to a window: the app
//! shows what is pending (and finds it again after a reload), the CLI puts it to the person at
//! the terminal, and where nobody can answer (no window, no terminal) a request is refused at
//! once instead of waiting.
//!
//! Bounded and shared fairly: at most [`CAPACITY`] requests wait at once, and each asker (a
//! server, a server's app, later a gateway client) has its own share ([`quota`]): a few waiting
//! at once and a few a minute, so one asker cannot fill the queue for the others. A request
//! past a bound is refused at once, saying why. Each waits at most the timeout (default
//! [`DEFAULT_TIMEOUT`]), after which it is denied. A request whose requester gives up (a
//! cancelled call, a server that withdrew its request or went away) leaves the queue at once.
//!
//! An asker first reserves a place (`Approvals::reserve`), then asks (`Slot::ask`, which a
//! withdrawal ends); `answer` and `pending` serve the faces. `set_attended(false)` (no window, no
//! terminal) makes every request refused at once. The timeout can be set with
//! `GATEHOUSE_APPROVAL_TIMEOUT` (seconds). An answer that does not fit (edited arguments against
//! the tool's `inputSchema`, a form's content against its requested schema) is refused and the
//! request keeps waiting. What is shown (`Question`, with what a grant covers by default and
//! whether "always" is offered) is in `vocabulary::approval`.

mod answer;
pub(crate) mod changes;
pub(crate) mod quota;
pub mod site;

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::sync::oneshot;

pub use crate::vocabulary::approval::{DefinitionChange, PendingApproval, Question};
pub use answer::{Answer, AnsweredBy, Scope};
pub use quota::Asker;

use crate::error::{HostError, Result};
use crate::vocabulary::events::{EngineEvent, EventBus};
use crate::vocabulary::request::Source;

/// How many requests may wait for a person at once.
pub const CAPACITY: usize = 64;

/// How long a request waits for an answer before it is denied.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// The environment variable that sets the timeout, in seconds.
pub const TIMEOUT_VAR: &str = "GATEHOUSE_APPROVAL_TIMEOUT";

/// How a request put to the person ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Answered(Answer),
    /// Nobody answered within the timeout.
    TimedOut(Duration),
    /// Nobody can answer here.
    Unattended,
    /// Refused at once: the queue is full, or the asker used up its share (why, in words).
    Limited(String),
    /// The requester withdrew it before an answer (why, in words).
    Withdrawn(String),
}

/// What a request needs the person to judge, as the gate hands it over.
#[derive(Debug, Clone)]
pub struct Asking {
    pub server: String,
    pub server_id: String,
    pub source: Source,
    pub reason: String,
    pub rule: Option<String>,
    pub question: Question,
}

struct Waiting {
    pending: PendingApproval,
    reply: oneshot::Sender<Answer>,
}

/// The queue's state, under one lock: what waits, each asker's share, and the places taken
/// (a place is taken from [`Approvals::reserve`] until its request leaves).
#[derive(Default)]
struct State {
    waiting: Vec<Waiting>,
    quota: quota::Quota,
    taken: usize,
}

struct Inner {
    state: Mutex<State>,
    attended: AtomicBool,
    /// Milliseconds; the settings change it while requests wait (each keeps the one it began with).
    timeout_ms: AtomicU64,
    events: EventBus,
}

fn millis(timeout: Duration) -> u64 {
    u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX)
}

/// The queue; clones share it.
#[derive(Clone)]
pub struct Approvals {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approvals")
            .field("pending", &self.lock().waiting.len())
            .field("attended", &self.attended())
            .finish()
    }
}

/// A place in the queue for one request of one asker, taken by [`Approvals::reserve`] and
/// given back when it is dropped.
pub struct Slot {
    approvals: Approvals,
    asker: Asker,
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slot").field("asker", &self.asker).finish()
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.approvals.lock();
        state.taken = state.taken.saturating_sub(1);
        state.quota.leave(&self.asker);
    }
}

impl Approvals {
    /// A queue nobody answers yet (see [`Approvals::set_attended`]).
    pub fn new(events: EventBus, timeout: Duration) -> Self {
        Self {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                attended: AtomicBool::new(false),
                timeout_ms: AtomicU64::new(millis(timeout)),
                events,
            }),
        }
    }

    /// The timeout from [`TIMEOUT_VAR`], else [`DEFAULT_TIMEOUT`]. A value that is not a
    /// positive number of seconds is an error naming the variable.
    pub fn timeout_from_env() -> Result<Duration> {
        match std::env::var(TIMEOUT_VAR) {
            Err(_) => Ok(DEFAULT_TIMEOUT),
            Ok(text) => match text.trim().parse::<u64>() {
                Ok(seconds) if seconds > 0 => Ok(Duration::from_secs(seconds)),
                _ => Err(HostError::Validation(format!(
                    "{TIMEOUT_VAR} must be a positive number of seconds, not `{text}`"
                ))),
            },
        }
    }

    /// Says whether someone (a window, a person at a terminal) answers what is asked. While
    /// nobody does, requests that need an answer are refused at once.
    pub fn set_attended(&self, attended: bool) {
        self.inner.attended.store(attended, Ordering::SeqCst);
    }

    pub fn attended(&self) -> bool {
        self.inner.attended.load(Ordering::SeqCst)
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.inner.timeout_ms.load(Ordering::SeqCst))
    }

    /// The timeout of the requests asked from now on (the engine's settings).
    pub fn set_timeout(&self, timeout: Duration) {
        self.inner
            .timeout_ms
            .store(millis(timeout), Ordering::SeqCst);
    }

    /// What is waiting, oldest first.
    pub fn pending(&self) -> Vec<PendingApproval> {
        self.lock()
            .waiting
            .iter()
            .map(|w| w.pending.clone())
            .collect()
    }

    /// Takes a place in the queue for a request of `asker`, or refuses at once: nobody can
    /// answer ([`Outcome::Unattended`]), or the queue is full or the asker has used up its share
    /// ([`Outcome::Limited`], saying which). The time is tokio's clock.
    pub fn reserve(&self, asker: Asker) -> std::result::Result<Slot, Outcome> {
        if !self.attended() {
            return Err(Outcome::Unattended);
        }
        let mut state = self.lock();
        if state.taken >= CAPACITY {
            tracing::warn!(
                "refused a request for `{}`: {CAPACITY} requests already wait for an answer",
                asker.server_id
            );
            return Err(Outcome::Limited(format!(
                "{CAPACITY} requests already wait for an answer; answer them first"
            )));
        }
        if let Err(why) = state.quota.admit(&asker, tokio::time::Instant::now()) {
            tracing::warn!("refused a request for `{}`: {why}", asker.server_id);
            return Err(Outcome::Limited(why));
        }
        state.taken += 1;
        drop(state);
        Ok(Slot {
            approvals: self.clone(),
            asker,
        })
    }

    /// Puts a request to the person and waits for the answer, the timeout, or (when the
    /// returned future is dropped) the requester giving up, which takes it off the queue. Its
    /// asker is its server and source.
    pub async fn ask(&self, asking: Asking) -> Outcome {
        let asker = Asker::new(&asking.server_id, asking.source, None);
        match self.reserve(asker) {
            Ok(slot) => slot.ask(asking, std::future::pending()).await,
            Err(refused) => refused,
        }
    }

    /// Answers the pending request `id`. An answer that does not fit the question, or edited
    /// arguments that do not match the tool's `inputSchema`, are refused and the request keeps
    /// waiting.
    pub fn answer(&self, id: &str, answer: Answer) -> Result<()> {
        let waiting = {
            let mut state = self.lock();
            let waiting = &mut state.waiting;
            let Some(at) = waiting.iter().position(|w| w.pending.id == id) else {
                return Err(HostError::NotFound(format!(
                    "pending request {id} (it was answered, timed out or withdrawn)"
                )));
            };
            check(&waiting[at].pending.question, &answer)?;
            waiting.remove(at)
        };
        let answered = answer.describe();
        // The requester may have given up just now; then the answer has nowhere to go.
        let _ = waiting.reply.send(answer);
        self.inner.events.publish(EngineEvent::ApprovalAnswered {
            id: id.to_owned(),
            answer: answered,
        });
        self.changed();
        Ok(())
    }

    fn changed(&self) {
        let pending = self.lock().waiting.len();
        self.inner
            .events
            .publish(EngineEvent::ApprovalsChanged { pending });
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Slot {
    /// Puts the request to the person in this place and waits for the answer, the timeout, or
    /// `withdrawn` (the requester taking it back, with why), which takes it off the queue and
    /// off the person's screens. Dropping the returned future takes it off too. The place is
    /// kept until the slot is dropped, so the same request can be asked again in it.
    pub async fn ask(&self, asking: Asking, withdrawn: impl Future<Output = String>) -> Outcome {
        let approvals = &self.approvals;
        let (reply, answered) = oneshot::channel();
        let now = epoch_ms(SystemTime::now());
        let timeout = approvals.timeout();
        let pending = PendingApproval {
            id: uuid::Uuid::new_v4().to_string(),
            server: asking.server,
            server_id: asking.server_id,
            source: asking.source,
            caller: self.asker.caller.clone(),
            reason: asking.reason,
            rule: asking.rule,
            asked_at_ms: now,
            expires_at_ms: now + timeout.as_secs_f64() * 1000.0,
            question: asking.question,
        };
        approvals.lock().waiting.push(Waiting {
            pending: pending.clone(),
            reply,
        });
        let id = pending.id.clone();
        let _leaves = Leaves {
            approvals,
            id: id.clone(),
        };
        approvals
            .inner
            .events
            .publish(EngineEvent::ApprovalAsked(Box::new(pending)));
        approvals.changed();
        tokio::select! {
            answer = tokio::time::timeout(timeout, answered) => match answer {
                Ok(Ok(answer)) => Outcome::Answered(answer),
                // The sender went with the queue entry: treated as no answer.
                Ok(Err(_)) | Err(_) => Outcome::TimedOut(timeout),
            },
            reason = withdrawn => {
                approvals
                    .inner
                    .events
                    .publish(EngineEvent::ApprovalWithdrawn { id, reason: reason.clone() });
                Outcome::Withdrawn(reason)
            }
        }
    }
}

/// Checks that `answer` fits `question`.
fn check(question: &Question, answer: &Answer) -> Result<()> {
    if !question.accepts(answer) {
        return Err(HostError::Validation(format!(
            "this answer does not fit the request: {}",
            serde_json::to_string(answer).unwrap_or_default()
        )));
    }
    match (question, answer) {
        (
            Question::ToolCall {
                tool, input_schema, ..
            },
            Answer::Allow {
                arguments: Some(arguments),
                ..
            },
        ) => matches_schema(
            &format!("input of {tool}"),
            "the edited arguments",
            "the tool's inputSchema",
            input_schema,
            arguments,
        ),
        (
            Question::Elicitation {
                requested_schema, ..
            },
            Answer::Accept {
                content: Some(content),
            },
        ) => matches_schema(
            "elicitation form",
            "the answers",
            "the requested schema",
            requested_schema,
            content,
        ),
        _ => Ok(()),
    }
}

/// Checks that `value` (`what`) is an object matching `schema` (`whose`), naming each problem.
fn matches_schema(key: &str, what: &str, whose: &str, schema: &Value, value: &Value) -> Result<()> {
    if !value.is_object() {
        return Err(HostError::Validation(format!(
            "{what} must be a JSON object"
        )));
    }
    if !schema.is_object() {
        return Ok(());
    }
    let problems = gatehouse_mcp::features::output_schema::shared()
        .mismatches(key, schema, value)
        .map_err(|refused| {
            HostError::Validation(format!(
                "{what} cannot be checked: {whose} was not run ({refused})"
            ))
        })?;
    if problems.is_empty() {
        Ok(())
    } else {
        Err(HostError::Validation(format!(
            "{what} do not match {whose}: {}",
            problems.join("; ")
        )))
    }
}

/// Takes a request off the queue when its asker stops waiting, however that happens.
struct Leaves<'a> {
    approvals: &'a Approvals,
    id: String,
}

impl Drop for Leaves<'_> {
    fn drop(&mut self) {
        let removed = {
            let mut state = self.approvals.lock();
            let waiting = &mut state.waiting;
            let before = waiting.len();
            waiting.retain(|w| w.pending.id != self.id);
            waiting.len() != before
        };
        if removed {
            self.approvals.changed();
        }
    }
}

fn epoch_ms(at: SystemTime) -> f64 {
    at.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests;
