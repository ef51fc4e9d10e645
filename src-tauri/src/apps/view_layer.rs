//! Where the app views' webviews sit in the window on Linux: a layer over the main webview.
//!
//! Tauri 2.12.5 packs a child webview (`Window::add_child`) on Linux into the window's vertical
//! `gtk::Box`, next to the main webview, where GTK splits the height between them and a
//! webview's position and size are ignored (tauri-apps/tauri#10420, still open; the macOS and
//! Windows runtimes place children where asked). So, once, the window's box goes into a
//! `gtk::Overlay` whose overlay layer is a `gtk::Fixed` that lets input through where it holds
//! nothing; each view's webview is moved from the box into that layer, where it is placed and
//! sized by hand. Everything here runs on the main thread (GTK's), through
//! `run_on_main_thread` and `with_webview`.
//!
//! This leans on the widget tree of tauri-runtime-wry 2.12.3 and tao 0.37 (the box is the
//! window's direct child); if that changes, the layer is not installed, an error is logged and
//! views are stacked below the main webview until it is fixed (the e2e tests see it).

use std::cell::RefCell;

use gtk::prelude::*;
use tauri::{Runtime, Webview, Window};

thread_local! {
    /// The layer over the main webview (main thread only, as GTK is).
    static LAYER: RefCell<Option<gtk::Fixed>> = const { RefCell::new(None) };
}

/// Where a view's webview goes, in the window's logical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

/// Puts the window's content under an overlay whose top layer will hold the views. Call once,
/// before any view is shown.
pub fn install<R: Runtime>(window: &Window<R>) -> tauri::Result<()> {
    let target = window.clone();
    window.run_on_main_thread(move || {
        if let Err(e) = restructure(&target) {
            tracing::error!("cannot lay app views over the window: {e}");
        }
    })
}

/// The window that held the layer is gone: the next one gets a layer of its own. Main thread.
pub fn forget() {
    LAYER.with(|slot| *slot.borrow_mut() = None);
}

fn restructure<R: Runtime>(window: &Window<R>) -> Result<(), String> {
    if LAYER.with(|layer| layer.borrow().is_some()) {
        return Ok(());
    }
    let gtk_window = window.gtk_window().map_err(|e| e.to_string())?;
    let vbox = window.default_vbox().map_err(|e| e.to_string())?;
    if vbox.parent().as_ref() != Some(gtk_window.upcast_ref::<gtk::Widget>()) {
        return Err("the window's box is not its direct child".into());
    }
    let overlay = gtk::Overlay::new();
    gtk_window.remove(&vbox);
    overlay.add(&vbox);
    let layer = gtk::Fixed::new();
    overlay.add_overlay(&layer);
    // Input over the layer's empty parts reaches the main webview; its children (the views'
    // webviews, with windows of their own) still get theirs.
    overlay.set_overlay_pass_through(&layer, true);
    gtk_window.add(&overlay);
    overlay.show_all();
    LAYER.with(|slot| *slot.borrow_mut() = Some(layer));
    Ok(())
}

/// Moves a view's webview into the layer (the first time) and gives it `bounds`.
pub fn place<R: Runtime>(webview: &Webview<R>, bounds: Bounds) -> tauri::Result<()> {
    webview.with_webview(move |platform| {
        let widget = platform.inner().upcast::<gtk::Widget>();
        LAYER.with(|slot| {
            let Some(layer) = slot.borrow().clone() else {
                tracing::error!("the app view layer is missing; the view stays where GTK put it");
                return;
            };
            let Bounds {
                x,
                y,
                width,
                height,
            } = bounds;
            let in_layer = widget.parent().as_ref() == Some(layer.upcast_ref::<gtk::Widget>());
            if in_layer {
                layer.move_(&widget, x, y);
            } else {
                if let Some(parent) = widget
                    .parent()
                    .and_then(|p| p.downcast::<gtk::Container>().ok())
                {
                    parent.remove(&widget);
                }
                layer.put(&widget, x, y);
            }
            widget.set_size_request(width, height);
        });
    })
}
