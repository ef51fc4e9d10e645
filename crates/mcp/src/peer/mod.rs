//! The JSON-RPC peer: sends requests and matches responses, routes server-initiated requests and
//! notifications to a [`Handler`], and fails everything pending when the connection ends.
//!
//! A request that times out or whose caller goes away is cancelled on the server with
//! `notifications/cancelled` (2025-11-25 basic/utilities/cancellation), except `initialize`,
//! which must not be cancelled, and the `server/discover` probe, so that a legacy server sees
//! nothing else before `initialize`. A response that arrives after that is ignored. In the
//! legacy era the server's `ping` is answered here; a 2026-07-28 server may send no requests at
//! all (2026-07-28 basic/transports), so one that does is logged and left unanswered.
//!
//! In the 2026-07-28 era a request whose response stream broke before the answer is sent again
//! with a new id when its `RequestOptions::reissue` allows it (streams are not resumable in that
//! era): by default every request may be; a `tools/call` only for a tool annotated
//! `readOnlyHint` or `idempotentHint`, because a broken stream leaves it unknown whether the tool
//! ran, so a tool with side effects is never sent again. Long-lived requests such as
//! `subscriptions/listen` get their notifications routed to them by
//! `io.modelcontextprotocol/subscriptionId` ([`stream`]).
//!
//! The peer is told its era (`Peer::speak_modern`, `Peer::speak_legacy`) and stamps it on each
//! outgoing message (`transport::Outbound`, its `transport::Wire`); nothing reads the era back
//! from a message's `_meta`.
//!
//! Files, one job each: [`handler`] is what answers the server; [`request`] sends one request
//! and waits, as its [`options`] say, reporting [`progress`]; [`guard`] cancels an abandoned
//! one; [`route`] hands each inbound message on; [`answering`] runs the answers to the server's
//! requests, which a [`withdrawal`] can end, each inside the [`origin`] of the request it serves
//! where the transport tells it; [`stream`] keeps long-lived requests open; [`state`]
//! is what they all share.

mod answering;
pub mod failure;
mod guard;
pub mod handler;
pub mod options;
pub mod origin;
mod outlet;
pub mod progress;
mod request;
mod result_type;
mod route;
mod state;
pub mod stream;
mod stream_item;
pub mod tap;
pub mod withdrawal;

use std::collections::HashMap;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::{oneshot, watch};

use crate::error::{McpError, Result};
use crate::jsonrpc::{self, RequestId};
use crate::transport::{Link, Outbound, Wire};
pub use answering::MAX_SERVER_REQUESTS;
pub use failure::Failure;
pub use handler::{Handler, RefusingHandler};
pub use options::{DEFAULT_REISSUE, RequestOptions};
use outlet::Outlet;
pub use progress::{PROGRESS_QUEUE, Progress};
use state::{EraState, Inner, Reply, is_modern, lock};
pub use tap::{Direction, MessageTap, Tap};
pub use withdrawal::Withdrawal;

/// How many requests may be in flight at once on one connection.
pub const MAX_IN_FLIGHT: usize = 64;

/// A cheap handle to one connection's peer.
#[derive(Clone)]
pub struct Peer {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("closed", &self.closed_reason())
            .finish()
    }
}

impl Peer {
    /// Starts routing the link's inbound messages.
    pub fn start(link: Link, handler: Arc<dyn Handler>) -> Peer {
        Self::start_tapped(link, handler, None)
    }

    /// Starts routing the link's inbound messages, telling `tap` of every message both ways.
    pub fn start_tapped(link: Link, handler: Arc<dyn Handler>, tap: Option<Tap>) -> Peer {
        let (closed, _) = watch::channel(None);
        let inner = Arc::new(Inner {
            outbound: Outlet::new(link.outbound, tap),
            streams: Mutex::new(HashMap::new()),
            cache: crate::cache::ResultCache::default(),
            listed: crate::listed::Listed::default(),
            pending: Mutex::new(HashMap::new()),
            origins: Mutex::new(HashMap::new()),
            progress: Mutex::new(HashMap::new()),
            in_flight: tokio::sync::Semaphore::new(MAX_IN_FLIGHT),
            era: Mutex::new(EraState::default()),
            handler: handler.clone(),
            next_id: AtomicI64::new(1),
            closed,
        });
        tokio::spawn(route::route(inner.clone(), link.inbound, handler));
        Peer { inner }
    }

    /// Sends a notification.
    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<()> {
        self.inner
            .outbound
            .send(Outbound {
                message: jsonrpc::notification(method, self.with_meta(params)),
                headers: Vec::new(),
                wire: self.wire(),
            })
            .await
            .map_err(|_| self.closed_error())
    }

    /// The connection's result cache (2026-07-28 server/utilities/caching).
    pub fn cache(&self) -> &crate::cache::ResultCache {
        &self.inner.cache
    }

    /// The URIs and names of the connection's last full listings of resources, templates and
    /// prompts.
    pub fn listed(&self) -> &crate::listed::Listed {
        &self.inner.listed
    }

    /// The handler that answers the server's requests.
    pub fn handler(&self) -> Arc<dyn Handler> {
        self.inner.handler.clone()
    }

    /// Whether this connection speaks the 2026-07-28 era (from the `server/discover` probe on,
    /// until a fallback to `initialize`).
    pub fn is_modern(&self) -> bool {
        is_modern(&self.inner)
    }

    /// The era messages are sent in now.
    pub fn wire(&self) -> Wire {
        lock(&self.inner.era).wire.clone()
    }

    /// Speaks the 2026-07-28 era at `version` from now on, stamping `meta` into every
    /// outgoing message's `_meta`.
    pub fn speak_modern(&self, version: &str, meta: serde_json::Map<String, Value>) {
        *lock(&self.inner.era) = EraState {
            wire: Wire::Modern {
                version: version.to_owned(),
            },
            meta,
        };
    }

    /// Speaks the legacy era from now on: no stamped `_meta`.
    pub fn speak_legacy(&self) {
        *lock(&self.inner.era) = EraState::default();
    }

    /// Adds or replaces one stamped `_meta` field. The legacy era stamps nothing, so there it
    /// is ignored.
    pub fn insert_meta(&self, key: &str, value: Value) {
        let mut era = lock(&self.inner.era);
        if era.wire.is_modern() {
            era.meta.insert(key.to_owned(), value);
        } else {
            tracing::debug!("not stamping `{key}` on a legacy connection");
        }
    }

    /// The params with the stamped `_meta` fields merged in (the caller's own `_meta` keys win).
    fn with_meta(&self, params: Option<Value>) -> Option<Value> {
        let meta = {
            let era = lock(&self.inner.era);
            if !era.wire.is_modern() {
                return params;
            }
            era.meta.clone()
        };
        let mut params = match params {
            Some(Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        if let Value::Object(own) = params.entry("_meta").or_insert_with(|| json!({})) {
            for (key, value) in meta {
                own.entry(key).or_insert(value);
            }
        }
        Some(Value::Object(params))
    }

    /// Why the connection ended, if it has.
    pub fn closed_reason(&self) -> Option<String> {
        self.inner.closed.borrow().clone()
    }

    /// Waits until the connection ends and returns why.
    pub async fn wait_closed(&self) -> String {
        let mut rx = self.inner.closed.subscribe();
        match rx.wait_for(Option::is_some).await {
            Ok(reason) => reason.clone().unwrap_or_default(),
            Err(_) => "the connection was dropped".to_owned(),
        }
    }

    /// How many requests are waiting for a response.
    pub fn pending_count(&self) -> usize {
        self.lock_pending().len()
    }

    /// How many requests are waiting for a response, not counting the long-lived ones opened
    /// with [`Peer::open`] (subscriptions), which wait for as long as they are open.
    pub fn calls_in_flight(&self) -> usize {
        let open = lock(&self.inner.streams).len();
        self.pending_count().saturating_sub(open)
    }

    fn closed_error(&self) -> McpError {
        McpError::Closed {
            reason: self
                .closed_reason()
                .unwrap_or_else(|| "the transport stopped".to_owned()),
        }
    }

    fn lock_pending(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<RequestId, oneshot::Sender<Reply>>> {
        lock(&self.inner.pending)
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::mpsc;

    use super::*;

    /// The era is told to the peer, which stamps it on every message: the HTTP transport's
    /// `MCP-Protocol-Version` (from the stamp) and the body's `_meta` version (from the same
    /// value) cannot disagree, and a legacy connection stamps nothing.
    #[tokio::test]
    async fn each_message_carries_the_era_the_peer_was_told() {
        let (outbound, mut sent) = mpsc::channel(8);
        let (_inbound_tx, inbound) = mpsc::channel(8);
        let peer = Peer::start(Link { outbound, inbound }, Arc::new(RefusingHandler));
        let mut meta = serde_json::Map::new();
        meta.insert(
            "io.modelcontextprotocol/protocolVersion".into(),
            json!("2026-07-28"),
        );
        peer.speak_modern("2026-07-28", meta);
        peer.notify("notifications/x", None).await.expect("sent");
        let modern = sent.recv().await.expect("a message");
        assert_eq!(
            modern.wire,
            Wire::Modern {
                version: "2026-07-28".into()
            }
        );
        assert_eq!(
            modern.message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        peer.speak_legacy();
        peer.insert_meta("io.modelcontextprotocol/logLevel", json!("debug"));
        peer.notify("notifications/x", None).await.expect("sent");
        let legacy = sent.recv().await.expect("a message");
        assert_eq!(legacy.wire, Wire::Legacy);
        assert!(
            legacy.message.get("params").is_none(),
            "nothing stamped, and a stamp asked for on a legacy connection does not make it modern"
        );
        assert!(!peer.is_modern());
    }
}
