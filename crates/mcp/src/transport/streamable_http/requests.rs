//! The HTTP requests the transport sends: a message's POST (with the standard and mirrored
//! headers, the session and the version), a GET for an SSE stream, and reading a response
//! stream until it holds a request's answer.

use std::sync::Arc;

use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::Value;

use super::challenge::access_token;
use super::shared::{
    LAST_EVENT_HEADER, Outgoing, SESSION_HEADER, Shared, VERSION_HEADER, answers, deliver, get,
    with_version,
};
use crate::http_auth::AccessToken;
use crate::transport::Wire;
use crate::transport::http_config::with_authorization;
use crate::transport::sse::{SseItem, SseReader, StreamEnd};

pub(super) async fn send_post(
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
pub(super) fn standard_headers(message: &Value) -> Vec<(&'static str, String)> {
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
        headers.push(("mcp-name", crate::transport::header_value::encode(name)));
    }
    headers
}

pub(super) async fn get_stream(
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

/// Reads one SSE stream, delivering its messages; true once the request's answer arrived.
pub(super) async fn read_stream(
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
