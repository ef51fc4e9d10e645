//! The way a view's messages reach the window: the proxy page, in the view's own webview, POSTs
//! them in order to `gatehouse-app://localhost/relay?view=<token>` (a batch, one request at a
//! time), and the shell hands them to the main webview alone as an [`AppViewMessagesEvent`].
//! The other way, the shell evaluates the host's messages in the proxy page
//! (`view_webviews::post`).
//!
//! A batch is taken only from the view's own webview, from the proxy's origin (WebKitGTK sends
//! the proxy's same-origin request without an `Origin` header; the view's, from its opaque
//! origin, would carry `Origin: null`, and its policy has no `connect-src` for the relay
//! anyway), for a view that is open, within [`MAX_RELAY_BYTES`] and [`MAX_RELAY_MESSAGES`]; each
//! message must be a JSON-RPC 2.0 object whose method, if any, is not one of the sandbox's own
//! (`ui/notifications/sandbox-*`) but the proxy's `sandbox-proxy-ready`. Anything else is
//! refused whole and relays nothing.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tauri::http::{Request, Response, StatusCode, header};
use tauri::{AppHandle, EventTarget, Runtime};
use tauri_specta::Event;

use super::open_views::{OpenViews, token_in};
use super::origins::{MAIN_WEBVIEW, SANDBOX_ORIGIN, sandbox_url};

/// The relay's path on the sandbox origin.
pub const RELAY_PATH: &str = "/relay";
/// The largest batch a view's proxy may relay at once (a `ui/download-file` of embedded files
/// is the largest message a view sends).
pub const MAX_RELAY_BYTES: usize = 64 * 1024 * 1024;
/// The most messages in one batch.
pub const MAX_RELAY_MESSAGES: usize = 256;
/// The prefix of the methods only the proxy and the host speak.
const SANDBOX_PREFIX: &str = "ui/notifications/sandbox-";
/// The one of them the proxy sends the host.
const PROXY_READY: &str = "ui/notifications/sandbox-proxy-ready";

/// Messages a view sent to the host, in order (to the main webview only).
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
pub struct AppViewMessagesEvent {
    /// The view's sandbox URL (`AppFrame.sandboxUrl`).
    pub view: String,
    pub messages: Vec<Value>,
}

/// The relay's path for the view with this token.
pub fn relay_path(token: &str) -> String {
    format!("{RELAY_PATH}?view={token}")
}

/// Why a batch was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not the relay, or not for an open view of this webview from the proxy's origin.
    NotFound,
    TooLarge,
    Malformed,
}

impl Refusal {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Malformed => StatusCode::BAD_REQUEST,
        }
    }
}

/// The batch a POST carries, if it is one the relay takes (see the module's rules).
pub fn accept(
    views: &OpenViews,
    webview: &str,
    uri: &str,
    origin: Option<&str>,
    body: &[u8],
) -> Result<AppViewMessagesEvent, Refusal> {
    let url = url::Url::parse(uri).map_err(|_| Refusal::NotFound)?;
    if url.path() != RELAY_PATH || origin.is_some_and(|o| o != SANDBOX_ORIGIN) {
        return Err(Refusal::NotFound);
    }
    let token = token_in(&url).ok_or(Refusal::NotFound)?;
    if !views.is_webview_of(&token, webview) {
        return Err(Refusal::NotFound);
    }
    if body.len() > MAX_RELAY_BYTES {
        return Err(Refusal::TooLarge);
    }
    let messages: Vec<Value> = serde_json::from_slice(body).map_err(|_| Refusal::Malformed)?;
    if messages.len() > MAX_RELAY_MESSAGES {
        return Err(Refusal::TooLarge);
    }
    if !messages.iter().all(relayable) {
        return Err(Refusal::Malformed);
    }
    Ok(AppViewMessagesEvent {
        view: sandbox_url(&token),
        messages,
    })
}

/// A JSON-RPC 2.0 message the proxy may relay: the view's (never a sandbox method; the proxy
/// drops those), or the proxy's own ready notification.
fn relayable(message: &Value) -> bool {
    let Some(fields) = message.as_object() else {
        return false;
    };
    fields.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && match fields.get("method") {
            None => true,
            Some(Value::String(method)) => {
                method == PROXY_READY || !method.starts_with(SANDBOX_PREFIX)
            }
            Some(_) => false,
        }
}

/// Takes a POST from the webview labelled `webview` and hands its batch to the main webview.
pub fn receive<R: Runtime>(
    app: &AppHandle<R>,
    views: &OpenViews,
    webview: &str,
    request: &Request<Vec<u8>>,
) -> Response<Vec<u8>> {
    let origin = request
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok());
    match accept(
        views,
        webview,
        &request.uri().to_string(),
        origin,
        request.body(),
    ) {
        Ok(batch) => match batch.emit_to(app, EventTarget::webview(MAIN_WEBVIEW)) {
            Ok(()) => status(StatusCode::NO_CONTENT),
            Err(e) => {
                tracing::warn!("cannot hand an app view's messages to the window: {e}");
                status(StatusCode::SERVICE_UNAVAILABLE)
            }
        },
        Err(refusal) => {
            tracing::warn!("refused an app view relay request from {webview}: {refusal:?}");
            status(refusal.status())
        }
    }
}

fn status(code: StatusCode) -> Response<Vec<u8>> {
    let mut response = Response::new(Vec::new());
    *response.status_mut() = code;
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::ViewEntry;
    use serde_json::json;

    fn open_view(views: &OpenViews) -> (String, String) {
        let token = views.open(ViewEntry {
            server_id: "s".into(),
            uri: "ui://app/main".into(),
            policy: "default-src 'none'".into(),
            caller: "view test".into(),
        });
        let webview = views.webview_of(&token).expect("open");
        (token, webview)
    }

    fn uri(token: &str) -> String {
        format!("{SANDBOX_ORIGIN}{}", relay_path(token))
    }

    #[test]
    fn a_views_messages_reach_the_window_in_order() {
        let views = OpenViews::default();
        let (token, webview) = open_view(&views);
        let body = json!([
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}},
            {"jsonrpc": "2.0", "id": 7, "result": {}},
            {"jsonrpc": "2.0", "method": "ui/notifications/initialized"},
            {"jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready", "params": {}}
        ]);
        let batch = accept(
            &views,
            &webview,
            &uri(&token),
            Some(SANDBOX_ORIGIN),
            body.to_string().as_bytes(),
        )
        .expect("taken");
        assert_eq!(batch.view, sandbox_url(&token));
        assert_eq!(Value::Array(batch.messages), body);
    }

    #[test]
    fn only_the_views_own_proxy_may_relay_for_it() {
        let views = OpenViews::default();
        let (token, webview) = open_view(&views);
        let (_, other) = open_view(&views);
        let body = br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#;
        let refused = |webview: &str, uri: &str, origin: Option<&str>| {
            accept(&views, webview, uri, origin, body).expect_err("refused")
        };
        assert_eq!(
            refused(&other, &uri(&token), Some(SANDBOX_ORIGIN)),
            Refusal::NotFound,
            "another view's webview"
        );
        assert_eq!(
            refused("main", &uri(&token), Some(SANDBOX_ORIGIN)),
            Refusal::NotFound,
            "the main webview"
        );
        assert_eq!(
            refused(&webview, &uri(&token), Some("null")),
            Refusal::NotFound,
            "the view itself (an opaque origin)"
        );
        assert_eq!(
            refused(&webview, &uri(&token), Some("tauri://localhost")),
            Refusal::NotFound,
            "another origin"
        );
        assert!(
            accept(&views, &webview, &uri(&token), None, body).is_ok(),
            "WebKitGTK sends the proxy's same-origin POST without an Origin header"
        );
        assert_eq!(
            refused(&webview, &uri(&"0".repeat(64)), Some(SANDBOX_ORIGIN)),
            Refusal::NotFound,
            "a view not open"
        );
        let page = uri(&token).replace(RELAY_PATH, "/sandbox");
        assert_eq!(
            refused(&webview, &page, Some(SANDBOX_ORIGIN)),
            Refusal::NotFound
        );
        views.close(&token);
        assert_eq!(
            refused(&webview, &uri(&token), Some(SANDBOX_ORIGIN)),
            Refusal::NotFound,
            "a closed view"
        );
    }

    #[test]
    fn malformed_oversized_or_proxy_messages_relay_nothing() {
        let views = OpenViews::default();
        let (token, webview) = open_view(&views);
        let take = |body: &[u8]| accept(&views, &webview, &uri(&token), Some(SANDBOX_ORIGIN), body);
        for body in [
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!(["not a message"]),
            json!([{"id": 1, "result": {}}]),
            json!([{"jsonrpc": "2.0", "method": 5}]),
            json!([
                {"jsonrpc": "2.0", "id": 1, "result": {}},
                {"jsonrpc": "2.0", "method": "ui/notifications/sandbox-resource-ready", "params": {}}
            ]),
        ] {
            assert_eq!(
                take(body.to_string().as_bytes()).expect_err("refused"),
                Refusal::Malformed,
                "{body}"
            );
        }
        assert_eq!(take(b"[{").expect_err("refused"), Refusal::Malformed);
        let many = Value::Array(vec![
            json!({"jsonrpc": "2.0", "method": "notifications/message"});
            MAX_RELAY_MESSAGES + 1
        ]);
        assert_eq!(
            take(many.to_string().as_bytes()).expect_err("refused"),
            Refusal::TooLarge
        );
        let big = vec![b' '; MAX_RELAY_BYTES + 1];
        assert_eq!(take(&big).expect_err("refused"), Refusal::TooLarge);
    }
}
