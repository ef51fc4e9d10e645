//! The `gatehouse-app` URI scheme: serves the sandbox proxy page (`/sandbox?view=<token>`) and
//! its script (`/sandbox.js?view=<token>`) for the views in [`OpenViews`], and nothing else.
//!
//! The page is sent with the view's Content-Security-Policy as an HTTP header (SEP-1865 "UI
//! Resource Format", Host Behavior: "Host MUST construct CSP headers based on declared
//! domains"). The proxy's own code is an external script allowed by the policy's
//! `script-src 'self'` — no hash or nonce is added, since either would switch `'unsafe-inline'`
//! off for the view, which inherits the proxy's policy (see docs/ARCHITECTURE.md, "MCP Apps
//! sandbox"). The script also injects the same policy as a `<meta http-equiv>` at the top of
//! the view's document: both policies are enforced, and they are the same policy, so the view
//! gets exactly its declared policy and never a looser one.

use tauri::http::{Method, Request, Response, StatusCode, header};
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use super::open_views::{self, OpenViews};
use super::origins::HOST_ORIGIN;

const PAGE: &str = include_str!("../../sandbox/sandbox.html");
const SCRIPT: &str = include_str!("../../sandbox/sandbox.js");

/// The window the proxy pages are for; requests from any other webview get nothing.
const MAIN_WEBVIEW: &str = "main";

/// The scheme's handler, registered on the app builder.
pub fn handle<R: Runtime>(
    context: UriSchemeContext<'_, R>,
    request: Request<Vec<u8>>,
    responder: UriSchemeResponder,
) {
    if context.webview_label() != MAIN_WEBVIEW || request.method() != Method::GET {
        responder.respond(status(StatusCode::FORBIDDEN));
        return;
    }
    let views = context.app_handle().state::<OpenViews>();
    responder.respond(respond(&views, &request.uri().to_string()));
}

/// The answer to a request for `uri` (its method already checked to be GET).
pub fn respond(views: &OpenViews, uri: &str) -> Response<Vec<u8>> {
    let Ok(url) = url::Url::parse(uri) else {
        return status(StatusCode::BAD_REQUEST);
    };
    let token = url
        .query_pairs()
        .find(|(k, _)| k == "view")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    if !open_views::well_formed(&token) {
        return status(StatusCode::NOT_FOUND);
    }
    let Some(view) = views.get(&token) else {
        return status(StatusCode::NOT_FOUND);
    };
    match url.path() {
        "/sandbox" => {
            let body = PAGE.replace("__VIEW_TOKEN__", &token);
            with_headers(Response::builder(), "text/html; charset=utf-8")
                .header(header::CONTENT_SECURITY_POLICY, view.policy.as_str())
                .body(body.into_bytes())
                .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR))
        }
        "/sandbox.js" => {
            let body = SCRIPT
                .replace("\"__HOST_ORIGIN__\"", &js_string(HOST_ORIGIN))
                .replace("\"__VIEW_POLICY__\"", &js_string(&view.policy));
            with_headers(Response::builder(), "text/javascript; charset=utf-8")
                .body(body.into_bytes())
                .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR))
        }
        _ => status(StatusCode::NOT_FOUND),
    }
}

/// The headers every answer carries: its type, never sniffed, cached or referred.
fn with_headers(
    builder: tauri::http::response::Builder,
    content_type: &str,
) -> tauri::http::response::Builder {
    builder
        .header(header::CONTENT_TYPE, content_type)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::CACHE_CONTROL, "no-store")
        .header(header::REFERRER_POLICY, "no-referrer")
}

fn status(code: StatusCode) -> Response<Vec<u8>> {
    let mut response = Response::new(Vec::new());
    *response.status_mut() = code;
    response
}

/// `value` as a JavaScript string literal that cannot end a script or a line.
fn js_string(value: &str) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "\"\"".to_owned())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::ViewEntry;
    use crate::apps::origins::sandbox_url;

    const POLICY: &str =
        "default-src 'none'; script-src 'self' 'unsafe-inline'; connect-src 'none'";

    fn open(views: &OpenViews, policy: &str) -> String {
        views.open(ViewEntry {
            server_id: "s".into(),
            uri: "ui://app/main".into(),
            policy: policy.into(),
        })
    }

    fn header(response: &Response<Vec<u8>>, name: header::HeaderName) -> Option<&str> {
        response.headers().get(name).and_then(|v| v.to_str().ok())
    }

    #[test]
    fn the_proxy_page_carries_its_views_policy_as_a_header() {
        let views = OpenViews::default();
        let token = open(&views, POLICY);
        let page = respond(&views, &sandbox_url(&token));
        assert_eq!(page.status(), StatusCode::OK);
        assert_eq!(header(&page, header::CONTENT_SECURITY_POLICY), Some(POLICY));
        assert_eq!(
            header(&page, header::X_CONTENT_TYPE_OPTIONS),
            Some("nosniff")
        );
        assert_eq!(header(&page, header::CACHE_CONTROL), Some("no-store"));
        assert_eq!(
            header(&page, header::CONTENT_TYPE),
            Some("text/html; charset=utf-8")
        );
        let html = String::from_utf8(page.body().clone()).expect("utf-8");
        assert!(
            html.contains(&format!(
                "<script src=\"/sandbox.js?view={token}\"></script>"
            )),
            "the proxy's code is an external script under 'self': {html}"
        );
        assert!(
            !html.contains("<script>") && !html.contains("style="),
            "no inline script or style in the proxy page, so the policy needs no loosening"
        );
    }

    #[test]
    fn the_script_knows_the_host_origin_and_the_policy() {
        let views = OpenViews::default();
        let token = open(&views, "default-src 'none'; img-src data: </script>");
        let script = respond(
            &views,
            &format!(
                "{}.js?view={token}",
                sandbox_url("x").split('?').next().unwrap_or("")
            ),
        );
        assert_eq!(script.status(), StatusCode::OK);
        assert_eq!(
            header(&script, header::CONTENT_TYPE),
            Some("text/javascript; charset=utf-8")
        );
        let js = String::from_utf8(script.body().clone()).expect("utf-8");
        assert!(js.contains(&format!("\"{HOST_ORIGIN}\"")), "{js}");
        assert!(
            js.contains("img-src data: \\u003c/script\\u003e"),
            "the policy is a safe string literal"
        );
        assert!(!js.contains("__HOST_ORIGIN__") && !js.contains("__VIEW_POLICY__"));
    }

    #[test]
    fn unknown_or_closed_views_and_other_paths_get_nothing() {
        let views = OpenViews::default();
        let token = open(&views, POLICY);
        let base = sandbox_url(&token);
        let other = base.replace("/sandbox?", "/other?");
        assert_eq!(respond(&views, &other).status(), StatusCode::NOT_FOUND);
        let guessed = sandbox_url(&"0".repeat(64));
        assert_eq!(respond(&views, &guessed).status(), StatusCode::NOT_FOUND);
        let no_view = base.split('?').next().unwrap_or("").to_owned();
        assert_eq!(respond(&views, &no_view).status(), StatusCode::NOT_FOUND);
        assert_eq!(
            respond(&views, "not a url").status(),
            StatusCode::BAD_REQUEST
        );
        views.close(&token);
        let closed = respond(&views, &base);
        assert_eq!(closed.status(), StatusCode::NOT_FOUND);
        assert!(closed.body().is_empty());
    }

    #[test]
    fn a_policy_that_is_no_header_value_is_not_served() {
        let views = OpenViews::default();
        let token = open(&views, "default-src 'none'\r\nX-Injected: 1");
        let page = respond(&views, &sandbox_url(&token));
        assert_eq!(page.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(page.headers().get("x-injected").is_none());
    }
}
