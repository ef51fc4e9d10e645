//! What every part of the Streamable HTTP transport shares: the connection's state
//! ([`Shared`]: client, configuration, session, negotiated version, the standalone GET stream's
//! slot), what kind of message a POST carries ([`Outgoing`]), and handing messages and failures
//! to the peer.

use std::sync::Mutex;
use std::sync::atomic::AtomicU64;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::jsonrpc::RequestId;
use crate::transport::http_config::HttpConfig;
use crate::transport::owned_task::OwnedTask;
use crate::transport::{Inbound, Outbound, TransportFailure};

pub(super) const SESSION_HEADER: &str = "mcp-session-id";

pub(super) const VERSION_HEADER: &str = "mcp-protocol-version";

pub(super) const LAST_EVENT_HEADER: &str = "last-event-id";

pub(super) struct Shared {
    pub(super) client: reqwest::Client,
    pub(super) config: HttpConfig,
    pub(super) session_id: Mutex<Option<String>>,
    pub(super) protocol_version: Mutex<Option<String>>,
    /// The last `initialize` request, replayed when the server forgets the session.
    pub(super) initialize: Mutex<Option<Value>>,
    pub(super) inbound: mpsc::Sender<Inbound>,
    pub(super) reinit_counter: AtomicU64,
    /// Held while the session is re-initialized: requests wait on it before they read the
    /// session id, so none goes out without one, and only one re-initialization runs.
    pub(super) reinit: tokio::sync::Mutex<()>,
    /// The standalone GET stream's task; once the transport is dropped or closed, none starts.
    pub(super) listener: Mutex<Listener>,
    /// True once the handshake's aftermath is settled: the GET stream is open, refused or failed.
    pub(super) ready: tokio::sync::watch::Sender<bool>,
}

/// Marks the transport ready when dropped, unless disarmed (the GET stream will mark it).
pub(super) struct MarkReady<'a> {
    pub(super) shared: &'a Shared,
    pub(super) armed: bool,
}

impl Drop for MarkReady<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.shared.ready.send_replace(true);
        }
    }
}

/// The standalone GET stream's slot.
#[derive(Default)]
pub(super) struct Listener {
    pub(super) task: Option<OwnedTask>,
    /// The transport is closing or dropped: no new GET stream may start.
    pub(super) stopped: bool,
    /// New sessions the GET stream started in a row ([`session_expiry`]).
    pub(super) renewals: u32,
}

pub(super) fn get<T: Clone>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

pub(super) fn put<T>(slot: &Mutex<Option<T>>, value: Option<T>) {
    *slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = value;
}

pub(super) fn lock_listener(shared: &Shared) -> std::sync::MutexGuard<'_, Listener> {
    shared
        .listener
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What kind of message a POST carries.
pub(super) struct Outgoing {
    pub(super) method: Option<String>,
    pub(super) id: Option<RequestId>,
    /// A 2026-07-28 message: its response stream cannot be resumed.
    pub(super) modern: bool,
}

impl Outgoing {
    pub(super) fn of(outbound: &Outbound) -> Self {
        let message = &outbound.message;
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let id = match (&method, message.get("id")) {
            (Some(_), Some(id)) => serde_json::from_value(id.clone()).ok(),
            _ => None,
        };
        let modern = outbound.wire.is_modern();
        Self { method, id, modern }
    }

    pub(super) fn is(&self, method: &str) -> bool {
        self.method.as_deref() == Some(method)
    }
}

pub(super) fn with_version(
    shared: &Shared,
    request: reqwest::RequestBuilder,
) -> reqwest::RequestBuilder {
    match get(&shared.protocol_version) {
        Some(version) => request.header(VERSION_HEADER, version),
        None => request,
    }
}

pub(super) fn answers(message: &Value, id: Option<&RequestId>) -> bool {
    let is_response = message.get("result").is_some() || message.get("error").is_some();
    is_response && id.is_some_and(|id| message.get("id") == Some(&json!(id)))
}

/// Hands a message to the peer, noting the negotiated version from the handshake's answer; a
/// server's request that came on a request's response stream is handed on as related to it.
pub(super) async fn deliver(shared: &Shared, message: Value, outgoing: &Outgoing) {
    if outgoing.is("initialize") && answers(&message, outgoing.id.as_ref()) {
        let version = message
            .pointer("/result/protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if version.is_some() {
            put(&shared.protocol_version, version);
        }
    }
    // A server's request on a request's own stream serves that request.
    let inbound = match &outgoing.id {
        Some(id) if message.get("method").is_some() && message.get("id").is_some() => {
            Inbound::Related {
                message,
                request: id.clone(),
            }
        }
        _ => Inbound::Message(message),
    };
    let _ = shared.inbound.send(inbound).await;
}

/// Fails a request whose response broke off before the answer. A modern request is marked so
/// the peer may send it again with a new id; an older one fails like any transport error.
pub(super) async fn broke(shared: &Shared, outgoing: &Outgoing, message: String) {
    let failure = if outgoing.modern {
        TransportFailure::StreamBroken { message }
    } else {
        TransportFailure::Unreachable { message }
    };
    fail(shared, outgoing, failure).await;
}

/// Fails a request out of band with the transport's reason; other messages are only logged,
/// since nobody waits for them.
pub(super) async fn fail(shared: &Shared, outgoing: &Outgoing, failure: TransportFailure) {
    let Some(id) = &outgoing.id else {
        tracing::warn!(
            "sending {} failed: {failure}",
            outgoing.method.as_deref().unwrap_or("a message")
        );
        return;
    };
    let failed = Inbound::Failed {
        id: id.clone(),
        failure,
    };
    let _ = shared.inbound.send(failed).await;
}
