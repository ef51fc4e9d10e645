//! Long-lived requests (2026-07-28 basic/patterns/subscriptions): a request such as
//! `subscriptions/listen` that stays open and carries notifications until either side ends it.
//! Its notifications name it in `_meta["io.modelcontextprotocol/subscriptionId"]` (on stdio every
//! subscription shares one channel, so this is how they are told apart); the response, if one
//! comes, marks a graceful end. Dropping the [`OpenRequest`] cancels it: `notifications/cancelled`
//! on stdio, closing the response stream on HTTP. A server's own `notifications/cancelled`
//! naming one ends it with an error, as a stream that ends without its result does (the
//! `Listener` then opens it again).

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::Peer;
use super::guard::PendingGuard;
use super::state::{Reply, lock};
pub use super::stream_item::{STREAM_QUEUE, SUBSCRIPTION_ID, StreamItem, stream_key};
use super::stream_item::{lost, request_key};
use crate::error::{McpError, Result};
use crate::jsonrpc::RequestId;

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
