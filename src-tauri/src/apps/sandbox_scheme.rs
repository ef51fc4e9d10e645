//! The `gatehouse-app` URI scheme: serves the sandbox proxy page (`/sandbox?view=<token>`) and
//! its script (`/sandbox.js?view=<token>`) for the views in [`OpenViews`], each only to that
//! view's own webview, takes the messages the proxy relays from its view to the host
//! (`POST /relay?view=<token>`, see [`relay`]), and answers nothing else.
//!
//! The page is sent with the view's Content-Security-Policy as an HTTP header (SEP-1865 "UI
//! Resource Format", Host Behavior: "Host MUST construct CSP headers based on declared
//! domains"), with one source more in `connect-src`: the relay, which only the proxy's own
//! script uses. The proxy's own code is an external script allowed by the policy's
//! `script-src 'self'` — no hash or nonce is added, since either would switch
//! `'unsafe-inline'` off for the view, which inherits the proxy's policy (see
//! docs/ARCHITECTURE.md, "MCP Apps sandbox"). The script also injects the view's policy as it
//! is, without the relay, as a `<meta http-equiv>` at the top of the view's document: both
//! policies are enforced on the view, so it gets exactly its declared policy and never a looser
//! one, and cannot reach the relay.

use tauri::http::{Method, Request, Response, StatusCode, header};
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use super::open_views::{self, OpenViews};
use super::relay::{self, RELAY_PATH};

const PAGE: &str = include_str!("../../sandbox/sandbox.html");
const SCRIPT: &str = include_str!("../../sandbox/sandbox.js");

/// The scheme's handler, registered on the app builder.
pub fn handle<R: Runtime>(
    context: UriSchemeContext<'_, R>,
    request: Request<Vec<u8>>,
    responder: UriSchemeResponder,
) {
    let app = context.app_handle();
    let views = app.state::<OpenViews>();
    let webview = context.webview_label();
    let response = match *request.method() {
        Method::GET => respond(&views, webview, &request.uri().to_string()),
        Method::POST => relay::receive(app, &views, webview, &request),
        _ => status(StatusCode::METHOD_NOT_ALLOWED),
    };
    responder.respond(response);
}

/// The answer to a GET of `uri` from the webview labelled `webview`.
pub fn respond(views: &OpenViews, webview: &str, uri: &str) -> Response<Vec<u8>> {
    let Ok(url) = url::Url::parse(uri) else {
        return status(StatusCode::BAD_REQUEST);
    };
    let Some(token) = open_views::token_in(&url) else {
        return status(StatusCode::NOT_FOUND);
    };
    // Only the view's own webview gets its pages (the same answer as for a token not open).
    let Some(view) = views
        .get(&token)
        .filter(|_| views.is_webview_of(&token, webview))
    else {
        return status(StatusCode::NOT_FOUND);
    };
    match url.path() {
        "/sandbox" => {
            let body = PAGE.replace("__VIEW_TOKEN__", &token);
            with_headers(Response::builder(), "text/html; charset=utf-8")
                .header(
                    header::CONTENT_SECURITY_POLICY,
                    proxy_policy(&view.policy).as_str(),
                )
                .body(body.into_bytes())
                .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR))
        }
        "/sandbox.js" => {
            let body = SCRIPT
                .replace("\"__RELAY_URL__\"", &js_string(&relay::relay_path(&token)))
                .replace("\"__VIEW_POLICY__\"", &js_string(&view.policy));
            with_headers(Response::builder(), "text/javascript; charset=utf-8")
                .body(body.into_bytes())
                .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR))
        }
        _ => status(StatusCode::NOT_FOUND),
    }
}

/// The proxy page's policy: the view's, with the relay added to `connect-src` (every policy
/// the engine makes has that directive; one without it gets it, from `'none'`).
pub fn proxy_policy(view_policy: &str) -> String {
    let relay = format!("{}{RELAY_PATH}", super::origins::SANDBOX_ORIGIN);
    let mut found = false;
    let mut directives: Vec<String> = view_policy
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|directive| {
            let mut words = directive.split_ascii_whitespace();
            if !words
                .next()
                .is_some_and(|name| name.eq_ignore_ascii_case("connect-src"))
            {
                return directive.to_owned();
            }
            found = true;
            let sources: Vec<&str> = words.filter(|w| *w != "'none'").collect();
            std::iter::once("connect-src")
                .chain(sources)
                .chain(std::iter::once(relay.as_str()))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    if !found {
        directives.push(format!("connect-src {relay}"));
    }
    directives.join("; ")
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
    use crate::apps::origins::{SANDBOX_ORIGIN, sandbox_url};

    const POLICY: &str =
        "default-src 'none'; script-src 'self' 'unsafe-inline'; connect-src 'none'";

    /// A view opened with `policy`: its token and its webview's label.
    fn open(views: &OpenViews, policy: &str) -> (String, String) {
        let token = views.open(ViewEntry {
            server_id: "s".into(),
            uri: "ui://app/main".into(),
            policy: policy.into(),
            caller: "view test".into(),
        });
        let webview = views.webview_of(&token).expect("open");
        (token, webview)
    }

    fn header(response: &Response<Vec<u8>>, name: header::HeaderName) -> Option<&str> {
        response.headers().get(name).and_then(|v| v.to_str().ok())
    }

    fn script_url(token: &str) -> String {
        format!("{SANDBOX_ORIGIN}/sandbox.js?view={token}")
    }

    #[test]
    fn the_proxy_page_carries_its_views_policy_and_the_relay_as_a_header() {
        let views = OpenViews::default();
        let (token, webview) = open(&views, POLICY);
        let page = respond(&views, &webview, &sandbox_url(&token));
        assert_eq!(page.status(), StatusCode::OK);
        assert_eq!(
            header(&page, header::CONTENT_SECURITY_POLICY),
            Some(
                "default-src 'none'; script-src 'self' 'unsafe-inline'; \
                 connect-src gatehouse-app://localhost/relay"
            )
        );
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
    fn the_relay_joins_the_declared_connect_sources() {
        assert_eq!(
            proxy_policy("default-src 'none'; connect-src https://a.example https://b.example"),
            "default-src 'none'; connect-src https://a.example https://b.example \
             gatehouse-app://localhost/relay"
        );
        assert_eq!(
            proxy_policy("default-src 'none'; img-src data:"),
            "default-src 'none'; img-src data:; connect-src gatehouse-app://localhost/relay",
            "a policy without connect-src gets one with the relay alone"
        );
    }

    #[test]
    fn the_script_knows_its_relay_and_the_views_own_policy() {
        let views = OpenViews::default();
        let (token, webview) = open(&views, "default-src 'none'; img-src data: </script>");
        let script = respond(&views, &webview, &script_url(&token));
        assert_eq!(script.status(), StatusCode::OK);
        assert_eq!(
            header(&script, header::CONTENT_TYPE),
            Some("text/javascript; charset=utf-8")
        );
        let js = String::from_utf8(script.body().clone()).expect("utf-8");
        assert!(js.contains(&format!("\"/relay?view={token}\"")), "{js}");
        assert!(
            js.contains("\"default-src 'none'; img-src data: \\u003c/script\\u003e\""),
            "the view's policy, without the relay, as a safe string literal"
        );
        assert!(!js.contains("__RELAY_URL__") && !js.contains("__VIEW_POLICY__"));
    }

    #[test]
    fn a_views_pages_go_to_its_own_webview_only() {
        let views = OpenViews::default();
        let (token, webview) = open(&views, POLICY);
        let (_, other) = open(&views, POLICY);
        for uri in [sandbox_url(&token), script_url(&token)] {
            assert_eq!(respond(&views, &webview, &uri).status(), StatusCode::OK);
            for stranger in [other.as_str(), "main", ""] {
                let refused = respond(&views, stranger, &uri);
                assert_eq!(refused.status(), StatusCode::NOT_FOUND, "{stranger} {uri}");
                assert!(refused.body().is_empty());
            }
        }
    }

    #[test]
    fn unknown_or_closed_views_and_other_paths_get_nothing() {
        let views = OpenViews::default();
        let (token, webview) = open(&views, POLICY);
        let base = sandbox_url(&token);
        let other = base.replace("/sandbox?", "/other?");
        assert_eq!(
            respond(&views, &webview, &other).status(),
            StatusCode::NOT_FOUND
        );
        let guessed = sandbox_url(&"0".repeat(64));
        assert_eq!(
            respond(&views, &webview, &guessed).status(),
            StatusCode::NOT_FOUND
        );
        let no_view = base.split('?').next().unwrap_or("").to_owned();
        assert_eq!(
            respond(&views, &webview, &no_view).status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            respond(&views, &webview, "not a url").status(),
            StatusCode::BAD_REQUEST
        );
        views.close(&token);
        let closed = respond(&views, &webview, &base);
        assert_eq!(closed.status(), StatusCode::NOT_FOUND);
        assert!(closed.body().is_empty());
    }

    #[test]
    fn a_policy_that_is_no_header_value_is_not_served() {
        let views = OpenViews::default();
        let (token, webview) = open(&views, "default-src 'none'\r\nX-Injected: 1");
        let page = respond(&views, &webview, &sandbox_url(&token));
        assert_eq!(page.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(page.headers().get("x-injected").is_none());
    }
}
