//! The guard of one pending request: when the request is abandoned (its caller went away or it
//! timed out) it forgets the request and tells the server to stop working on it
//! (`notifications/cancelled`, 2025-11-25 basic/utilities/cancellation).

use std::sync::Arc;

use serde_json::json;

use super::state::{Inner, lock};
use crate::jsonrpc::{self, RequestId};
use crate::transport::Outbound;

/// Removes an abandoned request and tells the server to stop working on it.
pub(super) struct PendingGuard {
    pub(super) inner: Arc<Inner>,
    pub(super) id: RequestId,
    pub(super) progress_token: Option<String>,
    pub(super) cancellable: bool,
    pub(super) reason: &'static str,
    pub(super) armed: bool,
}

impl PendingGuard {
    /// Forgets the request's bookkeeping (pending entry, origin and progress token).
    pub(super) fn forget(&self) {
        lock(&self.inner.pending).remove(&self.id);
        lock(&self.inner.origins).remove(&self.id);
        if let Some(token) = &self.progress_token {
            lock(&self.inner.progress).remove(token);
        }
    }

    /// The request is over: forget it without cancelling it.
    pub(super) fn disarm(&mut self) {
        self.armed = false;
        self.forget();
    }
}

impl Drop for PendingGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        self.forget();
        if self.cancellable && self.inner.closed.borrow().is_none() {
            tracing::debug!("cancelling request {}: {}", self.id, self.reason);
            let note = jsonrpc::notification(
                "notifications/cancelled",
                Some(json!({ "requestId": self.id, "reason": self.reason })),
            );
            let note = Outbound {
                message: note,
                headers: Vec::new(),
                wire: lock(&self.inner.era).wire.clone(),
            };
            if self.inner.outbound.try_send(note).is_err() {
                tracing::debug!("could not send cancellation for request {}", self.id);
            }
        }
    }
}
