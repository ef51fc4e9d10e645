//! Long-lived requests (2026-07-28 basic/patterns/subscriptions): a request such as
//! `subscriptions/listen` that stays open and carries notifications until either side ends it.
//! Its notifications name it in `_meta["io.modelcontextprotocol/subscriptionId"]` (on stdio every
//! subscription shares one channel, so this is how they are told apart); the response, if one
//! comes, marks a graceful end. Dropping the [`OpenRequest`] cancels it: `notifications/cancelled`
//! on stdio, closing the response stream on HTTP.

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::{Failure, Peer, PendingGuard, Reply, lock};
use crate::error::{McpError, Result};
use crate::jsonrpc::RequestId;

/// How many notifications of one long-lived request may wait to be read; beyond that they are
/// dropped, with a log line.
pub const STREAM_QUEUE: usize = 256;

/// The `_meta` key naming the long-lived request a notification belongs to.
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// What a long-lived request delivers.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamItem {
    /// A notification carrying the request's subscription id.
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// The request ended. `Ok` is the server's graceful closing result; `Err` is the server's
    /// error, or why the stream ended without one.
    Ended(std::result::Result<Value, Failure>),
}

/// The routing key for a subscription id: the id's text, so that a server that echoes the
/// numeric id `1` as the string `"1"` is still understood.
pub fn stream_key(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The routing key of one of our own request ids (see [`stream_key`]).
fn request_key(id: &RequestId) -> String {
    match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => s.clone(),
    }
}

/// The subscription a notification's params name, if any.
pub(super) fn subscription_of(params: Option<&Value>) -> Option<String> {
    stream_key(params?.get("_meta")?.get(SUBSCRIPTION_ID)?)
}

/// A long-lived request in flight. Its guard holds the request's id and the peer's state.
pub struct OpenRequest {
    method: String,
    items: mpsc::Receiver<StreamItem>,
    reply: Option<oneshot::Receiver<Reply>>,
    guard: PendingGuard,
}

impl std::fmt::Debug for OpenRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenRequest")
            .field("id", &self.guard.id)
            .finish()
    }
}

impl OpenRequest {
    /// The request's id, which is also its subscription id.
    pub fn id(&self) -> &RequestId {
        &self.guard.id
    }

    /// The next notification, or the end. After the end it keeps answering `Ended`.
    /// Cancel-safe: nothing is lost if the future is dropped before it completes.
    pub async fn next(&mut self) -> StreamItem {
        let Some(reply) = self.reply.as_mut() else {
            return StreamItem::Ended(Err(lost("the request has ended".into())));
        };
        let ended = tokio::select! {
            biased;
            Some(item) = self.items.recv() => return item,
            reply = reply => reply,
        };
        // Notifications routed before the response still come first.
        if let Ok(item) = self.items.try_recv() {
            self.reply = Some(oneshot_ready(ended));
            return item;
        }
        self.reply = None;
        self.guard.disarm();
        self.unroute();
        StreamItem::Ended(match ended {
            Ok(Ok(result)) => match super::result_type::problem(&self.method, &result) {
                Some(problem) => Err(lost(format!("invalid closing result: {problem}"))),
                None => Ok(result),
            },
            Ok(Err(error)) => Err(error),
            Err(_) => Err(lost(
                self.guard
                    .inner
                    .closed
                    .borrow()
                    .clone()
                    .unwrap_or_else(|| "the connection ended".into()),
            )),
        })
    }

    /// Stops routing notifications to this request.
    fn unroute(&self) {
        lock(&self.guard.inner.streams).remove(&request_key(&self.guard.id));
    }
}

/// Ends the long-lived request that a server's `notifications/cancelled` names, if it names one
/// (2026-07-28 basic/patterns/cancellation: a server sends it only to tear down a
/// `subscriptions/listen` stream). True if it did; the request then ends with an error, as a
/// stream that ends without its closing result does.
pub(super) fn end_by_server(inner: &super::Inner, params: Option<&Value>) -> bool {
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

/// The error for a stream that ended without an answer.
fn lost(reason: String) -> Failure {
    Failure::Ended(reason)
}

/// A receiver that already holds `value` (to put a consumed reply back).
fn oneshot_ready(
    value: std::result::Result<Reply, oneshot::error::RecvError>,
) -> oneshot::Receiver<Reply> {
    let (tx, rx) = oneshot::channel();
    if let Ok(reply) = value {
        let _ = tx.send(reply);
    }
    rx
}

impl Drop for OpenRequest {
    fn drop(&mut self) {
        self.unroute();
    }
}

impl Peer {
    /// Sends a long-lived request and returns at once; its notifications and its end come
    /// through the returned [`OpenRequest`]. It has no timeout: it lasts until either side ends
    /// it, or the connection does.
    pub async fn open(&self, method: &str, params: Option<Value>) -> Result<OpenRequest> {
        if let Some(reason) = self.closed_reason() {
            return Err(McpError::Closed { reason });
        }
        let id = self.next_id();
        let (tx, rx) = oneshot::channel();
        self.lock_pending().insert(id.clone(), tx);
        let (items_tx, items) = mpsc::channel(STREAM_QUEUE);
        lock(&self.inner.streams).insert(request_key(&id), items_tx);
        let mut open = OpenRequest {
            method: method.to_owned(),
            items,
            reply: Some(rx),
            guard: PendingGuard {
                inner: self.inner.clone(),
                id: id.clone(),
                progress_token: None,
                cancellable: true,
                reason: "the client closed the subscription",
                armed: true,
            },
        };
        if !self.send_request(&id, method, params, Vec::new()).await {
            open.guard.disarm();
            return Err(self.closed_error());
        }
        Ok(open)
    }
}
