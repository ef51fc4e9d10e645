//! The endpoint's 2026-07-28 requests (basic/transports/streamable-http): a POST with no
//! `Mcp-Session-Id` whose body is a modern request. No session is made or named; the token,
//! `Host` and `Origin` were checked as for every request. First the request metadata headers
//! are checked against the body ([`check`], "Server Validation", SEP-2243): `MCP-Protocol-Version`
//! equal to `_meta`'s version, `Mcp-Method` to `method`, `Mcp-Name` to `params.name`,
//! `params.uri` or a task request's `params.taskId` (Base64 sentinel decoded, surrounding whitespace dropped), each `Mcp-Param-*`
//! a readable value carrying the argument the tool marks `x-mcp-header` ([`param_check`]); a
//! failure is 400 with `HeaderMismatch` (-32020), as are a missing `_meta`
//! (-32602) and a version not served (-32022). The request is then served by a gateway session
//! of its own ([`super::sessions::Sessions::create_stateless`]), ended with it: its response as
//! JSON (404 for a method not found, "Protocol Version Header"), or an SSE stream carrying its
//! progress first; `subscriptions/listen` is an SSE stream that stays open until the client
//! closes it, closing it cancels the request ("Cancellation").

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use gatehouse_mcp::era::META_PROTOCOL_VERSION;
use gatehouse_mcp::transport::header_value;
use serde_json::{Value, json};

use super::answers::{Accepts, fail, json_response, sse_response};
use super::param_check;
use super::sessions::{MAX_STATELESS_PER_CLIENT, Refused, Sessions, Waiter};
use super::streams::{Event, frame};
use crate::gateway::handshake::SUPPORTED_VERSIONS;
use crate::gateway::modern::{self, Refusal, code};

const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const METHOD: &str = "mcp-method";
const NAME: &str = "mcp-name";
const PARAM_PREFIX: &str = "mcp-param-";
/// The longest request metadata header value read.
const MAX_VALUE: usize = 8 * 1024;

/// Whether a POST without a session is a modern request: its body says so, or its
/// `MCP-Protocol-Version` names no 2025 revision.
pub fn wanted(headers: &HeaderMap, message: &Value) -> bool {
    modern::is_modern(message)
        || headers.get(PROTOCOL_VERSION).is_some_and(|v| {
            !v.to_str()
                .is_ok_and(|v| SUPPORTED_VERSIONS.contains(&v.trim()))
        })
}

fn mismatch(message: impl Into<String>) -> Refusal {
    Refusal {
        code: code::HEADER_MISMATCH,
        message: format!("Header mismatch: {}", message.into()),
        data: None,
    }
}

/// The one value of header `name`, decoded; `None` when absent.
fn header(headers: &HeaderMap, name: &str, encoded: bool) -> Result<Option<String>, Refusal> {
    let mut values = headers.get_all(name).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(mismatch(format!("{name} is given more than once")));
    }
    if value.len() > MAX_VALUE {
        return Err(mismatch(format!("{name} is over {MAX_VALUE} bytes")));
    }
    let text = if encoded {
        header_value::decode(value.as_bytes()).map_err(|e| mismatch(format!("{name}: {e}")))?
    } else {
        let text = value
            .to_str()
            .map_err(|_| mismatch(format!("{name} is not ASCII")))?;
        text.trim_matches([' ', '\t']).to_owned()
    };
    Ok(Some(text))
}

/// The request's metadata headers checked against its body, then its `_meta`.
pub fn check(headers: &HeaderMap, message: &Value) -> Result<(), Refusal> {
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return Err(Refusal {
            code: -32600,
            message: "not a JSON-RPC request: `method` is missing".to_owned(),
            data: None,
        });
    };
    let params = message.get("params").cloned().unwrap_or(json!({}));
    let Some(version) = header(headers, PROTOCOL_VERSION, false)? else {
        return Err(mismatch("Missing MCP-Protocol-Version header"));
    };
    let in_body = params
        .pointer(&format!(
            "/_meta/{}",
            META_PROTOCOL_VERSION.replace('/', "~1")
        ))
        .and_then(Value::as_str);
    if let Some(in_body) = in_body
        && in_body != version
    {
        return Err(mismatch(
            "MCP-Protocol-Version header does not match _meta's protocolVersion",
        ));
    }
    modern::request_meta(&params)?;
    match header(headers, METHOD, false)? {
        None => return Err(mismatch("Missing Mcp-Method header")),
        Some(named) if named != method => {
            return Err(mismatch(format!(
                "Mcp-Method header value '{}' does not match body value '{method}'",
                clip(&named)
            )));
        }
        Some(_) => {}
    }
    let named_in_body = match method {
        "tools/call" | "prompts/get" => params.get("name"),
        "resources/read" => params.get("uri"),
        // The tasks extension's requests name their task (SEP-2663, "Routing Headers").
        "tasks/get" | "tasks/update" | "tasks/cancel" => params.get("taskId"),
        _ => None,
    };
    match (header(headers, NAME, true)?, named_in_body) {
        (None, Some(_)) => return Err(mismatch("Missing Mcp-Name header")),
        (Some(named), Some(body)) if body.as_str() != Some(named.as_str()) => {
            return Err(mismatch(format!(
                "Mcp-Name header value '{}' does not match the body's",
                clip(&named)
            )));
        }
        _ => {}
    }
    for name in headers.keys() {
        if name.as_str().starts_with(PARAM_PREFIX) {
            header(headers, name.as_str(), true)?;
        }
    }
    Ok(())
}

fn clip(text: &str) -> String {
    text.chars().take(128).collect()
}

/// Ends the request's session however the POST ends (answered, or its client went away).
struct Ends {
    sessions: Arc<Sessions>,
    id: String,
}

impl Drop for Ends {
    fn drop(&mut self) {
        let (sessions, id) = (self.sessions.clone(), std::mem::take(&mut self.id));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { sessions.end(&id).await });
        }
    }
}

fn refused(status: StatusCode, id: &Value, refusal: &Refusal) -> Response {
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": refusal.error() });
    let mut response = json_response(&body);
    *response.status_mut() = status;
    response
}

/// The HTTP status of a modern response ("Protocol Version Header", "Server Validation").
fn status_of(response: &Value) -> StatusCode {
    match response.pointer("/error/code").and_then(Value::as_i64) {
        Some(code::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(
            code::HEADER_MISMATCH
            | code::MISSING_CLIENT_CAPABILITY
            | code::UNSUPPORTED_PROTOCOL_VERSION,
        ) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// The `Mcp-Param-*` headers of a call matched to the tool the client is shown by that name
/// ([`param_check`]); a tool it is not shown is left to the call to refuse.
async fn match_params(
    sessions: &Sessions,
    client: &str,
    headers: &HeaderMap,
    params: &Value,
) -> Result<(), Refusal> {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Ok(());
    };
    let host = sessions.host();
    let Ok(served) = host.client_profiles().served(client).await else {
        return Ok(());
    };
    let Ok(tools) = crate::gateway::tools::list(host, client, &served).await else {
        return Ok(());
    };
    match tools.iter().find(|tool| tool["name"] == name) {
        Some(tool) => param_check::check(headers, tool, params.get("arguments")),
        None => Ok(()),
    }
}

/// Serves one modern request of `client`.
pub async fn serve(
    sessions: Arc<Sessions>,
    client: &str,
    headers: &HeaderMap,
    message: Value,
    accepts: &Accepts,
) -> Response {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    if let Err(refusal) = check(headers, &message) {
        return refused(StatusCode::BAD_REQUEST, &id, &refusal);
    }
    if id.is_null() {
        // This revision defines no notification a client sends over HTTP.
        return StatusCode::ACCEPTED.into_response();
    }
    if message["method"] == "tools/call"
        && let Err(refusal) = match_params(&sessions, client, headers, &message["params"]).await
    {
        return refused(StatusCode::BAD_REQUEST, &id, &refusal);
    }
    let listen = message["method"] == "subscriptions/listen";
    if listen && !accepts.sse {
        return fail(StatusCode::NOT_ACCEPTABLE, "accept text/event-stream");
    }
    let session = match sessions.create_stateless(client) {
        Ok(session) => session,
        Err(Refused::ClientFull) => {
            let why = format!(
                "client `{client}` already has {MAX_STATELESS_PER_CLIENT} requests running"
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
    let ends = Ends {
        sessions: sessions.clone(),
        id: session.id.clone(),
    };
    let progress = message.pointer("/params/_meta/progressToken").cloned();
    let sse = listen || (accepts.sse && (progress.is_some() || !accepts.json));
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let mut guard = session.wait_for(&id, method, progress.as_ref(), sse);
    // What the session sends that answers no request: a listen stream's notifications (they
    // go on the session's GET stream, which only this request reads).
    let streamed = session
        .streams
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .open(None)
        .ok()
        .and_then(|(_, live)| live);
    if !session.send(&message).await {
        return fail(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request's session ended",
        );
    }
    let Some(waiter) = guard.waiter.take() else {
        return fail(StatusCode::INTERNAL_SERVER_ERROR, "the request was lost");
    };
    let events = match waiter {
        Waiter::Json(response) => {
            let response = match response.await {
                Ok(response) => response,
                Err(_) => json!({
                    "jsonrpc": "2.0", "id": id,
                    "error": { "code": -32603, "message": "the request ended without a response" },
                }),
            };
            drop(ends);
            let mut answered = json_response(&response);
            *answered.status_mut() = status_of(&response);
            return answered;
        }
        Waiter::Stream { events, .. } => events,
    };
    // The request's own stream (its progress, then its response, last) and the listen
    // stream's notifications, until the response. Dropped early (the client went away), the
    // guard cancels the request and the session ends with it.
    let events = futures_util::stream::unfold(
        (ends, guard, events, streamed, false),
        |(ends, guard, mut events, mut streamed, done)| async move {
            if done {
                return None;
            }
            let heard = async {
                match streamed.as_mut() {
                    Some(streamed) => streamed.recv().await,
                    None => std::future::pending().await,
                }
            };
            let event = tokio::select! {
                biased;
                event = events.recv() => event?,
                Some(event) = heard => Event { last: false, ..event },
            };
            let done = event.last;
            Some((
                Ok::<_, std::convert::Infallible>(frame(&event.id, &event.json)),
                (ends, guard, events, streamed, done),
            ))
        },
    );
    sse_response(Body::from_stream(events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn call(name: &str) -> Value {
        json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {
                "name": name, "arguments": {},
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {},
                },
            },
        })
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            let name =
                axum::http::HeaderName::from_bytes(name.as_bytes()).expect("as the test wrote it");
            headers.append(
                name,
                HeaderValue::from_bytes(value.as_bytes()).expect("as the test wrote it"),
            );
        }
        headers
    }

    const V: (&str, &str) = ("MCP-Protocol-Version", "2026-07-28");

    #[test]
    fn headers_that_match_the_body_pass_whatever_their_case_and_spacing() {
        let ok = [
            headers(&[V, ("Mcp-Method", "tools/call"), ("Mcp-Name", "echo")]),
            headers(&[V, ("mcp-method", "tools/call"), ("MCP-NAME", "  echo\t")]),
            headers(&[
                V,
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "=?base64?ZWNobw==?="),
            ]),
            headers(&[
                V,
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "echo"),
                ("Mcp-Param-Region", "=?base64?SGVsbG8=?="),
            ]),
        ];
        for headers in ok {
            assert_eq!(check(&headers, &call("echo")), Ok(()), "{headers:?}");
        }
        let list =
            json!({ "method": "tools/list", "params": call("x")["params"]["_meta"].clone() });
        let list = json!({ "method": "tools/list", "params": { "_meta": list["params"] } });
        assert_eq!(
            check(&headers(&[V, ("Mcp-Method", "tools/list")]), &list),
            Ok(())
        );
    }

    #[test]
    fn a_header_naming_another_method_or_tool_or_a_garbled_one_is_a_header_mismatch() {
        let long = "x".repeat(MAX_VALUE + 1);
        let refused = [
            headers(&[V, ("Mcp-Name", "echo")]),
            headers(&[V, ("Mcp-Method", "tools/list"), ("Mcp-Name", "echo")]),
            headers(&[V, ("Mcp-Method", "TOOLS/CALL"), ("Mcp-Name", "echo")]),
            headers(&[V, ("Mcp-Method", "tools/call")]),
            headers(&[
                V,
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "wrong_tool_name"),
            ]),
            headers(&[
                V,
                ("Mcp-Method", "tools/call"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "echo"),
            ]),
            headers(&[V, ("Mcp-Method", "tools/call"), ("Mcp-Name", long.as_str())]),
            headers(&[
                V,
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "echo"),
                ("Mcp-Param-Region", "=?base64?SGVsbG8?="),
            ]),
            headers(&[
                V,
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "echo"),
                ("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="),
            ]),
            headers(&[("Mcp-Method", "tools/call"), ("Mcp-Name", "echo")]),
            headers(&[
                ("MCP-Protocol-Version", "2026-07-29"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "echo"),
            ]),
        ];
        for headers in refused {
            let refusal = check(&headers, &call("echo")).expect_err("refused");
            assert_eq!(refusal.code, code::HEADER_MISMATCH, "{headers:?}");
            assert!(
                refusal.message.starts_with("Header mismatch: "),
                "{}",
                refusal.message
            );
            assert!(
                refusal.message.len() < 400,
                "the error stays short: {}",
                refusal.message
            );
        }
    }

    #[test]
    fn the_meta_is_checked_after_the_version_header_matches_it() {
        let mut bare = call("echo");
        bare["params"]
            .as_object_mut()
            .expect("as the test wrote it")
            .remove("_meta");
        let named = [V, ("Mcp-Method", "tools/call"), ("Mcp-Name", "echo")];
        assert_eq!(
            check(&headers(&named), &bare).expect_err("refused").code,
            code::INVALID_PARAMS
        );
        let mut future = call("echo");
        future["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
        let asks_future = [
            ("MCP-Protocol-Version", "v999.0.0"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "echo"),
        ];
        assert_eq!(
            check(&headers(&asks_future), &future)
                .expect_err("refused")
                .code,
            code::UNSUPPORTED_PROTOCOL_VERSION
        );
        assert_eq!(
            check(&headers(&named), &future).expect_err("refused").code,
            code::HEADER_MISMATCH
        );
        assert_eq!(
            check(&headers(&named), &json!({ "id": 1 }))
                .expect_err("refused")
                .code,
            -32600
        );
    }

    #[test]
    fn only_a_modern_request_without_a_session_is_served_statelessly() {
        assert!(wanted(&HeaderMap::new(), &call("echo")));
        assert!(wanted(&headers(&[V]), &json!({ "method": "tools/list" })));
        let legacy = headers(&[("MCP-Protocol-Version", "2025-11-25")]);
        assert!(!wanted(&legacy, &json!({ "method": "tools/list" })));
        assert!(!wanted(
            &HeaderMap::new(),
            &json!({ "method": "initialize", "params": {} })
        ));
    }
}
