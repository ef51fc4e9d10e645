//! Where each webview may navigate. The main webview holds the app's commands, so it stays on
//! the app's own origin (a page that took it elsewhere would get the IPC's scripts). A view's
//! webview stays on its own proxy page, and the view's frame on the document the proxy wrote
//! (`about:srcdoc`): a view that tries to navigate its frame away is refused before any
//! request goes out. WebKitGTK asks for every navigation of the main frame and of subframes.

use tauri::plugin::TauriPlugin;
use tauri::{Runtime, Url};

use super::open_views::VIEW_WEBVIEW_PREFIX;
use super::origins::{HOST_ORIGIN, MAIN_WEBVIEW};

/// Whether the main webview may load `url`: only the app's own pages. (The `url` crate gives a
/// custom scheme's URL an opaque origin, so scheme, host and port are compared one by one.)
pub fn main_may_load(url: &Url) -> bool {
    let Ok(app) = Url::parse(HOST_ORIGIN) else {
        return false;
    };
    url.scheme() == app.scheme()
        && url.host_str() == app.host_str()
        && url.port_or_known_default() == app.port_or_known_default()
        && url.username().is_empty()
        && url.password().is_none()
}

/// Whether a view's webview may load `url`: its own proxy page `proxy`, exactly, and the
/// view's frame.
pub fn view_may_load(url: &Url, proxy: &Url) -> bool {
    url == proxy || matches!(url.as_str(), "about:srcdoc" | "about:blank")
}

/// The navigation rule of the webviews the app does not build itself (the main webview, made
/// from the configuration); a view's webview has its own rule, given when it is built.
pub fn guard<R: Runtime>() -> TauriPlugin<R> {
    tauri::plugin::Builder::new("navigation-guard")
        .on_navigation(|webview, url| {
            let label = webview.label();
            let allowed = if label == MAIN_WEBVIEW {
                main_may_load(url)
            } else {
                label.starts_with(VIEW_WEBVIEW_PREFIX)
            };
            if !allowed {
                tracing::warn!("refused to navigate the webview {label} to {url}");
            }
            allowed
        })
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("url")
    }

    #[test]
    fn the_main_webview_stays_on_the_apps_origin() {
        assert!(main_may_load(&url(&format!("{HOST_ORIGIN}/"))));
        assert!(main_may_load(&url(&format!(
            "{HOST_ORIGIN}/index.html#/audit"
        ))));
        for elsewhere in [
            "https://example.com/",
            "http://127.0.0.1:8080/",
            "gatehouse-app://localhost/sandbox?view=x",
            "file:///etc/passwd",
            "about:blank",
            "data:text/html,hi",
            "tauri://localhost.example.com/",
            "tauri://user@localhost/",
        ] {
            assert!(!main_may_load(&url(elsewhere)), "{elsewhere}");
        }
    }

    #[test]
    fn a_view_stays_on_its_own_proxy_page_and_frame() {
        let proxy = url("gatehouse-app://localhost/sandbox?view=abc");
        assert!(view_may_load(&proxy, &proxy));
        assert!(view_may_load(&url("about:srcdoc"), &proxy));
        for elsewhere in [
            "gatehouse-app://localhost/sandbox?view=abd",
            "gatehouse-app://localhost/relay?view=abc",
            "https://example.com/",
            "tauri://localhost/",
            "javascript:alert(1)",
            "data:text/html,hi",
        ] {
            assert!(!view_may_load(&url(elsewhere), &proxy), "{elsewhere}");
        }
    }
}
