//! The Streamable HTTP transport (2025-11-25 basic/transports, "Streamable HTTP").
//!
//! Every outgoing message is its own POST; the answer is 202, a JSON body or an SSE stream.
//! After the handshake every request carries `MCP-Protocol-Version` and, when the server gave
//! one, `MCP-Session-Id`. A 404 on a session re-runs the handshake once and retries; however
//! many requests meet that 404 together, one of them re-initializes while the others, and any
//! request sent meanwhile, wait for the new session and go out with it. A response
//! stream that ends before the answer is resumed with GET and `Last-Event-ID` after the
//! server's `retry:` delay (SEP-1699 polling). A standalone GET stream carries server-initiated
//! messages; 405 means the server has none. A 404 on a GET starts a new session as well
//! ([`session_expiry`]). Closing sends DELETE for the session.
//!
//! In the 2026-07-28 era a request is cancelled by closing its response stream (2026-07-28
//! basic/patterns/cancellation, "Transport-Specific Cancellation"): the peer's
//! `notifications/cancelled` for a modern request still in flight aborts that request's POST
//! instead of being sent.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinSet};

use super::http_config::{
    HttpConfig, dpop_nonce, no_authorizer_failure, unauthorized_message, with_authorization,
    www_authenticate,
};
use super::owned_task::OwnedTask;
use super::sse::{SseItem, SseReader, StreamEnd, is_event_stream};
use super::{BoxFuture, Inbound, Link, Outbound, Transport, TransportFailure, Wire};
use crate::auth::AccessToken;
use crate::auth::challenge::BearerChallenge;
use crate::error::Result;
use crate::http_body::bounded_body;
use crate::jsonrpc::{self, RequestId};

mod session_expiry;

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";
const LAST_EVENT_HEADER: &str = "last-event-id";

struct Shared {
    client: reqwest::Client,
    config: HttpConfig,
    session_id: Mutex<Option<String>>,
    protocol_version: Mutex<Option<String>>,
    /// The last `initialize` request, replayed when the server forgets the session.
    initialize: Mutex<Option<Value>>,
    inbound: mpsc::Sender<Inbound>,
    reinit_counter: AtomicU64,
    /// Held while the session is re-initialized: requests wait on it before they read the
    /// session id, so none goes out without one, and only one re-initialization runs.
    reinit: tokio::sync::Mutex<()>,
    /// The standalone GET stream's task; once the transport is dropped or closed, none starts.
    listener: Mutex<Listener>,
    /// True once the handshake's aftermath is settled: the GET stream is open, refused or failed.
    ready: tokio::sync::watch::Sender<bool>,
}

/// Marks the transport ready when dropped, unless disarmed (the GET stream will mark it).
struct MarkReady<'a> {
    shared: &'a Shared,
    armed: bool,
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
struct Listener {
    task: Option<OwnedTask>,
    /// The transport is closing or dropped: no new GET stream may start.
    stopped: bool,
    /// New sessions the GET stream started in a row ([`session_expiry`]).
    renewals: u32,
}

fn get<T: Clone>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

fn put<T>(slot: &Mutex<Option<T>>, value: Option<T>) {
    *slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = value;
}

/// A Streamable HTTP connection.
pub struct StreamableHttpTransport {
    shared: Arc<Shared>,
    /// The writer owns every POST task; dropping it (with the transport) stops them all.
    writer: Option<OwnedTask>,
}

impl Drop for StreamableHttpTransport {
    fn drop(&mut self) {
        // Without this the peer's route task and the writer keep each other alive (each holds
        // the other's channel), and the GET stream reconnects for as long as the process runs.
        stop_listener(&self.shared);
    }
}

impl std::fmt::Debug for StreamableHttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamableHttpTransport")
            .field("url", &self.shared.config.url.as_str())
            .finish()
    }
}

impl StreamableHttpTransport {
    /// Prepares the connection; nothing is sent until the peer sends `initialize`.
    pub fn start(config: HttpConfig) -> Result<(Self, Link)> {
        let client = config.client()?;
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(64);
        let (in_tx, in_rx) = mpsc::channel::<Inbound>(256);
        let shared = Arc::new(Shared {
            client,
            config,
            session_id: Mutex::new(None),
            protocol_version: Mutex::new(None),
            initialize: Mutex::new(None),
            inbound: in_tx,
            reinit_counter: AtomicU64::new(0),
            reinit: tokio::sync::Mutex::new(()),
            listener: Mutex::new(Listener::default()),
            ready: tokio::sync::watch::channel(false).0,
        });
        let writer = OwnedTask::spawn(write_loop(shared.clone(), out_rx));
        Ok((
            Self {
                shared,
                writer: Some(writer),
            },
            Link {
                outbound: out_tx,
                inbound: in_rx,
            },
        ))
    }

    /// The session id the server assigned, if any.
    pub fn session_id(&self) -> Option<String> {
        get(&self.shared.session_id)
    }

    async fn shutdown(&mut self) -> Result<()> {
        if let Some(writer) = self.writer.take() {
            writer.stop().await;
        }
        stop_listener(&self.shared);
        if let Some(session) = get(&self.shared.session_id) {
            // 2025-11-25 "Session Management" 5: end the session; 405 means the server keeps it.
            let request = self
                .shared
                .client
                .delete(self.shared.config.url.clone())
                .header(SESSION_HEADER, session);
            let request = with_version(&self.shared, request);
            let token = access_token(&self.shared).await;
            let request =
                with_authorization(request, &self.shared.config, token.as_ref(), "DELETE");
            match tokio::time::timeout(self.shared.config.connect_timeout, request.send()).await {
                Ok(Ok(response)) => {
                    tracing::debug!("session DELETE answered {}", response.status())
                }
                Ok(Err(e)) => tracing::debug!("session DELETE failed: {e}"),
                Err(_) => tracing::debug!("session DELETE timed out"),
            }
        }
        let _ = self
            .shared
            .inbound
            .send(Inbound::Closed {
                reason: "the client closed the connection".into(),
            })
            .await;
        Ok(())
    }
}

impl Transport for StreamableHttpTransport {
    fn kind(&self) -> &'static str {
        "streamable-http"
    }

    fn diagnostics(&self) -> Vec<String> {
        Vec::new()
    }

    fn close(&mut self) -> BoxFuture<'_, Result<()>> {
        Box::pin(self.shutdown())
    }

    fn ready(&self) -> BoxFuture<'_, ()> {
        let mut ready = self.shared.ready.subscribe();
        Box::pin(async move {
            let _ = ready.wait_for(|r| *r).await;
        })
    }
}

async fn write_loop(shared: Arc<Shared>, mut outbound: mpsc::Receiver<Outbound>) {
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
fn cancelled_request(message: &Value) -> Option<RequestId> {
    if message.get("method").and_then(Value::as_str) != Some("notifications/cancelled")
        || message.get("id").is_some()
    {
        return None;
    }
    serde_json::from_value(message.pointer("/params/requestId")?.clone()).ok()
}

/// What kind of message a POST carries.
struct Outgoing {
    method: Option<String>,
    id: Option<RequestId>,
    /// A 2026-07-28 message: its response stream cannot be resumed.
    modern: bool,
}

impl Outgoing {
    fn of(outbound: &Outbound) -> Self {
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

    fn is(&self, method: &str) -> bool {
        self.method.as_deref() == Some(method)
    }
}

async fn post(shared: Arc<Shared>, outbound: Outbound, outgoing: Outgoing) {
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
                let message = super::http_config::unreachable(&shared.config.url, &e);
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
            if let Err(e) = reinitialize_once(&shared, session.as_deref()).await {
                let message = format!("the session expired and re-initializing failed: {e}");
                let failure = TransportFailure::Status {
                    status: 404,
                    message,
                };
                return fail(&shared, &outgoing, failure).await;
            }
            continue;
        }
        if let Some(challenge) = AuthChallenge::of(&response) {
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

/// A 401, or a 403 whose Bearer challenge is `insufficient_scope`: what an authorizer answers.
struct AuthChallenge {
    status: u16,
    www_authenticate: Vec<String>,
    dpop_nonce: Option<String>,
}

impl AuthChallenge {
    fn of(response: &reqwest::Response) -> Option<Self> {
        let status = response.status();
        let www_authenticate = www_authenticate(response);
        let step_up = status == StatusCode::FORBIDDEN
            && BearerChallenge::from_headers(www_authenticate.iter().map(String::as_str))
                .is_some_and(|c| c.is_insufficient_scope());
        (status == StatusCode::UNAUTHORIZED || step_up).then(|| Self {
            status: status.as_u16(),
            www_authenticate,
            dpop_nonce: dpop_nonce(response),
        })
    }
}

/// The access token for the next request, if the server is authorized.
async fn access_token(shared: &Shared) -> Option<AccessToken> {
    match &shared.config.authorizer {
        Some(authorizer) => authorizer.access_token().await,
        None => None,
    }
}

/// Answers an authorization challenge: `Ok` to send the request again with new tokens,
/// `Err(Some)` to fail it with a 401/403 that says what to do, `Err(None)` to report the
/// response as any other HTTP error (a 403 with no authorizer to step up).
async fn authorize(
    shared: &Shared,
    challenge: &AuthChallenge,
    sent: Option<&AccessToken>,
    authorizations: &mut u32,
) -> std::result::Result<(), Option<TransportFailure>> {
    let url = &shared.config.url;
    let Some(authorizer) = &shared.config.authorizer else {
        if challenge.status != 401 {
            return Err(None);
        }
        return Err(Some(no_authorizer_failure(url)));
    };
    if *authorizations >= authorizer.max_attempts() {
        let message = format!(
            "HTTP {} from {url}: still refused after {} authorization attempts; the \
             authorization server does not grant what the server asks for",
            challenge.status, authorizations
        );
        return Err(Some(TransportFailure::Status {
            status: challenge.status,
            message,
        }));
    }
    *authorizations += 1;
    match authorizer
        .challenged(
            challenge.status,
            &challenge.www_authenticate,
            challenge.dpop_nonce.as_deref(),
            sent.map(|t| &t.token),
        )
        .await
    {
        Ok(()) => Ok(()),
        Err(e) => {
            tracing::info!("authorizing for {url} failed: {e}");
            Err(Some(TransportFailure::Status {
                status: 401,
                message: unauthorized_message(url, &e.to_string()),
            }))
        }
    }
}

fn with_version(shared: &Shared, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    match get(&shared.protocol_version) {
        Some(version) => request.header(VERSION_HEADER, version),
        None => request,
    }
}

async fn send_post(
    shared: &Shared,
    message: &Value,
    extra: &[(String, String)],
    wire: &Wire,
    session: Option<&str>,
    token: Option<&AccessToken>,
) -> reqwest::Result<reqwest::Response> {
    let mut request = shared
        .client
        .post(shared.config.url.clone())
        .header(ACCEPT, "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json");
    request = with_authorization(request, &shared.config, token, "POST");
    for (name, value) in standard_headers(message) {
        request = request.header(name, value);
    }
    for (name, value) in extra {
        request = request.header(name.as_str(), value.as_str());
    }
    if let Wire::Modern { version } = wire {
        // 2026-07-28: the header mirrors the version in the body's `_meta`; no sessions.
        request = request.header(VERSION_HEADER, version.as_str());
    } else if message.get("method").and_then(Value::as_str) != Some("initialize") {
        request = with_version(shared, request);
        if let Some(session) = session {
            request = request.header(SESSION_HEADER, session);
        }
    }
    request.body(message.to_string()).send().await
}

/// `Mcp-Method` on every message with a method, and `Mcp-Name` for the three methods that name
/// their target (2026-07-28 transports, "Standard Request Headers"). Older servers ignore them.
fn standard_headers(message: &Value) -> Vec<(&'static str, String)> {
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return Vec::new();
    };
    let mut headers = vec![("mcp-method", method.to_owned())];
    let name = match method {
        "tools/call" | "prompts/get" => message.pointer("/params/name"),
        "resources/read" => message.pointer("/params/uri"),
        // The tasks extension routes by task ("Streamable HTTP: Routing Headers").
        "tasks/get" | "tasks/update" | "tasks/cancel" => message.pointer("/params/taskId"),
        _ => None,
    };
    if let Some(name) = name.and_then(Value::as_str) {
        headers.push(("mcp-name", super::header_value::encode(name)));
    }
    headers
}

/// A JSON-RPC error carried in an error response's body, as the server sent it.
fn rpc_error_body(body: &[u8]) -> Option<crate::error::RpcError> {
    let value: Value = serde_json::from_slice(body).ok()?;
    serde_json::from_value(value.get("error")?.clone()).ok()
}

/// Delivers the answer to a request: one JSON body, or an SSE stream resumed until it holds
/// the response.
async fn receive(shared: &Arc<Shared>, response: reqwest::Response, outgoing: &Outgoing) {
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
                            text: super::unparsable_text(&body),
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
                return session_expiry::answer_lost(shared, outgoing, &stale).await;
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

/// Reads one SSE stream, delivering its messages; true once the request's answer arrived.
async fn read_stream(
    shared: &Arc<Shared>,
    response: reqwest::Response,
    outgoing: &Outgoing,
    end: &mut StreamEnd,
) -> bool {
    let mut answered = false;
    let mut reader = SseReader::new(response, shared.config.max_message_bytes, end);
    while let Some(item) = reader.next().await {
        if let SseItem::Message(message) = item {
            answered |= answers(&message, outgoing.id.as_ref());
            deliver(shared, message, outgoing).await;
            if answered {
                // A resumed GET stream may stay open after the answer; nothing more is ours.
                break;
            }
        }
    }
    answered
}

fn answers(message: &Value, id: Option<&RequestId>) -> bool {
    let is_response = message.get("result").is_some() || message.get("error").is_some();
    is_response && id.is_some_and(|id| message.get("id") == Some(&json!(id)))
}

/// Opens a GET that resumes a stream after `last_event_id`; a failure with the status it came
/// with, if any.
async fn resume(
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

async fn get_stream(
    shared: &Shared,
    last_event_id: Option<&str>,
) -> reqwest::Result<reqwest::Response> {
    let mut request = with_version(
        shared,
        shared
            .client
            .get(shared.config.url.clone())
            .header(ACCEPT, "text/event-stream"),
    );
    if let Some(session) = get(&shared.session_id) {
        request = request.header(SESSION_HEADER, session);
    }
    if let Some(last) = last_event_id {
        request = request.header(LAST_EVENT_HEADER, last);
    }
    let token = access_token(shared).await;
    with_authorization(request, &shared.config, token.as_ref(), "GET")
        .send()
        .await
}

fn lock_listener(shared: &Shared) -> std::sync::MutexGuard<'_, Listener> {
    shared
        .listener
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Stops the standalone GET stream for good (the transport is closing or dropped).
fn stop_listener(shared: &Shared) {
    let mut listener = lock_listener(shared);
    listener.stopped = true;
    listener.task = None;
}

/// (Re)starts the standalone GET stream, unless the transport is going away.
fn start_listener(shared: &Arc<Shared>) {
    let mut listener = lock_listener(shared);
    if !listener.stopped {
        // Replacing the previous task aborts it.
        listener.task = Some(OwnedTask::spawn(listen(shared.clone())));
    }
}

/// The standalone GET stream for server-initiated messages, reopened while the server offers it.
async fn listen(shared: Arc<Shared>) {
    let _ready = MarkReady {
        shared: &shared,
        armed: true,
    };
    let mut end = StreamEnd::default();
    let mut failures = 0u32;
    loop {
        let session = get(&shared.session_id);
        let response = get_stream(&shared, end.last_event_id.as_deref()).await;
        shared.ready.send_replace(true);
        let response = match response {
            Ok(response) => response,
            Err(e) => {
                tracing::debug!("GET stream failed: {e}");
                failures += 1;
                if failures > shared.config.max_reconnects {
                    return;
                }
                tokio::time::sleep(shared.config.default_retry * failures).await;
                continue;
            }
        };
        if response.status() == StatusCode::METHOD_NOT_ALLOWED {
            tracing::debug!("the server offers no GET stream (405)");
            return;
        }
        if let (StatusCode::NOT_FOUND, Some(stale)) = (response.status(), &session) {
            return session_expiry::renew_for_listener(&shared, stale).await;
        }
        if !response.status().is_success() || !is_event_stream(&response) {
            tracing::debug!("GET stream refused: HTTP {}", response.status());
            return;
        }
        failures = 0;
        session_expiry::stream_opened(&shared);
        let none = Outgoing {
            method: None,
            id: None,
            modern: false,
        };
        read_stream(&shared, response, &none, &mut end).await;
        if shared.inbound.is_closed() {
            return;
        }
        tokio::time::sleep(end.retry.unwrap_or(shared.config.default_retry)).await;
    }
}

/// Replaces the expired session `stale`, unless another request already has: single-flight,
/// so that N requests meeting the 404 together make one new session, not N.
async fn reinitialize_once(
    shared: &Arc<Shared>,
    stale: Option<&str>,
) -> std::result::Result<(), String> {
    let _only_one = shared.reinit.lock().await;
    if get(&shared.session_id).as_deref() != stale {
        return Ok(());
    }
    reinitialize(shared).await
}

/// Re-runs the stored handshake to get a new session; its messages are not delivered. The
/// caller holds `shared.reinit`.
async fn reinitialize(shared: &Arc<Shared>) -> std::result::Result<(), String> {
    let mut init = get(&shared.initialize).ok_or("no handshake to repeat")?;
    let n = shared.reinit_counter.fetch_add(1, Ordering::Relaxed);
    let id = json!(format!("gatehouse-reinitialize-{n}"));
    init["id"] = id.clone();
    put(&shared.session_id, None);
    let token = access_token(shared).await;
    let response = send_post(shared, &init, &[], &Wire::Legacy, None, token.as_ref())
        .await
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("HTTP {}", response.status()));
    }
    let session = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let outgoing = Outgoing {
        method: Some("initialize".into()),
        id: serde_json::from_value(id).ok(),
        modern: false,
    };
    if is_event_stream(&response) {
        let mut end = StreamEnd::default();
        let mut reader = SseReader::new(response, shared.config.max_message_bytes, &mut end);
        while let Some(item) = reader.next().await {
            if matches!(item, SseItem::Message(m) if answers(&m, outgoing.id.as_ref())) {
                break;
            }
        }
    } else {
        bounded_body(response, shared.config.max_message_bytes).await?;
    }
    put(&shared.session_id, session.clone());
    let initialized = jsonrpc::notification("notifications/initialized", None);
    let response = send_post(
        shared,
        &initialized,
        &[],
        &Wire::Legacy,
        session.as_deref(),
        token.as_ref(),
    )
    .await
    .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!(
            "notifications/initialized: HTTP {}",
            response.status()
        ));
    }
    start_listener(shared);
    Ok(())
}

/// Hands a message to the peer, noting the negotiated version from the handshake's answer.
async fn deliver(shared: &Shared, message: Value, outgoing: &Outgoing) {
    if outgoing.is("initialize") && answers(&message, outgoing.id.as_ref()) {
        let version = message
            .pointer("/result/protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if version.is_some() {
            put(&shared.protocol_version, version);
        }
    }
    let _ = shared.inbound.send(Inbound::Message(message)).await;
}

/// Fails a request whose response broke off before the answer. A modern request is marked so
/// the peer may send it again with a new id; an older one fails like any transport error.
async fn broke(shared: &Shared, outgoing: &Outgoing, message: String) {
    let failure = if outgoing.modern {
        TransportFailure::StreamBroken { message }
    } else {
        TransportFailure::Unreachable { message }
    };
    fail(shared, outgoing, failure).await;
}

/// Fails a request out of band with the transport's reason; other messages are only logged,
/// since nobody waits for them.
async fn fail(shared: &Shared, outgoing: &Outgoing, failure: TransportFailure) {
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

#[cfg(test)]
mod tests {
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
