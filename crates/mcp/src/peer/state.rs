//! The state one connection's peer shares between its handle, its requests and its route: the
//! outbound channel, the pending requests and their progress tokens, the long-lived requests'
//! streams, the era it speaks and why it closed.

use std::collections::HashMap;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};

use super::outlet::Outlet;

use super::failure::Failure;
use super::handler::Handler;
use super::stream_item::StreamItem;
use crate::jsonrpc::RequestId;
use crate::transport::Wire;

/// What a pending request is answered with: the server's result, or why there is none.
pub(super) type Reply = std::result::Result<Value, Failure>;

/// The era the peer speaks, as the client told it (never read back from messages).
#[derive(Debug, Default)]
pub(super) struct EraState {
    pub(super) wire: Wire,
    /// Fields added to every outgoing request's and notification's `_meta` (the 2026-07-28 era
    /// carries version, capabilities and client info there); empty in the legacy era.
    pub(super) meta: serde_json::Map<String, Value>,
}

pub(super) struct Inner {
    /// The transport's outbound channel, through the connection's tap.
    pub(super) outbound: Outlet,
    /// Long-lived requests' notification sinks, by subscription id ([`stream_key`](super::stream_item::stream_key)).
    pub(super) streams: Mutex<HashMap<String, mpsc::Sender<StreamItem>>>,
    /// Cached list and read results, invalidated by the server's change notifications.
    pub(super) cache: crate::cache::ResultCache,
    /// The URIs and names of the last full listings of resources, templates and prompts,
    /// dropped on their change.
    pub(super) listed: crate::listed::Listed,
    pub(super) pending: Mutex<HashMap<RequestId, oneshot::Sender<Reply>>>,
    /// The origins of pending requests sent inside one ([`super::origin`]).
    pub(super) origins: Mutex<HashMap<RequestId, super::origin::Origin>>,
    /// Progress tokens of in-flight requests, to their request's update channel.
    pub(super) progress: Mutex<HashMap<String, mpsc::Sender<Value>>>,
    /// Bounds the requests in flight at once.
    pub(super) in_flight: tokio::sync::Semaphore,
    /// The era the client settled on, and what it stamps on every message.
    pub(super) era: Mutex<EraState>,
    /// Answers server-initiated requests, and the input requests of multi round-trip results.
    pub(super) handler: Arc<dyn Handler>,
    pub(super) next_id: AtomicI64,
    pub(super) closed: watch::Sender<Option<String>>,
}

/// See [`Peer::is_modern`].
pub(super) fn is_modern(inner: &Inner) -> bool {
    lock(&inner.era).wire.is_modern()
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
