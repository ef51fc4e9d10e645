//! A server's request made during an agent's call through the gateway (`sampling/createMessage`,
//! `elicitation/create`, `roots/list`; 2025-11-25 client/sampling, client/elicitation,
//! client/roots) goes to that agent when it declared the capability, instead of to the person.
//!
//! Which call a request belongs to: over Streamable HTTP a server sends the requests it makes
//! for a call on that call's own response stream, and the protocol client answers them inside
//! the call's [`origin`] (2025-11-25 basic/transports), so the agent is exactly the one whose
//! call it is, whoever else calls the server. Over stdio and legacy SSE a server's request
//! carries nothing naming the request it serves, so the rule is: while the calls in flight to
//! the server that the gateway registered ([`AgentCalls::enter`]) are all from one agent
//! session, that agent is asked; with none, or with calls of two agent sessions, the person is,
//! as before. Calls the app or the CLI make are not registered, so a request made during an
//! app's call while an agent's call to the same server also runs goes to the agent.
//!
//! A 2026-07-28 server asks within the call itself (basic/patterns/mrtr: input requests in the
//! call's result, answered while the call's own future runs), so there the answer is exact: the
//! gateway runs each call of an agent [`within`] that agent, and a request made inside it goes
//! to that agent ([`calling`]) whoever else calls the server.
//!
//! A request the calling agent cannot answer goes to the person, unless the agent's profile
//! says not to ask the person for it ([`AgentAnswers::asks_person`]): then it is refused.
//!
//! How such a request passes the gate on its way to the agent: [`super::agent_answer`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::Withdrawal;
use gatehouse_mcp::peer::origin;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::Value;

tokio::task_local! {
    static CALLING: Arc<dyn AgentAnswers>;
}

/// Runs `call` (an agent's request of a server) as that agent's: a server's input request
/// answered inside it goes to `agent`, and so does a request a server sends on the call's own
/// Streamable HTTP response stream (the call's [`origin`]).
pub fn within<F: Future>(agent: Arc<dyn AgentAnswers>, call: F) -> impl Future<Output = F::Output> {
    let origin: origin::Origin = Arc::new(agent.clone());
    origin::scope(origin, CALLING.scope(agent, call))
}

/// The agent whose call the current future runs ([`within`]), or whose call the server's
/// request being answered serves ([`origin`]), if any.
pub fn calling() -> Option<Arc<dyn AgentAnswers>> {
    CALLING.try_with(Arc::clone).ok().or_else(|| {
        origin::current()?
            .downcast_ref::<Arc<dyn AgentAnswers>>()
            .cloned()
    })
}

/// Whether a server's request is one an agent may answer.
pub fn relayed(method: &str) -> bool {
    matches!(
        method,
        "sampling/createMessage" | "elicitation/create" | "roots/list"
    )
}

/// An agent session that can answer a server's request.
pub trait AgentAnswers: Send + Sync {
    /// The client's name, for the audit log.
    fn client(&self) -> &str;
    /// Whether the agent declared the capability this request needs (its `initialize`).
    fn takes(&self, method: &str, params: Option<&Value>) -> bool;
    /// Whether a request the agent cannot answer that the person could (sampling,
    /// elicitation) goes to the person; else it is refused (the agent's profile).
    fn asks_person(&self) -> bool {
        true
    }
    /// Which agent session this is: the same for every view of one session (a view for one of
    /// its requests, or as its profile has it), different between sessions.
    fn session(&self) -> usize {
        std::ptr::from_ref(self).cast::<()>() as usize
    }
    /// Sends the request to the agent; its answer, or an error when it gives none in time, goes
    /// away, or the server withdraws the request (then the agent is told it was cancelled).
    fn ask(
        &self,
        method: &str,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>>;
}

struct Entry {
    key: u64,
    server_id: String,
    agent: Arc<dyn AgentAnswers>,
}

/// The gateway's calls in flight, by server, each with the agent session it came from.
#[derive(Clone, Default)]
pub struct AgentCalls {
    entries: Arc<Mutex<Vec<Entry>>>,
    next: Arc<AtomicU64>,
}

impl std::fmt::Debug for AgentCalls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len();
        f.debug_struct("AgentCalls")
            .field("in_flight", &count)
            .finish()
    }
}

/// One registered call; dropping it ends the registration.
pub struct InCall {
    calls: AgentCalls,
    key: u64,
}

impl Drop for InCall {
    fn drop(&mut self) {
        self.calls
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|e| e.key != self.key);
    }
}

impl AgentCalls {
    /// Registers a call of `agent` to the server `server_id` for as long as the guard lives.
    pub fn enter(&self, server_id: &str, agent: Arc<dyn AgentAnswers>) -> InCall {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Entry {
                key,
                server_id: server_id.to_owned(),
                agent,
            });
        InCall {
            calls: self.clone(),
            key,
        }
    }

    /// The one agent session with calls in flight to `server_id`, if exactly one has (its calls
    /// may be registered through different views of it: [`AgentAnswers::session`]).
    pub fn answering(&self, server_id: &str) -> Option<Arc<dyn AgentAnswers>> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let mut calling = entries.iter().filter(|e| e.server_id == server_id);
        let first = calling.next()?.agent.clone();
        calling
            .all(|e| e.agent.session() == first.session())
            .then_some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Named(&'static str);

    impl AgentAnswers for Named {
        fn client(&self) -> &str {
            self.0
        }
        fn takes(&self, _: &str, _: Option<&Value>) -> bool {
            true
        }
        fn ask(
            &self,
            _: &str,
            _: Option<Value>,
            _: Withdrawal,
        ) -> BoxFuture<'static, Result<Value, RpcError>> {
            Box::pin(async { Ok(Value::Null) })
        }
    }

    /// Another view of an agent session.
    struct View(Arc<dyn AgentAnswers>);

    impl AgentAnswers for View {
        fn client(&self) -> &str {
            self.0.client()
        }
        fn takes(&self, method: &str, params: Option<&Value>) -> bool {
            self.0.takes(method, params)
        }
        fn session(&self) -> usize {
            self.0.session()
        }
        fn ask(
            &self,
            method: &str,
            params: Option<Value>,
            withdrawal: Withdrawal,
        ) -> BoxFuture<'static, Result<Value, RpcError>> {
            self.0.ask(method, params, withdrawal)
        }
    }

    #[test]
    fn only_the_one_agent_calling_a_server_answers_its_requests() {
        let calls = AgentCalls::default();
        let (a, b): (Arc<dyn AgentAnswers>, Arc<dyn AgentAnswers>) =
            (Arc::new(Named("a")), Arc::new(Named("b")));
        assert!(calls.answering("s").is_none(), "no call in flight");
        let first = calls.enter("s", a.clone());
        let second = calls.enter("s", a.clone());
        let _other_server = calls.enter("t", b.clone());
        let answering = calls.answering("s").expect("a calls s");
        assert_eq!(answering.client(), "a");
        let of_b = calls.enter("s", b.clone());
        assert!(
            calls.answering("s").is_none(),
            "two agents call s: nobody can tell whose request it is"
        );
        drop(of_b);
        // A view of `a` for one of its requests is still `a`.
        let view: Arc<dyn AgentAnswers> = Arc::new(View(a.clone()));
        let third = calls.enter("s", view);
        assert_eq!(calls.answering("s").expect("still a").client(), "a");
        drop(third);
        drop(first);
        assert_eq!(calls.answering("s").expect("still a").client(), "a");
        drop(second);
        assert!(calls.answering("s").is_none(), "a's calls ended");
        assert_eq!(calls.answering("t").expect("b calls t").client(), "b");
    }
}
