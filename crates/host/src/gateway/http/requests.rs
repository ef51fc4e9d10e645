//! The endpoint's requests (2025-11-25 basic/transports, "Streamable HTTP"): POST a JSON-RPC
//! message (a request answered with `application/json`, or a resumable `text/event-stream` when
//! the client accepts it and the request may be sent progress or server requests first; a
//! notification or response answered 202), GET the session's stream or resume one
//! (`Last-Event-ID`), DELETE the session. Every request first passes
//! [`Endpoint::admit`]: loopback `Host` and `Origin` (else 403), a client's token (else 401).

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::answers::{Accepts, fail, json_response, rpc_fail, sse_response};
use super::auth::{self, Tokens};
use super::sessions::{CALLS, MAX_PER_CLIENT, Refused, Session, Sessions, Waiter};
use super::stateless;
use super::streams::{self, Event};
use crate::gateway::handshake::SUPPORTED_VERSIONS;

/// The session header (2025-11-25 basic/transports, "Session Management").
const SESSION_ID: &str = "mcp-session-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const LAST_EVENT_ID: &str = "last-event-id";
/// The revision from which a POST stream opens with a priming event (SEP-1699): older clients
/// may not take an event with empty data.
const PRIMING_FROM: &str = "2025-11-25";

/// The path prefix that carries a client's token, for clients that cannot send headers.
const TOKEN_PATH: &str = "/mcp/c/";

/// What the endpoint's requests share.
#[derive(Debug)]
pub struct Endpoint {
    pub port: u16,
    pub tokens: Tokens,
    pub sessions: Arc<Sessions>,
}

impl Endpoint {
    /// The client a request comes from, or the refusal.
    async fn admit(&self, headers: &HeaderMap, uri: &Uri) -> Result<String, Box<Response>> {
        if !auth::loopback_request(headers, self.port) {
            return Err(Box::new(fail(
                StatusCode::FORBIDDEN,
                "the gateway answers only requests to a loopback host from a loopback origin",
            )));
        }
        let in_path = uri
            .path()
            .strip_prefix(TOKEN_PATH)
            .filter(|t| !t.is_empty());
        let presented = in_path.or_else(|| auth::bearer(headers));
        let client = match presented {
            Some(token) => self.tokens.client_of(token).await,
            None => None,
        };
        client.ok_or_else(|| {
            let mut refused = fail(
                StatusCode::UNAUTHORIZED,
                "a gateway client's token is required (`gatehouse clients token create NAME`)",
            );
            refused
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            Box::new(refused)
        })
    }

    /// The session a request names, which must be the client's.
    fn session(&self, headers: &HeaderMap, client: &str) -> Result<Arc<Session>, Box<Response>> {
        let Some(id) = headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) else {
            return Err(Box::new(fail(
                StatusCode::BAD_REQUEST,
                "the Mcp-Session-Id header is required (initialize first)",
            )));
        };
        self.sessions
            .get(id)
            .filter(|s| s.client == client)
            .ok_or_else(|| {
                Box::new(fail(
                    StatusCode::NOT_FOUND,
                    "no such session (it ended or expired): initialize a new one",
                ))
            })
    }
}

pub async fn post(
    State(endpoint): State<Arc<Endpoint>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let client = match endpoint.admit(&headers, &uri).await {
        Ok(client) => client,
        Err(refused) => return *refused,
    };
    let json_body = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/json")
        });
    if !json_body {
        return fail(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "POST a JSON-RPC message as application/json",
        );
    }
    let accepts = Accepts::of(&headers);
    if !accepts.json && !accepts.sse {
        return fail(
            StatusCode::NOT_ACCEPTABLE,
            "accept application/json and text/event-stream",
        );
    }
    let message = match serde_json::from_slice::<Value>(&body) {
        Ok(message @ Value::Object(_)) => message,
        Ok(_) => {
            return fail(
                StatusCode::BAD_REQUEST,
                "POST one JSON-RPC message (batches are not accepted)",
            );
        }
        Err(_) => return rpc_fail(StatusCode::BAD_REQUEST, -32700, "not a JSON-RPC message"),
    };
    if headers.get(SESSION_ID).is_none() && stateless::wanted(&headers, &message) {
        let sessions = endpoint.sessions.clone();
        return stateless::serve(sessions, &client, &headers, message, &accepts).await;
    }
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").filter(|id| !id.is_null()).cloned();
    if method == Some("initialize")
        && let Some(id) = id
    {
        let session = match endpoint.sessions.create(&client) {
            Ok(session) => session,
            Err(Refused::ClientFull) => {
                let why = format!(
                    "client `{client}` already has {MAX_PER_CLIENT} sessions: end one (DELETE) or let it expire"
                );
                return fail(StatusCode::SERVICE_UNAVAILABLE, &why);
            }
            Err(Refused::Full) => {
                return fail(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the gateway has too many sessions",
                );
            }
        };
        let mut response = respond(session.clone(), message, id, &accepts, false).await;
        if let Ok(value) = HeaderValue::from_str(&session.id) {
            response.headers_mut().insert(SESSION_ID, value);
        }
        return response;
    }
    let session = match endpoint.session(&headers, &client) {
        Ok(session) => session,
        Err(refused) => return *refused,
    };
    if let Some(version) = headers.get(PROTOCOL_VERSION)
        && !version
            .to_str()
            .is_ok_and(|v| SUPPORTED_VERSIONS.contains(&v))
    {
        return fail(StatusCode::BAD_REQUEST, "unsupported MCP-Protocol-Version");
    }
    // Without the header a client is taken to speak 2025-03-26 (basic/transports).
    let prime = headers
        .get(PROTOCOL_VERSION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v >= PRIMING_FROM);
    match (method, id) {
        (Some(_), Some(id)) => respond(session, message, id, &accepts, prime).await,
        (method, _) => {
            if method == Some("notifications/cancelled")
                && let Some(request) = message.pointer("/params/requestId")
            {
                session.cancelled(request);
            }
            if !session.send(&message).await {
                return fail(StatusCode::NOT_FOUND, "the session ended");
            }
            StatusCode::ACCEPTED.into_response()
        }
    }
}

/// Passes a request to the session and answers the POST with its response: as JSON, or as an
/// SSE stream ([`super::streams`]: a priming event with an id and a `retry` hint for a client
/// of 2025-11-25, then progress and the server requests the call causes, the response last;
/// resumable with GET and `Last-Event-ID` when the connection is lost). SSE when the client
/// accepts it and the request may take a while (a call, a read, a prompt), carries a progress
/// token, or the client accepts nothing else.
async fn respond(
    session: Arc<Session>,
    message: Value,
    id: Value,
    accepts: &Accepts,
    prime: bool,
) -> Response {
    if session.is_waiting(&id) {
        return rpc_fail(
            StatusCode::BAD_REQUEST,
            -32600,
            "a request with this id is already running in this session",
        );
    }
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let progress = message.pointer("/params/_meta/progressToken").cloned();
    let sse = accepts.sse && (progress.is_some() || !accepts.json || CALLS.contains(&method));
    let mut guard = session.wait_for(&id, method, progress.as_ref(), sse);
    if !session.send(&message).await {
        return fail(StatusCode::NOT_FOUND, "the session ended");
    }
    let Some(waiter) = guard.waiter.take() else {
        return fail(StatusCode::INTERNAL_SERVER_ERROR, "the request was lost");
    };
    let (priming, events) = match waiter {
        Waiter::Json(response) => {
            return match response.await {
                Ok(reply) => json_response(&reply),
                Err(_) => json_response(&json!({
                    "jsonrpc": "2.0", "id": id,
                    "error": { "code": -32800, "message": "the request was cancelled or its session ended" },
                })),
            };
        }
        Waiter::Stream { priming, events } => (priming, events),
    };
    // From here the response is awaited whether or not this connection stays.
    guard.disarm();
    drop(guard);
    let first = prime.then(|| Ok::<_, std::convert::Infallible>(streams::priming(&priming)));
    sse_response(Body::from_stream(futures_util::StreamExt::chain(
        futures_util::stream::iter(first),
        follow(Vec::new(), Some(events)),
    )))
}

/// The SSE events of a stream: `replay`, then what `live` brings, until the event that ends it.
fn follow(
    replay: Vec<Event>,
    live: Option<mpsc::Receiver<Event>>,
) -> impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> {
    let replayed = futures_util::stream::iter(replay);
    let live = futures_util::stream::unfold(live, |live| async move {
        let mut live = live?;
        let event = live.recv().await?;
        Some((event, Some(live)))
    });
    let events = Box::pin(futures_util::StreamExt::chain(replayed, live));
    let until_last =
        futures_util::stream::unfold((events, false), |(mut events, ended)| async move {
            if ended {
                return None;
            }
            let event: Event = futures_util::StreamExt::next(&mut events).await?;
            let ended = event.last;
            Some((event, (events, ended)))
        });
    futures_util::StreamExt::map(until_last, |event| {
        Ok::<_, std::convert::Infallible>(streams::frame(&event.id, &event.json))
    })
}

pub async fn get(State(endpoint): State<Arc<Endpoint>>, uri: Uri, headers: HeaderMap) -> Response {
    let client = match endpoint.admit(&headers, &uri).await {
        Ok(client) => client,
        Err(refused) => return *refused,
    };
    if !Accepts::of(&headers).sse {
        return fail(StatusCode::NOT_ACCEPTABLE, "accept text/event-stream");
    }
    let session = match endpoint.session(&headers, &client) {
        Ok(session) => session,
        Err(refused) => return *refused,
    };
    let last = match headers.get(LAST_EVENT_ID).map(|v| v.to_str()) {
        None => None,
        Some(Ok(last)) => Some(last),
        Some(Err(_)) => return fail(StatusCode::BAD_REQUEST, "Last-Event-ID is not an event id"),
    };
    session.touch();
    let opened = session
        .streams
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .open(last);
    match opened {
        Ok((replay, live)) => sse_response(Body::from_stream(follow(replay, live))),
        Err(streams::Refused::Foreign) => fail(
            StatusCode::BAD_REQUEST,
            "Last-Event-ID names no stream of this session",
        ),
    }
}

pub async fn delete(
    State(endpoint): State<Arc<Endpoint>>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let client = match endpoint.admit(&headers, &uri).await {
        Ok(client) => client,
        Err(refused) => return *refused,
    };
    let session = match endpoint.session(&headers, &client) {
        Ok(session) => session,
        Err(refused) => return *refused,
    };
    endpoint.sessions.end(&session.id).await;
    StatusCode::OK.into_response()
}
