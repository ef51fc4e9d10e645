//! Each app view in a webview of its own: created in the main window over the view's panel the
//! first time the window places it, moved and shown or hidden as the window asks, told what the
//! host sends it, and closed with the view, or when the main webview loads again (its panels,
//! and whatever placed the views, are gone then).
//!
//! A view's webview holds no capability (`capabilities/` grants the app's commands to the
//! `main` webview only), so Tauri refuses every command it sends, whatever key it has. It may
//! load only its own proxy page and the view's `srcdoc` frame; it opens no window and saves no
//! download.

use serde_json::Value;
use tauri::plugin::TauriPlugin;
use tauri::webview::{NewWindowResponse, PageLoadEvent, WebviewBuilder};
use tauri::{AppHandle, LogicalPosition, LogicalSize, Manager, Runtime, Url, Webview, WebviewUrl};

use super::navigation::view_may_load;
use super::open_views::{OpenViews, VIEW_WEBVIEW_PREFIX};
use super::origins::{MAIN_WEBVIEW, sandbox_url};
use super::placement::ViewPlacement;
#[cfg(target_os = "linux")]
use super::view_layer;

/// Why a view's webview could not be made or reached.
#[derive(Debug, thiserror::Error)]
pub enum ViewWebviewError {
    #[error("the app's view is closed")]
    Closed,
    #[error("the window is gone")]
    NoWindow,
    #[error("cannot show the app's view: {0}")]
    Tauri(#[from] tauri::Error),
}

/// Shows, moves or hides the view with this token where the window asks; creates its webview
/// the first time.
pub async fn place<R: Runtime>(
    app: &AppHandle<R>,
    views: &OpenViews,
    token: &str,
    placement: ViewPlacement,
) -> Result<(), ViewWebviewError> {
    let placed = views
        .place(token, placement)
        .ok_or(ViewWebviewError::Closed)?;
    if placed.create {
        let window = app
            .get_window(MAIN_WEBVIEW)
            .ok_or(ViewWebviewError::NoWindow)?;
        let url = Url::parse(&sandbox_url(token)).map_err(|_| ViewWebviewError::Closed)?;
        let label = placed.webview.clone();
        let shown = placement.checked();
        // `add_child` waits for the main thread: off the async runtime.
        let webview = tauri::async_runtime::spawn_blocking(move || {
            let allowed = url.clone();
            let named = label.clone();
            let builder = WebviewBuilder::new(label, WebviewUrl::CustomProtocol(url))
                .focused(false)
                .on_navigation(move |to| {
                    let may = view_may_load(to, &allowed);
                    if !may {
                        tracing::warn!("refused to navigate the webview {named} to {to}");
                    }
                    may
                })
                .on_new_window(|_, _| NewWindowResponse::Deny)
                .on_download(|_, _| false);
            let (position, size) =
                shown.map_or(((0, 0), (1, 1)), |p| ((p.x, p.y), (p.width, p.height)));
            window.add_child(
                builder,
                LogicalPosition::new(position.0, position.1),
                LogicalSize::new(size.0, size.1),
            )
        })
        .await??;
        // The latest placement: the window may have moved the panel meanwhile.
        let latest = views.placement(token).unwrap_or(placement);
        return apply(&webview, latest);
    }
    match app.get_webview(&placed.webview) {
        Some(webview) => apply(&webview, placement),
        // Still being created: the creator applies the latest placement.
        None => Ok(()),
    }
}

/// Puts the webview where `placement` says, or hides it.
fn apply<R: Runtime>(
    webview: &Webview<R>,
    placement: ViewPlacement,
) -> Result<(), ViewWebviewError> {
    let Some(shown) = placement.checked() else {
        webview.hide()?;
        return Ok(());
    };
    webview.eval(format!(
        "window.__gatehouseSandbox && window.__gatehouseSandbox.layout({});",
        shown.proxy_layout()
    ))?;
    #[cfg(target_os = "linux")]
    view_layer::place(
        webview,
        view_layer::Bounds {
            x: shown.x,
            y: shown.y,
            width: shown.width,
            height: shown.height,
        },
    )?;
    #[cfg(not(target_os = "linux"))]
    {
        webview.set_position(LogicalPosition::new(shown.x, shown.y))?;
        webview.set_size(LogicalSize::new(shown.width, shown.height))?;
    }
    webview.show()?;
    Ok(())
}

/// Hands the view with this token a message of the host (the proxy page relays it to the view).
pub fn post<R: Runtime>(
    app: &AppHandle<R>,
    views: &OpenViews,
    token: &str,
    message: &Value,
) -> Result<(), ViewWebviewError> {
    let label = views.webview_of(token).ok_or(ViewWebviewError::Closed)?;
    let webview = app.get_webview(&label).ok_or(ViewWebviewError::Closed)?;
    // JSON is a JavaScript expression; the proxy checks what it is given.
    webview.eval(format!(
        "window.__gatehouseSandbox && window.__gatehouseSandbox.fromHost({message});"
    ))?;
    Ok(())
}

/// Closes the webview labelled `label`, if it is there.
pub fn close<R: Runtime>(app: &AppHandle<R>, label: &str) {
    if let Some(webview) = app.get_webview(label)
        && let Err(e) = webview.close()
    {
        tracing::warn!("cannot close the app view webview {label}: {e}");
    }
}

/// Closes every view webview whose view is no longer open (forgotten as the oldest).
pub fn close_forgotten<R: Runtime>(app: &AppHandle<R>, views: &OpenViews) {
    let open = views.webviews();
    for label in app.webviews().into_keys() {
        if label.starts_with(VIEW_WEBVIEW_PREFIX) && !open.contains(&label) {
            close(app, &label);
        }
    }
}

/// Forgets every view, and closes its webview, whenever the main webview starts loading a page
/// (a reload leaves no panel to place or close them).
pub fn forget_on_reload<R: Runtime>() -> TauriPlugin<R> {
    tauri::plugin::Builder::new("app-views")
        .on_page_load(|webview, payload| {
            if webview.label() != MAIN_WEBVIEW || payload.event() != PageLoadEvent::Started {
                return;
            }
            let app = webview.app_handle();
            let views = app.state::<OpenViews>();
            for label in views.close_all() {
                close(app, &label);
            }
            close_forgotten(app, &views);
        })
        .build()
}
