//! POST handling: every outgoing message is its own POST, in a task the writer owns. The answer
//! is 202, a JSON body or an SSE stream, resumed with `Last-Event-ID` when it ends before the
//! answer (SEP-1699 polling); a 404 on a session re-initializes once and retries; an auth
//! challenge goes to the authorizer. In the 2026-07-28 era a request is cancelled by aborting its
//! POST.

use std::collections::HashMap;
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinSet};

use super::challenge::{AuthChallenge, access_token, authorize};
use super::listener::start_listener;
use super::requests::{get_stream, read_stream, send_post};
use super::session::reinitialize_once;
use super::session_expiry;
use super::shared::{MarkReady, Outgoing, SESSION_HEADER, Shared, broke, deliver, fail, get, put};
use crate::http_body::bounded_body;
use crate::jsonrpc::RequestId;
use crate::transport::sse::{StreamEnd, is_event_stream};
use crate::transport::{Inbound, Outbound, TransportFailure};

pub(super) async fn write_loop(shared: Arc<Shared>, mut outbound: mpsc::Receiver<Outbound>) {
    // Each message is its own task: a long-running request must not hold up the others. The
    // set is dropped (and every task aborted) when the transport closes.
    let mut tasks = JoinSet::new();
    // The POSTs of modern requests still in flight, by request id, so that cancelling one can
    // close its stream.
    let mut modern_in_flight: HashMap<RequestId, AbortHandle> = HashMap::new();
    loop {
        tokio::select! {
            message = outbound.recv() => match message {
                Some(message) => {
                    modern_in_flight.retain(|_, task| !task.is_finished());
                    // 2026-07-28: closing the response stream is the cancellation, and the server
                    // must take a disconnect as one; no `notifications/cancelled` is expected
                    // (a claim-less one would even be routed to a stateless 2025-era instance
                    // that never saw the request). The earlier revisions' servers do not treat a
                    // disconnect as cancellation, so for them the notification is sent as before.
                    if let Some(task) = cancelled_request(&message.message)
                        .and_then(|id| modern_in_flight.remove(&id))
                    {
                        task.abort();
                        continue;
                    }
                    let outgoing = Outgoing::of(&message);
                    let cancellable = outgoing.id.clone().filter(|_| outgoing.modern);
                    let task = tasks.spawn(post(shared.clone(), message, outgoing));
                    if let Some(id) = cancellable {
                        modern_in_flight.insert(id, task);
                    }
                }
                None => break,
            },
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
        }
    }
    while tasks.join_next().await.is_some() {}
}

/// The request a `notifications/cancelled` message cancels.
pub(super) fn cancelled_request(message: &Value) -> Option<RequestId> {
    if message.get("method").and_then(Value::as_str) != Some("notifications/cancelled")
        || message.get("id").is_some()
    {
        return None;
    }
    serde_json::from_value(message.pointer("/params/requestId")?.clone()).ok()
}

pub(super) async fn post(shared: Arc<Shared>, outbound: Outbound, outgoing: Outgoing) {
    let Outbound {
        message,
        headers: extra,
        wire,
    } = outbound;
    // Server requests may come on the GET stream at once (the conformance elicitation
    // scenario does this), so the client waits for it before its first request.
    let mut mark_ready = outgoing.is("notifications/initialized").then(|| MarkReady {
        shared: &shared,
        armed: true,
    });
    if outgoing.is("initialize") {
        put(&shared.initialize, Some(message.clone()));
        put(&shared.session_id, None);
    }
    let mut retried = false;
    let mut authorizations = 0u32;
    loop {
        // Wait for a re-initialization in progress, then take the session it made.
        let session = {
            let _settled = shared.reinit.lock().await;
            get(&shared.session_id)
        };
        let had_session = session.is_some();
        let token = access_token(&shared).await;
        let sent = send_post(
            &shared,
            &message,
            &extra,
            &wire,
            session.as_deref(),
            token.as_ref(),
        )
        .await;
        let response = match sent {
            Ok(response) => response,
            Err(e) => {
                let message = crate::transport::http_config::unreachable(&shared.config.url, &e);
                return fail(
                    &shared,
                    &outgoing,
                    TransportFailure::Unreachable { message },
                )
                .await;
            }
        };
        let status = response.status();
        if status == StatusCode::NOT_FOUND && had_session && !outgoing.is("initialize") && !retried
        {
            // 2025-11-25 "Session Management" 4: the session is gone; start a new one.
            retried = true;
            if let Err(e) = reinitialize_once(&shared, session.as_deref(), start_listener).await {
                let message = format!("the session expired and re-initializing failed: {e}");
                let failure = TransportFailure::Status {
                    status: 404,
                    message,
                };
                return fail(&shared, &outgoing, failure).await;
            }
            continue;
        }
        if let Some(challenge) = AuthChallenge::of(&response, shared.config.authorizer.as_deref()) {
            match authorize(&shared, &challenge, token.as_ref(), &mut authorizations).await {
                Ok(()) => continue,
                Err(Some(failure)) => return fail(&shared, &outgoing, failure).await,
                // Not an authorization problem this transport can solve: report it as is.
                Err(None) => {}
            }
        }
        if !status.is_success() {
            let body = bounded_body(response, 65536).await.unwrap_or_default();
            // A modern server explains a 4xx with a JSON-RPC error (2026-07-28 transports,
            // "Server Validation"); hand that error on as it is, with the status beside it.
            if let Some(error) = rpc_error_body(&body) {
                let failure = TransportFailure::Refused {
                    status: status.as_u16(),
                    error,
                };
                return fail(&shared, &outgoing, failure).await;
            }
            let text = String::from_utf8_lossy(&body).trim().to_owned();
            let detail = if text.is_empty() {
                String::new()
            } else {
                format!(": {text}")
            };
            let failure = TransportFailure::Status {
                status: status.as_u16(),
                message: format!("HTTP {status}{detail}"),
            };
            return fail(&shared, &outgoing, failure).await;
        }
        if outgoing.is("initialize") {
            let session = response
                .headers()
                .get(SESSION_HEADER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            put(&shared.session_id, session);
        }
        if status == StatusCode::ACCEPTED || outgoing.id.is_none() {
            if let Some(mark) = mark_ready.as_mut() {
                mark.armed = false;
                start_listener(&shared);
            }
            return;
        }
        return receive(&shared, response, &outgoing).await;
    }
}

/// A JSON-RPC error carried in an error response's body, as the server sent it.
pub(super) fn rpc_error_body(body: &[u8]) -> Option<crate::error::RpcError> {
    let value: Value = serde_json::from_slice(body).ok()?;
    serde_json::from_value(value.get("error")?.clone()).ok()
}

/// Delivers the answer to a request: one JSON body, or an SSE stream resumed until it holds
/// the response.
pub(super) async fn receive(
    shared: &Arc<Shared>,
    response: reqwest::Response,
    outgoing: &Outgoing,
) {
    if !is_event_stream(&response) {
        return match bounded_body(response, shared.config.max_message_bytes).await {
            Ok(body) => match serde_json::from_slice::<Value>(&body) {
                Ok(Value::Array(batch)) => {
                    for message in batch {
                        deliver(shared, message, outgoing).await;
                    }
                }
                Ok(message) => deliver(shared, message, outgoing).await,
                Err(e) => match &outgoing.id {
                    Some(id) => {
                        let unparsable = Inbound::Unparsable {
                            text: crate::transport::unparsable_text(&body),
                            problem: e.to_string(),
                            id: Some(id.clone()),
                        };
                        let _ = shared.inbound.send(unparsable).await;
                    }
                    None => tracing::warn!("a response that is not JSON: {e}"),
                },
            },
            Err(e) => broke(shared, outgoing, e).await,
        };
    }
    let mut end = StreamEnd::default();
    let mut answered = read_stream(shared, response, outgoing, &mut end).await;
    let mut failures = 0;
    while !answered {
        // The stream ended before the answer: poll it again (SEP-1699), or give up. A modern
        // stream cannot be resumed (2026-07-28 streamable-http: no `Last-Event-ID`).
        let last = end.last_event_id.clone().filter(|_| !outgoing.modern);
        let Some(last) = last else {
            let why = end
                .error
                .clone()
                .unwrap_or_else(|| "the server closed the stream".to_owned());
            return broke(shared, outgoing, format!("{why} before answering")).await;
        };
        tokio::time::sleep(end.retry.unwrap_or(shared.config.default_retry)).await;
        let session = get(&shared.session_id);
        match resume(shared, &last).await {
            Err((Some(StatusCode::NOT_FOUND), _)) if let Some(stale) = session => {
                return session_expiry::answer_lost(shared, outgoing, &stale, start_listener).await;
            }
            Ok(response) => {
                failures = 0;
                answered = read_stream(shared, response, outgoing, &mut end).await;
            }
            Err((_, e)) => {
                failures += 1;
                if failures > shared.config.max_reconnects {
                    let message = format!("resuming the response stream failed: {e}");
                    return fail(shared, outgoing, TransportFailure::Unreachable { message }).await;
                }
            }
        }
    }
}

/// Opens a GET that resumes a stream after `last_event_id`; a failure with the status it came
/// with, if any.
pub(super) async fn resume(
    shared: &Shared,
    last_event_id: &str,
) -> std::result::Result<reqwest::Response, (Option<StatusCode>, String)> {
    let response = get_stream(shared, Some(last_event_id))
        .await
        .map_err(|e| (None, e.to_string()))?;
    if response.status().is_success() && is_event_stream(&response) {
        Ok(response)
    } else {
        Err((
            Some(response.status()),
            format!("HTTP {}", response.status()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn recognises_a_cancellation_and_the_request_it_names() {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 7, "reason": "timed out"}});
        assert_eq!(cancelled_request(&note), Some(RequestId::Number(7)));
        let other = json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"requestId": 7}});
        assert_eq!(cancelled_request(&other), None);
    }
}
