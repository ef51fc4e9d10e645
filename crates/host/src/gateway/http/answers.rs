//! What the endpoint answers with: what a request's `Accept` allows, JSON and SSE responses, and
//! refusals carrying a JSON-RPC error that says why.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

/// What the client's `Accept` allows.
pub struct Accepts {
    pub json: bool,
    pub sse: bool,
}

impl Accepts {
    pub fn of(headers: &HeaderMap) -> Accepts {
        let mut accepts = Accepts {
            json: false,
            sse: false,
        };
        for value in headers.get_all(header::ACCEPT) {
            for kind in value.to_str().unwrap_or("").split(',') {
                let kind = kind.split(';').next().unwrap_or("").trim();
                match kind.to_ascii_lowercase().as_str() {
                    "application/json" | "application/*" => accepts.json = true,
                    "text/event-stream" | "text/*" => accepts.sse = true,
                    "*/*" => (accepts.json, accepts.sse) = (true, true),
                    _ => {}
                }
            }
        }
        accepts
    }
}

pub fn sse_response(body: Body) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

pub fn json_response(message: &Value) -> Response {
    let body = serde_json::to_vec(message).unwrap_or_default();
    let mut response = Response::new(Body::from(body));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A refusal, with a JSON-RPC error body saying why.
pub fn fail(status: StatusCode, message: &str) -> Response {
    rpc_fail(status, -32600, message)
}

pub fn rpc_fail(status: StatusCode, code: i64, message: &str) -> Response {
    let body =
        json!({ "jsonrpc": "2.0", "id": null, "error": { "code": code, "message": message } });
    let mut response = json_response(&body);
    *response.status_mut() = status;
    response
}
