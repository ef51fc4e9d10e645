//! The JSON-RPC peer: sends requests and matches responses, routes server-initiated requests and
//! notifications to a [`Handler`], and fails everything pending when the connection ends.
//!
//! A request that times out or whose caller goes away is cancelled on the server with
//! `notifications/cancelled` (2025-11-25 basic/utilities/cancellation), except `initialize`,
//! which must not be cancelled. A response that arrives after that is ignored.
//!
//! In the 2026-07-28 era a request whose response stream broke before the answer is sent again
//! with a new id when its options allow it (streams are not resumable in that era), and
//! long-lived requests such as `subscriptions/listen` get their notifications routed to them by
//! `io.modelcontextprotocol/subscriptionId` ([`stream`]).

mod answering;
pub mod failure;
mod result_type;
mod route;
pub mod stream;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};

use crate::error::{McpError, Result, RpcError};
use crate::jsonrpc::{self, RequestId, codes};
use crate::transport::{BoxFuture, Link, Outbound, Wire};
pub use answering::Withdrawal;
pub use failure::Failure;
pub use route::MAX_SERVER_REQUESTS;

/// Receives what the server sends on its own initiative.
pub trait Handler: Send + Sync + 'static {
    /// Answers a server→client request. The default refuses it as unknown.
    fn on_request(
        &self,
        method: String,
        _params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        Box::pin(async move {
            Err(RpcError {
                code: codes::METHOD_NOT_FOUND,
                message: format!("method not found: {method}"),
                data: None,
            })
        })
    }

    /// Answers a server→client request that the server may withdraw: `withdrawn` completes,
    /// with the server's reason, once the server sends `notifications/cancelled` for it. No
    /// response is sent for a withdrawn request, whatever this answers; the default answers
    /// with [`Handler::on_request`] and drops that answer at once on a withdrawal. A handler
    /// that overrides it should end promptly once withdrawn (say, after recording it).
    fn on_withdrawable_request(
        &self,
        method: String,
        params: Option<Value>,
        withdrawn: Withdrawal,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let answer = self.on_request(method, params);
        Box::pin(async move {
            tokio::select! {
                answer = answer => answer,
                reason = withdrawn.withdrawn() => Err(RpcError {
                    code: codes::INTERNAL_ERROR,
                    message: format!("the server withdrew the request: {reason}"),
                    data: None,
                }),
            }
        })
    }

    /// Receives a notification. It must return quickly.
    fn on_notification(&self, _method: &str, _params: Option<Value>) {}
}

/// A handler that refuses every request and drops every notification.
#[derive(Debug, Default)]
pub struct RefusingHandler;

impl Handler for RefusingHandler {}

type Reply = std::result::Result<Value, Failure>;

/// How many requests may be in flight at once on one connection.
pub const MAX_IN_FLIGHT: usize = 64;

/// How many `notifications/progress` updates of one request may wait to be handled; beyond
/// that the server is flooding, and updates are dropped (with a log line).
pub const PROGRESS_QUEUE: usize = 64;

/// How to wait for one request.
#[derive(Debug, Clone)]
pub struct RequestOptions {
    /// How long to wait for the response (or for the next progress update, if it resets).
    pub timeout: Duration,
    /// Whether a progress update restarts `timeout`.
    pub reset_timeout_on_progress: bool,
    /// A cap on the total wait, whatever progress arrives.
    pub max_total: Option<Duration>,
    /// Where progress updates go; setting it sends a `progressToken`. A reader that falls
    /// behind skips updates but always gets the latest ([`crate::updates::LatestSink`]).
    pub progress: Option<mpsc::Sender<Progress>>,
    /// Extra HTTP headers for this request (ignored by stdio).
    pub headers: Vec<(String, String)>,
    /// How many times the request is sent again, with a new id, when its response stream breaks
    /// before the answer. Only safe for requests that may run twice: reads, lists, and tools
    /// that declare themselves read-only or idempotent.
    pub reissue: u32,
}

impl RequestOptions {
    pub fn new(timeout: Duration) -> Self {
        Self {
            timeout,
            reset_timeout_on_progress: true,
            max_total: None,
            progress: None,
            headers: Vec::new(),
            reissue: DEFAULT_REISSUE,
        }
    }

    /// The same options, never re-sent after a broken stream (for requests with side effects).
    pub fn without_reissue(mut self) -> Self {
        self.reissue = 0;
        self
    }
}

/// Re-sends allowed by default: every request but a side-effecting tool call is safe to repeat.
pub const DEFAULT_REISSUE: u32 = 2;

/// One `notifications/progress` update.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

impl Progress {
    fn from_params(params: &Value) -> Option<Progress> {
        Some(Progress {
            progress: params.get("progress")?.as_f64()?,
            total: params.get("total").and_then(Value::as_f64),
            message: params
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }
}

/// Progress tokens are compared as their JSON text, so `1` and `"1"` stay distinct.
fn progress_key(token: &Value) -> String {
    token.to_string()
}

/// Adds `_meta.progressToken` (the request's own id) to the params.
fn with_progress_token(params: Option<Value>, id: &RequestId) -> Value {
    let mut params = match params {
        Some(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let meta = params.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert("progressToken".into(), json!(id));
    }
    Value::Object(params)
}

/// The era the peer speaks, as the client told it (never read back from messages).
#[derive(Debug, Default)]
struct EraState {
    wire: Wire,
    /// Fields added to every outgoing request's and notification's `_meta` (the 2026-07-28 era
    /// carries version, capabilities and client info there); empty in the legacy era.
    meta: serde_json::Map<String, Value>,
}

struct Inner {
    outbound: mpsc::Sender<Outbound>,
    /// Long-lived requests' notification sinks, by subscription id ([`stream::stream_key`]).
    streams: Mutex<HashMap<String, mpsc::Sender<stream::StreamItem>>>,
    /// Cached list and read results, invalidated by the server's change notifications.
    cache: crate::cache::ResultCache,
    pending: Mutex<HashMap<RequestId, oneshot::Sender<Reply>>>,
    /// Progress tokens of in-flight requests, to their request's update channel.
    progress: Mutex<HashMap<String, mpsc::Sender<Value>>>,
    /// Bounds the requests in flight at once.
    in_flight: tokio::sync::Semaphore,
    /// The era the client settled on, and what it stamps on every message.
    era: Mutex<EraState>,
    /// Answers server-initiated requests, and the input requests of multi round-trip results.
    handler: Arc<dyn Handler>,
    next_id: AtomicI64,
    closed: watch::Sender<Option<String>>,
}

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
        let (closed, _) = watch::channel(None);
        let inner = Arc::new(Inner {
            outbound: link.outbound,
            streams: Mutex::new(HashMap::new()),
            cache: crate::cache::ResultCache::default(),
            pending: Mutex::new(HashMap::new()),
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

    /// Sends a request and waits for its result, with a plain timeout.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> Result<Value> {
        self.request_with(method, params, RequestOptions::new(timeout))
            .await
    }

    /// Sends a request with progress reporting, a timeout that progress can reset, and an
    /// overall cap (2025-11-25 basic/utilities/progress; basic/lifecycle "Timeouts"). A broken
    /// response stream re-issues the request with a new id as often as `options.reissue` allows.
    pub async fn request_with(
        &self,
        method: &str,
        params: Option<Value>,
        options: RequestOptions,
    ) -> Result<Value> {
        let started = tokio::time::Instant::now();
        // Only a modern connection (its `_meta` stamped) has streams that break without resuming,
        // so only there is a copy of the params kept for sending again.
        let mut reissues = if self.is_modern() { options.reissue } else { 0 };
        let mut params = params;
        loop {
            let kept = (reissues > 0).then(|| params.clone()).flatten();
            match self.request_once(method, params, &options, started).await {
                Err(e) if reissues > 0 && e.is_broken_stream() => {
                    reissues -= 1;
                    params = kept;
                    tracing::info!("{e}; sending `{method}` again with a new id");
                }
                other => return other,
            }
        }
    }

    async fn request_once(
        &self,
        method: &str,
        params: Option<Value>,
        options: &RequestOptions,
        started: tokio::time::Instant,
    ) -> Result<Value> {
        if let Some(reason) = self.closed_reason() {
            return Err(McpError::Closed { reason });
        }
        let _permit = self
            .inner
            .in_flight
            .acquire()
            .await
            .map_err(|_| self.closed_error())?;
        let id = self.next_id();
        let (tx, mut rx) = oneshot::channel();
        self.lock_pending().insert(id.clone(), tx);
        let (progress_tx, mut progress_rx) = mpsc::channel(PROGRESS_QUEUE);
        let mut sink = options
            .progress
            .clone()
            .map(crate::updates::LatestSink::new);
        let token = options.progress.as_ref().map(|_| progress_key(&json!(id)));
        if let Some(token) = &token {
            lock(&self.inner.progress).insert(token.clone(), progress_tx);
        }
        let mut guard = PendingGuard {
            inner: self.inner.clone(),
            id: id.clone(),
            progress_token: token.clone(),
            // Neither the handshake nor the era probe is cancelled: before the era is settled
            // a legacy server must see nothing but `initialize`.
            cancellable: method != "initialize" && method != "server/discover",
            reason: "the client no longer needs the result",
            armed: true,
        };
        let params = match &token {
            Some(_) => Some(with_progress_token(params, &id)),
            None => params,
        };
        if !self
            .send_request(&id, method, params, options.headers.clone())
            .await
        {
            guard.disarm();
            return Err(self.closed_error());
        }
        let cap = options.max_total.map(|max| started + max);
        let mut deadline = tokio::time::Instant::now() + options.timeout;
        loop {
            let until = cap.map_or(deadline, |cap| cap.min(deadline));
            tokio::select! {
                reply = &mut rx => {
                    guard.disarm();
                    // Updates routed before the response must still reach the caller, in order.
                    if let Some(sink) = &mut sink {
                        while let Ok(update) = progress_rx.try_recv() {
                            if let Some(progress) = Progress::from_params(&update) {
                                sink.offer(progress);
                            }
                        }
                        sink.flush();
                    }
                    return match reply {
                        Ok(Ok(result)) => self.accept(method, result),
                        Ok(Err(failure)) => Err(failure.into_error(method)),
                        Err(_) => Err(self.closed_error()),
                    };
                }
                Some(update) = progress_rx.recv() => {
                    if options.reset_timeout_on_progress {
                        deadline = tokio::time::Instant::now() + options.timeout;
                    }
                    if let (Some(sink), Some(progress)) = (&mut sink, Progress::from_params(&update)) {
                        sink.offer(progress);
                    }
                }
                () = held(&mut sink) => {}
                () = tokio::time::sleep_until(until) => {
                    guard.reason = "timed out";
                    return Err(McpError::Timeout { method: method.to_owned(), timeout: until - started });
                }
            }
        }
    }

    fn next_id(&self) -> RequestId {
        RequestId::Number(self.inner.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// Sends one request with the stamped `_meta`; false if the transport is gone.
    async fn send_request(
        &self,
        id: &RequestId,
        method: &str,
        params: Option<Value>,
        headers: Vec<(String, String)>,
    ) -> bool {
        let params = self.with_meta(params);
        self.inner
            .outbound
            .send(Outbound {
                message: jsonrpc::request(id, method, params),
                headers,
                wire: self.wire(),
            })
            .await
            .is_ok()
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

    /// A modern result whose `resultType` this client does not accept is an invalid response.
    fn accept(&self, method: &str, result: Value) -> Result<Value> {
        match self
            .is_modern()
            .then(|| result_type::problem(method, &result))
            .flatten()
        {
            Some(message) => Err(McpError::InvalidResponse {
                method: method.to_owned(),
                message,
            }),
            None => Ok(result),
        }
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

/// Sends a progress update that waits for room in the caller's channel; pending forever if
/// there is none.
async fn held(sink: &mut Option<crate::updates::LatestSink<Progress>>) {
    match sink {
        Some(sink) => sink.send_held().await,
        None => std::future::pending().await,
    }
}

/// See [`Peer::is_modern`].
fn is_modern(inner: &Inner) -> bool {
    lock(&inner.era).wire.is_modern()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes an abandoned request and tells the server to stop working on it.
struct PendingGuard {
    inner: Arc<Inner>,
    id: RequestId,
    progress_token: Option<String>,
    cancellable: bool,
    reason: &'static str,
    armed: bool,
}

impl PendingGuard {
    /// Forgets the request's bookkeeping (pending entry and progress token).
    fn forget(&self) {
        lock(&self.inner.pending).remove(&self.id);
        if let Some(token) = &self.progress_token {
            lock(&self.inner.progress).remove(token);
        }
    }

    /// The request is over: forget it without cancelling it.
    fn disarm(&mut self) {
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

#[cfg(test)]
mod tests {
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
