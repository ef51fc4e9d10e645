//! One agent session as the answerer of its servers' requests: what it declared in `initialize`
//! (`sampling`, `elicitation` with its `form`/`url` modes, `roots`; 2025-11-25 basic/lifecycle,
//! "Capability Negotiation"), the requests sent to it as a server→client request on its session
//! (ids `gatehouse-N`, never an agent's own), and their answers as they come back. Bounds: at
//! most [`MAX_ASKED`] requests wait for the agent at once, each at most [`ASK_TIMEOUT`] (then the
//! agent is sent `notifications/cancelled` and the server an error); the agent leaving answers
//! every request still waiting with an error. A request the server withdraws is cancelled on the
//! agent (2025-11-25 basic/utilities/cancellation). Only this session's response to an id it was
//! sent is taken: another agent cannot answer for it. A request made for one of the agent's
//! requests has an id naming it ([`request_of`]), so the HTTP endpoint can send it on that
//! request's own response stream (2025-11-25 basic/transports).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::jsonrpc::codes;
use gatehouse_mcp::peer::Withdrawal;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::profiles::{Profile, Served};
use super::replies::fail;
use crate::host::Host;
use crate::oversight::gate::agent_relay::{AgentAnswers, relayed, within};
use crate::oversight::gate::person::WITHDRAWN;

/// Requests that may wait for one agent's answer at once.
pub const MAX_ASKED: usize = 8;
/// How long an agent has to answer a server's request.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(120);

type Waiting = Arc<Mutex<Option<HashMap<String, oneshot::Sender<Result<Value, RpcError>>>>>>;

/// An agent session's side of the requests its servers make of it.
pub struct AgentLink {
    client: String,
    capabilities: Mutex<Value>,
    out: mpsc::Sender<Value>,
    /// The requests waiting for the agent by id; `None` once the agent left.
    waiting: Waiting,
    next: AtomicU64,
}

impl AgentLink {
    /// The link of the agent `client`, whose messages go to `out`.
    pub fn new(client: &str, out: mpsc::Sender<Value>) -> Arc<AgentLink> {
        Arc::new(AgentLink {
            client: client.to_owned(),
            capabilities: Mutex::new(Value::Null),
            out,
            waiting: Arc::new(Mutex::new(Some(HashMap::new()))),
            next: AtomicU64::new(1),
        })
    }

    /// Keeps what the agent declared in its `initialize`.
    pub fn initialized(&self, params: &Value) {
        let declared = params.get("capabilities").cloned().unwrap_or(Value::Null);
        *self
            .capabilities
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = declared;
    }

    /// Passes the agent's response to the request waiting for it; one for no waiting request
    /// (answered late, or never asked) is dropped.
    pub fn answered(&self, message: &Value) {
        let Some(id) = message.get("id").and_then(Value::as_str) else {
            return;
        };
        let waiter = self
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
            .and_then(|waiting| waiting.remove(id));
        let Some(waiter) = waiter else { return };
        let answer = match (message.get("result"), message.get("error")) {
            (Some(result), _) => Ok(result.clone()),
            (None, Some(error)) => {
                Err(serde_json::from_value(error.clone()).unwrap_or_else(|_| {
                    fail(
                        codes::INTERNAL_ERROR,
                        "the agent answered with a malformed error",
                    )
                }))
            }
            (None, None) => Err(fail(
                codes::INTERNAL_ERROR,
                "the agent answered with neither a result nor an error",
            )),
        };
        let _ = waiter.send(answer);
    }

    /// The agent left: every request still waiting for it is answered with an error.
    pub fn close(&self) {
        self.waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }
}

impl AgentAnswers for AgentLink {
    fn client(&self) -> &str {
        &self.client
    }

    fn takes(&self, method: &str, params: Option<&Value>) -> bool {
        let capabilities = self
            .capabilities
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        declares(&capabilities, method, params)
    }

    fn ask(
        &self,
        method: &str,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        self.ask_for(None, method, params, withdrawal)
    }
}

impl AgentLink {
    /// The link as the agent's request `key` (its id as JSON text) sees it: a server's request
    /// made for that request is sent with an id naming it ([`request_of`]).
    pub fn for_request(self: &Arc<Self>, key: &str) -> Arc<dyn AgentAnswers> {
        Arc::new(ForRequest {
            link: self.clone(),
            key: key.to_owned(),
        })
    }

    /// Sends the server's request to the agent, its id naming the agent's request `key` it
    /// serves, when known.
    fn ask_for(
        &self,
        key: Option<&str>,
        method: &str,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let id = match key {
            Some(key) => format!("gatehouse-{n}{FOR}{key}"),
            None => format!("gatehouse-{n}"),
        };
        let (answer, answered) = oneshot::channel();
        let admitted = {
            let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
            match waiting.as_mut() {
                None => Err("the agent left"),
                Some(w) if w.len() >= MAX_ASKED => Err("too many requests wait for the agent"),
                Some(w) => {
                    w.insert(id.clone(), answer);
                    Ok(())
                }
            }
        };
        let mut request = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if let Some(params) = params {
            request["params"] = params;
        }
        let (out, waiting, client) = (self.out.clone(), self.waiting.clone(), self.client.clone());
        Box::pin(async move {
            if let Err(why) = admitted {
                return Err(fail(codes::INTERNAL_ERROR, format!("{why} (`{client}`)")));
            }
            let forget = || {
                if let Some(w) = waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .as_mut()
                {
                    w.remove(&id);
                }
            };
            let cancel = |reason: &str| {
                json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": { "requestId": id, "reason": reason } })
            };
            if out.send(request).await.is_err() {
                forget();
                return Err(fail(codes::INTERNAL_ERROR, "the agent left"));
            }
            tokio::select! {
                answer = answered => answer.unwrap_or_else(|_| {
                    Err(fail(codes::INTERNAL_ERROR, format!("the agent `{client}` left before it answered")))
                }),
                () = tokio::time::sleep(ASK_TIMEOUT) => {
                    forget();
                    let _ = out.try_send(cancel("no answer in time"));
                    Err(fail(codes::INTERNAL_ERROR, format!(
                        "the agent `{client}` did not answer within {} s", ASK_TIMEOUT.as_secs()
                    )))
                }
                reason = withdrawal.withdrawn() => {
                    forget();
                    let _ = out.try_send(cancel(&reason));
                    Err(RpcError {
                        code: codes::INTERNAL_ERROR,
                        message: format!("withdrawn by the server before an answer: {reason}"),
                        data: Some(json!({ WITHDRAWN: reason })),
                    })
                }
            }
        })
    }
}

/// What separates a server request's own number from the key of the agent's request it serves,
/// in the id the agent is sent (`gatehouse-7~1`).
const FOR: char = '~';

/// The key of the agent's request (its id as JSON text) that the server's request sent to the
/// agent as `id` serves, if its id names one ([`AgentLink::for_request`]): the HTTP endpoint
/// sends it on that request's own response stream.
pub fn request_of(id: &Value) -> Option<&str> {
    let rest = id.as_str()?.strip_prefix("gatehouse-")?;
    let (number, key) = rest.split_once(FOR)?;
    number.bytes().all(|b| b.is_ascii_digit()).then_some(key)
}

/// The agent's link as one of its requests sees it.
struct ForRequest {
    link: Arc<AgentLink>,
    key: String,
}

impl AgentAnswers for ForRequest {
    fn client(&self) -> &str {
        self.link.client()
    }

    fn takes(&self, method: &str, params: Option<&Value>) -> bool {
        self.link.takes(method, params)
    }

    fn session(&self) -> usize {
        self.link.session()
    }

    fn ask(
        &self,
        method: &str,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        self.link
            .ask_for(Some(&self.key), method, params, withdrawal)
    }
}

/// Runs `call` (an agent's request of the server `server_id`) as the agent's, as its profile
/// has it ([`as_profiled`]): registered while it runs, and within the agent
/// (`gate::agent_relay`), so that the server's requests during it go to that agent.
pub(super) fn as_agents<F: Future>(
    host: &Host,
    served: &Served,
    server_id: &str,
    agent: Arc<dyn AgentAnswers>,
    call: F,
) -> impl Future<Output = F::Output> {
    let agent = as_profiled(agent, &served.profile);
    let in_call = host.gate().agent_calls().enter(server_id, agent.clone());
    let call = within(agent, call);
    async move {
        let _in_call = in_call;
        call.await
    }
}

/// The agent as its `profile` has it: when the profile does not ask the person for the agent,
/// a server's sampling or elicitation the agent cannot answer is refused instead of put to the
/// person ([`AgentAnswers::asks_person`]).
fn as_profiled(agent: Arc<dyn AgentAnswers>, profile: &Profile) -> Arc<dyn AgentAnswers> {
    if profile.asks_person() {
        return agent;
    }
    Arc::new(NotAskingPerson(agent))
}

/// An agent whose profile does not ask the person for it.
struct NotAskingPerson(Arc<dyn AgentAnswers>);

impl AgentAnswers for NotAskingPerson {
    fn client(&self) -> &str {
        self.0.client()
    }

    fn takes(&self, method: &str, params: Option<&Value>) -> bool {
        self.0.takes(method, params)
    }

    fn asks_person(&self) -> bool {
        false
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

/// Whether a 2026-07-28 agent whose request declared `capabilities` answers the server's
/// request `method` itself: one an agent may answer (`gate::agent_relay::relayed`) that it
/// declared it can.
pub(super) fn answerable(capabilities: &Value, method: &str, params: Option<&Value>) -> bool {
    relayed(method) && declares(capabilities, method, params)
}

/// Whether `capabilities` (an agent's client capabilities) declare what the server's request
/// `method` needs.
pub(super) fn declares(capabilities: &Value, method: &str, params: Option<&Value>) -> bool {
    let declared = |pointer: &str| capabilities.pointer(pointer).is_some_and(Value::is_object);
    match method {
        "sampling/createMessage" => declared("/sampling"),
        "roots/list" => declared("/roots"),
        // 2025-11-25 client/elicitation, "Capabilities": an empty `elicitation` object is form
        // mode only; URL mode needs `url`.
        "elicitation/create" => {
            let mode = params
                .and_then(|p| p.get("mode"))
                .and_then(Value::as_str)
                .unwrap_or("form");
            match (mode, capabilities.get("elicitation")) {
                (_, Some(Value::Object(modes))) if modes.contains_key(mode) => true,
                ("form", Some(Value::Object(modes))) => {
                    !modes.contains_key("url") || modes.contains_key("form")
                }
                _ => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_made_for_an_agents_request_names_it_in_its_id() {
        let (out, _sent) = mpsc::channel(4);
        let link = AgentLink::new("a", out);
        assert_eq!(
            request_of(&json!("gatehouse-7~\"call-1\"")),
            Some("\"call-1\"")
        );
        assert_eq!(
            request_of(&json!("gatehouse-7~12~x")),
            Some("12~x"),
            "the first ~ divides"
        );
        for id in [
            json!("gatehouse-7"),
            json!("x-7~1"),
            json!("gatehouse-a~1"),
            json!(7),
        ] {
            assert_eq!(request_of(&id), None, "{id}");
        }
        let view = link.for_request("1");
        assert_eq!(
            view.session(),
            link.session(),
            "one session, whichever view"
        );
        assert_eq!(view.client(), "a");
    }

    fn link(capabilities: Value) -> (Arc<AgentLink>, mpsc::Receiver<Value>) {
        let (out, sent) = mpsc::channel(4);
        let link = AgentLink::new("a", out);
        link.initialized(&json!({ "capabilities": capabilities }));
        (link, sent)
    }

    #[test]
    fn an_agent_takes_only_what_it_declared() {
        let (none, _) = link(json!({}));
        assert!(!none.takes("sampling/createMessage", None));
        assert!(!none.takes("elicitation/create", None));
        assert!(!none.takes("roots/list", None));
        let (all, _) = link(json!({ "sampling": {}, "roots": {}, "elicitation": {} }));
        assert!(all.takes("sampling/createMessage", None));
        assert!(all.takes("roots/list", None));
        assert!(all.takes("elicitation/create", Some(&json!({ "message": "?" }))));
        let url = json!({ "mode": "url", "url": "https://example.com" });
        assert!(
            !all.takes("elicitation/create", Some(&url)),
            "an empty elicitation object is form mode only"
        );
        let (url_only, _) = link(json!({ "elicitation": { "url": {} } }));
        assert!(url_only.takes("elicitation/create", Some(&url)));
        assert!(!url_only.takes("elicitation/create", None));
    }

    #[tokio::test]
    async fn the_agents_answer_goes_back_and_its_leaving_answers_with_an_error() {
        let (link, mut sent) = link(json!({ "sampling": {} }));
        let asked = link.ask(
            "sampling/createMessage",
            Some(json!({})),
            Withdrawal::never(),
        );
        let asked = tokio::spawn(asked);
        let request = sent.recv().await.expect("the request reaches the agent");
        assert_eq!(request["method"], "sampling/createMessage");
        link.answered(&json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "x": 1 } }));
        assert_eq!(asked.await.expect("joined").expect("answered")["x"], 1);

        let asked = tokio::spawn(link.ask("roots/list", None, Withdrawal::never()));
        let _ = sent.recv().await.expect("the second request");
        link.close();
        let error = asked.await.expect("joined").expect_err("the agent left");
        assert!(error.message.contains("left"), "{error:?}");
        let refused = link.ask("roots/list", None, Withdrawal::never()).await;
        assert!(refused.is_err(), "nothing is asked of an agent that left");
    }

    #[tokio::test]
    async fn an_answer_to_a_request_not_made_of_this_agent_is_dropped() {
        let (asked_one, mut sent) = link(json!({ "sampling": {} }));
        let (other, _) = link(json!({ "sampling": {} }));
        let mut asked =
            tokio::spawn(asked_one.ask("sampling/createMessage", None, Withdrawal::never()));
        let request = sent.recv().await.expect("the request reaches the agent");
        let forged = json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "forged": true } });
        // Another agent session answering the same id, and this one answering another id.
        other.answered(&forged);
        asked_one.answered(&json!({ "jsonrpc": "2.0", "id": "gatehouse-99", "result": {} }));
        asked_one.answered(&json!({ "jsonrpc": "2.0", "id": 1, "result": {} }));
        assert!(
            tokio::time::timeout(Duration::from_millis(50), &mut asked)
                .await
                .is_err(),
            "still waiting for its own agent's answer"
        );
        asked_one
            .answered(&json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "own": 1 } }));
        assert_eq!(asked.await.expect("joined").expect("answered")["own"], 1);
    }

    #[tokio::test(start_paused = true)]
    async fn an_agent_that_does_not_answer_in_time_is_told_the_request_was_cancelled() {
        let (link, mut sent) = link(json!({ "sampling": {} }));
        let asked = tokio::spawn(link.ask("sampling/createMessage", None, Withdrawal::never()));
        let request = sent.recv().await.expect("the request reaches the agent");
        let error = asked.await.expect("joined").expect_err("no answer in time");
        assert!(
            error.message.contains("did not answer within 120 s"),
            "{error:?}"
        );
        let cancelled = sent.recv().await.expect("the agent is told");
        assert_eq!(cancelled["method"], "notifications/cancelled");
        assert_eq!(cancelled["params"]["requestId"], request["id"]);
        link.answered(&json!({ "jsonrpc": "2.0", "id": request["id"], "result": {} }));
    }
}
