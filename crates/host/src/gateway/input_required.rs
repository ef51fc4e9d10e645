//! A server's requests during a 2026-07-28 agent's call, relayed as the era wants them
//! (basic/patterns/mrtr): the era has no server-to-client requests, so when the server asks
//! (`sampling/createMessage`, `elicitation/create`, `roots/list`, once through the gate as any
//! server's request) and the agent declared the capability in its request's `_meta`, the call
//! is answered with an `InputRequiredResult` (`resultType: "input_required"`, the requests by
//! key, a `requestState`) while it goes on running, parked (`gate::parked_calls`). The
//! agent's retry (a new request, possibly on another connection) carries `inputResponses` and
//! the state: each answer goes to the server's waiting request, and the retry is answered with
//! the call's result, or another `InputRequiredResult` when the server asks again or an answer
//! is missing ("Error Handling": asked again rather than an error). A request the agent did not
//! declare is never put to it (it goes to the person, as before). `tools/call`, `prompts/get`
//! and `resources/read` ("Supported Requests").

use std::future::Future;
use std::sync::Arc;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::features::input_round;
use gatehouse_mcp::jsonrpc::codes;
use gatehouse_mcp::peer::Withdrawal;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot, watch};

use super::input_rounds::{add, incomplete_round, settling};
use super::profiles::Served;
use super::relay::answerable;
use super::replies::{Reply, fail, refusal, rpc};
use super::{agent_call, prompts, resources};
use crate::host::Host;
use crate::oversight::gate::agent_relay::AgentAnswers;
use crate::oversight::gate::parked_calls::{Asked, CancelOnDrop, Parked, ParkedCalls};
use crate::oversight::gate::person::WITHDRAWN;
use crate::vocabulary::caller_info;

/// The requests that may be answered with an `InputRequiredResult`.
pub const METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];
/// The server's requests of one call that may wait to be put to the agent.
const MAX_ASKS: usize = 8;
/// The progress notifications of one call that may wait for a request to tell them to.
const MAX_NOTES: usize = 16;

/// Whether a modern request is served here: one of [`METHODS`] whose client declared a
/// capability a server's request could use, or a retry carrying a `requestState`.
pub fn wanted(method: &str, params: &Value, capabilities: &Map<String, Value>) -> bool {
    METHODS.contains(&method)
        && (params.get("requestState").is_some()
            || ["sampling", "elicitation", "roots"]
                .iter()
                .any(|c| capabilities.contains_key(*c)))
}

/// The agent of one modern call, as the answerer of its server's requests: they are handed to
/// the call's request handler, which puts them to the agent in an `InputRequiredResult`.
struct InputAsker {
    client: String,
    capabilities: Value,
    asks: mpsc::Sender<Asked>,
}

impl AgentAnswers for InputAsker {
    fn client(&self) -> &str {
        &self.client
    }

    fn takes(&self, method: &str, params: Option<&Value>) -> bool {
        answerable(&self.capabilities, method, params)
    }

    fn ask(
        &self,
        method: &str,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let (answer, answered) = oneshot::channel();
        let asked = Asked {
            method: method.to_owned(),
            params,
            answer,
            from: input_round::current(),
        };
        let (asks, client) = (self.asks.clone(), self.client.clone());
        Box::pin(async move {
            if asks.try_send(asked).is_err() {
                return Err(fail(
                    codes::INTERNAL_ERROR,
                    format!("too many requests wait for the agent `{client}`, or its call ended"),
                ));
            }
            tokio::select! {
                answer = answered => answer.unwrap_or_else(|_| Err(fail(codes::INTERNAL_ERROR, format!(
                    "the agent `{client}` gave no input in time, or its call ended"
                )))),
                reason = withdrawal.withdrawn() => Err(RpcError {
                    code: codes::INTERNAL_ERROR,
                    message: format!("withdrawn by the server before an answer: {reason}"),
                    data: Some(json!({ WITHDRAWN: reason })),
                }),
            }
        })
    }
}

fn invalid(message: &str) -> Reply {
    Some(Err(fail(rpc::INVALID_PARAMS, message.to_owned())))
}

/// Serves the modern request `method` of `client`: a first request starts the call (`run`,
/// given the answerer of the server's requests and the call's cancellation) in the background;
/// a retry resumes the call its `requestState` names. Either is answered with the call's
/// outcome, or an `InputRequiredResult` while the server waits for the agent's input.
#[allow(clippy::too_many_arguments)]
pub async fn serve<F, Fut>(
    calls: &Arc<ParkedCalls>,
    client: &str,
    capabilities: &Map<String, Value>,
    method: &str,
    params: &Value,
    mut cancelled: watch::Receiver<bool>,
    out: &mpsc::Sender<Value>,
    run: F,
) -> Reply
where
    F: FnOnce(Arc<dyn AgentAnswers>, watch::Receiver<bool>, mpsc::Sender<Value>) -> Fut,
    Fut: Future<Output = Reply> + Send + 'static,
{
    // What the state binds besides the client: the method and the tool, prompt or resource.
    let subject = ["name", "uri"]
        .iter()
        .find_map(|key| params.get(*key).and_then(Value::as_str))
        .unwrap_or("");
    let request = format!("{method} {subject}");
    let token = params.pointer("/_meta/progressToken").cloned();
    let mut call = match params.get("requestState") {
        Some(state) => {
            let Some(state) = state.as_str() else {
                return invalid("Invalid params: `requestState` is not a string");
            };
            let responses = match params.get("inputResponses") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(responses)) => responses.clone(),
                Some(_) => return invalid("Invalid params: `inputResponses` is not an object"),
            };
            if let Some((key, _)) = responses.iter().find(|(_, r)| !r.is_object()) {
                return invalid(&format!(
                    "Invalid params: the input response `{key}` is not a result object"
                ));
            }
            let mut call = match calls.resume(client, &request, state) {
                Ok(call) => call,
                Err(refused) => return invalid(refused.message()),
            };
            // Each answer to its waiting request; what is missing is asked again.
            let mut still = Vec::new();
            for (key, asked) in std::mem::take(&mut call.waiting) {
                match responses.get(&key) {
                    Some(response) => {
                        let _ = asked.answer.send(Ok(response.clone()));
                    }
                    None => still.push((key, asked)),
                }
            }
            call.waiting = still;
            call
        }
        None => start(client, capabilities, &request, run),
    };
    loop {
        // A server's round is put to the agent whole: while some of its requests are still on
        // their way (through the gate, or to the person), wait for them.
        let mut incomplete = incomplete_round(&call);
        if !call.waiting.is_empty() && incomplete.is_none() {
            return input_required(calls, call);
        }
        let next = tokio::select! {
            outcome = &mut call.outcome => Next::Ended(outcome.ok()),
            Some(asked) = call.asks.recv() => Next::Asked(asked),
            Some(note) = call.notes.recv() => Next::Progress(note),
            () = settling(incomplete.as_mut()) => Next::Settled,
            _ = cancelled.wait_for(|set| *set) => Next::Cancelled,
        };
        match next {
            Next::Ended(outcome) => {
                // Progress sent before the call ended goes before its answer.
                while let Ok(note) = call.notes.try_recv() {
                    tell(out, token.as_ref(), note).await;
                }
                return outcome.unwrap_or_else(|| {
                    Some(Err(fail(
                        rpc::INTERNAL,
                        "the call ended without an answer".to_owned(),
                    )))
                });
            }
            Next::Asked(asked) => {
                add(&mut call, asked);
                while let Ok(asked) = call.asks.try_recv() {
                    add(&mut call, asked);
                }
            }
            // The call's progress, told to the request waiting for it now, under its token.
            Next::Progress(note) => tell(out, token.as_ref(), note).await,
            Next::Settled => {}
            // The agent cancelled this request: the call is cancelled with it (dropped).
            Next::Cancelled => return None,
        }
    }
}

/// What a waiting request hears of its call next.
enum Next {
    Ended(Option<Reply>),
    Asked(Asked),
    Progress(Value),
    Settled,
    Cancelled,
}

/// Starts the call in the background, its audit rows still naming the caller's `clientInfo`.
fn start<F, Fut>(client: &str, capabilities: &Map<String, Value>, request: &str, run: F) -> Parked
where
    F: FnOnce(Arc<dyn AgentAnswers>, watch::Receiver<bool>, mpsc::Sender<Value>) -> Fut,
    Fut: Future<Output = Reply> + Send + 'static,
{
    let (ask, asks) = mpsc::channel(MAX_ASKS);
    let (done, outcome) = oneshot::channel();
    let (cancel, call_cancelled) = watch::channel(false);
    let asker = Arc::new(InputAsker {
        client: client.to_owned(),
        capabilities: Value::Object(capabilities.clone()),
        asks: ask,
    });
    let (note, notes) = mpsc::channel(MAX_NOTES);
    let work = run(asker, call_cancelled, note);
    let info = caller_info::current();
    tokio::spawn(caller_info::scope(info, async move {
        let _ = done.send(work.await);
    }));
    Parked {
        client: client.to_owned(),
        request: request.to_owned(),
        outcome,
        asks,
        notes,
        waiting: Vec::new(),
        next_key: 1,
        _cancel: CancelOnDrop(cancel),
    }
}

/// Tells the waiting request the call's progress under its own token (none: not told).
async fn tell(out: &mpsc::Sender<Value>, token: Option<&Value>, mut note: Value) {
    if let (Some(token), Some(fields)) = (token, note.get_mut("params")) {
        fields["progressToken"] = token.clone();
        let _ = out.send(note).await;
    }
}

/// The `InputRequiredResult` putting the call's waiting requests to the agent, the call parked
/// (a client with too many parked has its oldest dropped, `ParkedCalls::park`).
fn input_required(calls: &Arc<ParkedCalls>, call: Parked) -> Reply {
    let requests: Map<String, Value> = call
        .waiting
        .iter()
        .map(|(key, asked)| {
            let mut request = json!({ "method": asked.method });
            if let Some(params) = &asked.params {
                request["params"] = params.clone();
            }
            (key.clone(), request)
        })
        .collect();
    let state = calls.park(call);
    Some(Ok(json!({
        "resultType": "input_required",
        "inputRequests": requests,
        "requestState": state,
    })))
}

/// The call a modern request makes, given the answerer of its server's requests and its
/// cancellation ([`serve`] runs it in the background).
pub fn call_of(
    host: &Arc<Host>,
    client: &str,
    served: &Arc<Served>,
    method: &str,
    params: &Value,
) -> impl FnOnce(
    Arc<dyn AgentAnswers>,
    watch::Receiver<bool>,
    mpsc::Sender<Value>,
) -> BoxFuture<'static, Reply> {
    let (host, client, served) = (host.clone(), client.to_owned(), served.clone());
    let (method, params) = (method.to_owned(), params.clone());
    move |relay, mut cancelled, out| {
        Box::pin(async move {
            if method == "tools/call" {
                return agent_call::call(&host, relay, &served, params, cancelled, &out).await;
            }
            let work = async {
                match method.as_str() {
                    "prompts/get" => prompts::get(&host, &client, &served, relay, &params).await,
                    _ => resources::read(&host, &client, &served, relay, &params).await,
                }
            };
            tokio::select! {
                answered = work => Some(answered.map_err(refusal)),
                _ = cancelled.wait_for(|set| *set) => None,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capabilities(declared: Value) -> Map<String, Value> {
        declared.as_object().cloned().unwrap_or_default()
    }

    /// A call whose server asks one sampling request (when the agent takes it) and answers
    /// with what it was given, after a progress notification; it notes its cancellation.
    fn sampling_call(
        noted: mpsc::Sender<&'static str>,
    ) -> impl FnOnce(
        Arc<dyn AgentAnswers>,
        watch::Receiver<bool>,
        mpsc::Sender<Value>,
    ) -> BoxFuture<'static, Reply> {
        move |agent, mut cancelled, notes| {
            Box::pin(async move {
                if !agent.takes("sampling/createMessage", None) {
                    return Some(Ok(json!({ "asked": "the person" })));
                }
                let params = Some(json!({ "messages": [] }));
                match agent
                    .ask("sampling/createMessage", params, Withdrawal::never())
                    .await
                {
                    Ok(answer) => {
                        let progress = json!({ "jsonrpc": "2.0", "method": "notifications/progress",
                                               "params": { "progressToken": "first", "progress": 1 } });
                        let _ = notes.send(progress).await;
                        Some(Ok(json!({ "answer": answer })))
                    }
                    Err(_) => {
                        let _ = noted.send("the server's request failed").await;
                        let _ = cancelled.wait_for(|c| *c).await;
                        let _ = noted.send("cancelled").await;
                        None
                    }
                }
            })
        }
    }

    async fn first(
        calls: &Arc<ParkedCalls>,
        declared: Value,
        noted: mpsc::Sender<&'static str>,
    ) -> Value {
        let (_keep, cancelled) = watch::channel(false);
        let caps = capabilities(declared);
        serve(
            calls,
            "a",
            &caps,
            "tools/call",
            &json!({ "_meta": { "progressToken": "first" } }),
            cancelled,
            &mpsc::channel(1).0,
            sampling_call(noted),
        )
        .await
        .expect("answered")
        .expect("a result")
    }

    /// The agent's retry `retry` served by the call it parked (the call given here never
    /// runs), progress told to `out`.
    async fn retried(
        calls: &Arc<ParkedCalls>,
        retry: &Value,
        out: &mpsc::Sender<Value>,
    ) -> super::Reply {
        let (_keep, cancelled) = watch::channel(false);
        let never = |_: Arc<dyn AgentAnswers>, _: watch::Receiver<bool>, _: mpsc::Sender<Value>| async {
            None
        };
        let caps = capabilities(json!({}));
        serve(
            calls,
            "a",
            &caps,
            "tools/call",
            retry,
            cancelled,
            out,
            never,
        )
        .await
    }

    #[tokio::test]
    async fn the_servers_request_is_put_to_the_agent_and_its_retry_gets_the_result() {
        let calls = Arc::new(ParkedCalls::default());
        let (noted, _) = mpsc::channel(2);
        let asked = first(&calls, json!({ "sampling": {} }), noted).await;
        assert_eq!(asked["resultType"], "input_required");
        assert_eq!(
            asked["inputRequests"]["r1"]["method"],
            "sampling/createMessage"
        );
        let state = asked["requestState"].as_str().expect("a state");
        let retry = json!({
            "requestState": state, "inputResponses": { "r1": { "x": 1 } },
            "_meta": { "progressToken": "retry" },
        });
        let (out, mut told) = mpsc::channel(4);
        let done = retried(&calls, &retry, &out).await;
        let done = done.expect("answered").expect("a result");
        assert_eq!(done["answer"]["x"], 1, "{done}");
        let progress = told
            .try_recv()
            .expect("the call's progress reached the retry");
        assert_eq!(
            progress["params"]["progressToken"], "retry",
            "told under the waiting request's own token"
        );
    }

    #[tokio::test]
    async fn an_undeclared_request_is_never_put_to_the_agent() {
        let calls = Arc::new(ParkedCalls::default());
        let (noted, _) = mpsc::channel(2);
        let answered = first(&calls, json!({ "elicitation": {} }), noted).await;
        assert_eq!(answered, json!({ "asked": "the person" }));
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_never_resumed_answers_the_server_with_an_error_and_is_cancelled() {
        let calls = Arc::new(ParkedCalls::default());
        let (noted, mut heard) = mpsc::channel(2);
        let asked = first(&calls, json!({ "sampling": {} }), noted).await;
        assert_eq!(asked["resultType"], "input_required");
        // Paused time runs on to the bound while everything waits.
        assert_eq!(heard.recv().await, Some("the server's request failed"));
        assert_eq!(heard.recv().await, Some("cancelled"));
        let state = asked["requestState"].as_str().expect("a state");
        let retry = json!({ "requestState": state, "inputResponses": { "r1": {} } });
        let late = retried(&calls, &retry, &mpsc::channel(1).0).await;
        assert_eq!(
            late.expect("answered").expect_err("refused").code,
            rpc::INVALID_PARAMS
        );
    }
}
