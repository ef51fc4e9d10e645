//! The inbound side of the peer: classifies each message from the server and hands it on:
//! responses to their waiting requests, progress to its request, notifications of long-lived
//! requests to their stream, other notifications and server requests to the [`Handler`]
//! (a server's cancellation of its own request withdraws it: [`super::answering`]).
//! A transport's out-of-band failure fails its request; so does a malformed message that
//! carries a pending request's id, a line cut short whose start names one, and a batch holding a
//! pending request's answer, rather than leaving it to time out: the request fails with
//! `McpError::MalformedResponse`, quoting at most 200 characters of the message.
//!
//! The route owns the tasks answering the server's requests, so they end with the connection.
//! At most [`MAX_SERVER_REQUESTS`] are answered at once; one more is refused at once with an
//! error response.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use super::answering::{Answering, Asked, MAX_SERVER_REQUESTS};
use super::failure::Failure;
use super::handler::Handler;
use super::origin::Origin;
use super::progress::{PROGRESS_QUEUE, progress_key};
use super::state::{Inner, Reply, is_modern, lock};
use super::stream_item::{self, lost, request_key, stream_key};
use super::tap::{Direction, Tap};
use crate::error::RpcError;
use crate::jsonrpc::{self, Invalid, Message, RequestId, codes};

use crate::transport::Inbound;

pub(super) async fn route(
    inner: Arc<Inner>,
    mut inbound: mpsc::Receiver<Inbound>,
    handler: Arc<dyn Handler>,
) {
    let mut answering = Answering::default();
    let reason = loop {
        let event = tokio::select! {
            event = inbound.recv() => event,
            () = answering.next_done(), if !answering.is_empty() => continue,
        };
        let Some(event) = event else {
            break "the transport stopped".to_owned();
        };
        let tap = inner.outbound.tap();
        let (value, related) = match event {
            Inbound::Message(value) => (value, None),
            Inbound::Related { message, request } => (message, Some(request)),
            Inbound::Failed { id, failure } => {
                complete(&inner, &id, Err(Failure::from(failure)));
                continue;
            }
            Inbound::Unparsable { text, problem, id } => {
                if tap.is_some() {
                    Tap::tell(tap, Direction::Received, &Value::String(text.clone()));
                }
                let id = id.or_else(|| jsonrpc::recover_id(&text));
                malformed(&inner, id, format!("not JSON: {problem}"), &text);
                continue;
            }
            Inbound::Closed { reason } => break reason,
        };
        Tap::tell(tap, Direction::Received, &value);
        match Message::from_value(value) {
            Ok(message) => {
                let origin = related.and_then(|id| lock(&inner.origins).get(&id).cloned());
                if let Some(refusal) = dispatch(&inner, &handler, message, origin, &mut answering) {
                    // Waiting for room holds up reading, which slows a flooding server down.
                    let _ = inner.outbound.send(refusal.into()).await;
                }
            }
            Err(Invalid {
                problem,
                response_to,
                message,
            }) => {
                let text = message.to_string();
                if response_to.is_empty() {
                    malformed(&inner, None, problem.clone(), &text);
                }
                for id in response_to {
                    malformed(&inner, Some(id), problem.clone(), &text);
                }
            }
        }
    };
    inner.closed.send_replace(Some(reason));
    // Dropping the senders fails every pending request with `Closed`, and ends every stream.
    lock(&inner.pending).clear();
    lock(&inner.origins).clear();
    lock(&inner.streams).clear();
}

/// Hands one message on (a server's request answered inside `origin`, the origin of the request
/// it serves, when known); returns a refusal to send when the server asked too much at once.
fn dispatch(
    inner: &Arc<Inner>,
    handler: &Arc<dyn Handler>,
    message: Message,
    origin: Option<Origin>,
    answering: &mut Answering,
) -> Option<serde_json::Value> {
    match message {
        Message::Response { id, result } => complete(inner, &id, Ok(result)),
        Message::Error {
            id: Some(id),
            error,
        } => complete(
            inner,
            &id,
            Err(Failure::Server {
                error,
                http_status: None,
            }),
        ),
        Message::Error { id: None, error } => {
            tracing::warn!("the server reported an error without a request id: {error}");
        }
        Message::Notification { method, params } if method == "notifications/progress" => {
            let token = params
                .as_ref()
                .and_then(|p| p.get("progressToken"))
                .map(progress_key);
            let sink = token.and_then(|t| lock(&inner.progress).get(&t).cloned());
            match (sink, params) {
                (Some(sink), Some(params)) => {
                    if let Err(mpsc::error::TrySendError::Full(_)) = sink.try_send(params) {
                        tracing::warn!(
                            "dropping a progress update: more than {} are waiting",
                            PROGRESS_QUEUE
                        );
                    }
                }
                (_, params) => handler.on_notification(&method, params),
            }
        }
        Message::Notification { method, params }
            if method == "notifications/cancelled" && end_by_server(inner, params.as_ref()) =>
        {
            tracing::debug!("the server ended a subscription: {params:?}");
        }
        Message::Notification { method, params }
            if method == "notifications/cancelled" && answering.withdraw(params.as_ref()) =>
        {
            tracing::debug!("the server withdrew one of its requests: {params:?}");
            handler.on_notification(&method, params);
        }
        Message::Notification { method, params } => {
            inner.cache.on_notification(&method, params.as_ref());
            inner.listed.on_notification(&method);
            let sink = stream_item::subscription_of(params.as_ref())
                .and_then(|key| lock(&inner.streams).get(&key).cloned());
            match sink {
                Some(sink) => {
                    let item = stream_item::StreamItem::Notification { method, params };
                    if let Err(mpsc::error::TrySendError::Full(_)) = sink.try_send(item) {
                        tracing::warn!(
                            "dropping a subscription notification: more than {} are waiting",
                            stream_item::STREAM_QUEUE
                        );
                    }
                }
                None => handler.on_notification(&method, params),
            }
        }
        // 2026-07-28 basic/transports: "servers do not initiate JSON-RPC requests and clients do
        // not send JSON-RPC responses". Such a message is the server's protocol error: it is
        // logged and left unanswered (input reaches a modern client through MRTR instead).
        Message::Request { id, method, .. } if is_modern(inner) => {
            tracing::warn!(
                "a 2026-07-28 server sent request {id} (`{method}`), which that revision does \
                 not allow; it is not answered"
            );
        }
        Message::Request { id, method, .. } if answering.len() >= MAX_SERVER_REQUESTS => {
            tracing::warn!(
                "refusing request {id} (`{method}`): {MAX_SERVER_REQUESTS} of the server's \
                 requests are already being answered"
            );
            let error = RpcError {
                code: codes::INTERNAL_ERROR,
                message: format!(
                    "too many requests in progress: at most {MAX_SERVER_REQUESTS} are answered at once"
                ),
                data: None,
            };
            return Some(jsonrpc::error_response(&id, &error));
        }
        Message::Request { id, method, params } => {
            let asked = Asked { id, method, params };
            answering.answer(asked, handler.clone(), inner.outbound.clone(), origin);
        }
    }
    None
}

/// Fails the pending request `id` names with a malformed-response error quoting `text`; a
/// message that names no pending request is only logged.
fn malformed(inner: &Inner, id: Option<RequestId>, problem: String, text: &str) {
    let start = jsonrpc::quote(text);
    let waiting = id.filter(|id| lock(&inner.pending).contains_key(id));
    match waiting {
        Some(id) => {
            tracing::warn!("malformed response to request {id} ({problem}): {start}");
            complete(inner, &id, Err(Failure::Malformed { problem, start }));
        }
        None => tracing::warn!("ignoring an invalid message from the server ({problem}): {start}"),
    }
}

fn complete(inner: &Inner, id: &RequestId, reply: Reply) {
    match lock(&inner.pending).remove(id) {
        Some(waiter) => {
            let _ = waiter.send(reply);
        }
        None => tracing::debug!("ignoring a response to request {id}, which is no longer pending"),
    }
}

/// Ends the long-lived request that a server's `notifications/cancelled` names, if it names one
/// (2026-07-28 basic/patterns/cancellation: a server sends it only to tear down a
/// `subscriptions/listen` stream). True if it did; the request then ends with an error, as a
/// stream that ends without its closing result does.
fn end_by_server(inner: &Inner, params: Option<&Value>) -> bool {
    let Some(key) = params.and_then(|p| p.get("requestId")).and_then(stream_key) else {
        return false;
    };
    if !lock(&inner.streams).contains_key(&key) {
        return false;
    }
    let waiter = {
        let mut pending = lock(&inner.pending);
        let id = pending.keys().find(|id| request_key(id) == key).cloned();
        id.and_then(|id| pending.remove(&id))
    };
    let reason = params
        .and_then(|p| p.get("reason"))
        .and_then(Value::as_str)
        .unwrap_or("no reason given");
    if let Some(waiter) = waiter {
        let _ = waiter.send(Err(lost(format!(
            "the server ended the subscription: {reason}"
        ))));
    }
    true
}
