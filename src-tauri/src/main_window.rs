//! The main window's life apart from the engine's: made at start (unless the app starts hidden
//! in the tray, `--hidden`), made again with the current state when the person opens it from
//! the tray, a notification or a second launch, and destroyed (webview and all, so WebKit's
//! processes exit) when closed while the engine has something to keep running for.

use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Manager, WebviewWindow, WebviewWindowBuilder};
use tauri_specta::Event;

use crate::apps::origins::MAIN_WEBVIEW;

/// `--hidden` on the app's command line: start in the tray, with no window (how the app is
/// started at login).
pub fn hidden_arg(args: impl IntoIterator<Item = String>) -> bool {
    args.into_iter().any(|arg| arg == "--hidden")
}

/// Shows the main window, making it (from `tauri.conf.json`'s window) if it is closed, and
/// gives it the focus. A request waiting for the person shows in its dialog on any page.
pub fn open(app: &AppHandle) {
    let window = match app.get_webview_window(MAIN_WEBVIEW) {
        Some(window) => window,
        None => match create(app) {
            Ok(window) => window,
            Err(e) => {
                tracing::error!("cannot open the window: {e}");
                return;
            }
        },
    };
    let _ = window.unminimize();
    let _ = window.show();
    let _ = window.set_focus();
}

/// The waiting request the window should put first (chosen in the tray or a notification),
/// kept until the window takes it: a window made just now is not listening yet.
#[derive(Debug, Default)]
pub struct ChosenApproval(std::sync::Mutex<Option<String>>);

impl ChosenApproval {
    pub fn take(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

/// The person chose a waiting request outside the window: the window puts it first.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct ApprovalChosenEvent {
    pub id: String,
}

/// Opens the window on the dialog of request `id`.
pub fn open_on_approval(app: &AppHandle, id: &str) {
    if let Some(chosen) = app.try_state::<ChosenApproval>() {
        *chosen
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(id.to_owned());
    }
    let existed = app.get_webview_window(MAIN_WEBVIEW).is_some();
    open(app);
    if existed && let Err(e) = (ApprovalChosenEvent { id: id.to_owned() }).emit(app) {
        tracing::warn!("cannot tell the window which request to show: {e}");
    }
}

/// The request chosen outside the window, once (the window asks when it starts).
#[tauri::command]
#[specta::specta]
pub fn take_chosen_approval(chosen: tauri::State<'_, ChosenApproval>) -> Option<String> {
    chosen.take()
}

/// Makes the main window from its configuration, at its saved size and place, and lays the app
/// views' layer over it.
pub fn create(app: &AppHandle) -> tauri::Result<WebviewWindow> {
    let config = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == MAIN_WEBVIEW)
        .cloned()
        .ok_or_else(|| tauri::Error::WindowNotFound)?;
    let window = WebviewWindowBuilder::from_config(app, &config)?.build()?;
    // Where the person left it last time, or centred if that is on no screen now. On the main
    // thread: the plugin's state lock is held while it moves the window, and from another thread
    // that waits on the main thread, which may be waiting on the same lock for a resize event.
    let placed = window.clone();
    if let Err(e) = app.run_on_main_thread(move || crate::window_state::restore(&placed)) {
        tracing::warn!("cannot restore the window's size and position: {e}");
    }
    // App views are laid over the window's main webview (Linux needs help for that).
    #[cfg(target_os = "linux")]
    crate::apps::view_layer::install(&window.as_ref().window())?;
    Ok(window)
}

/// Whether a closed window leaves the engine running: when it has servers to run or agents to
/// serve (`enabled_servers` enabled, `clients` configured). Otherwise closing it quits.
pub fn keeps_running(enabled_servers: usize, clients: usize) -> bool {
    enabled_servers > 0 || clients > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_only_when_asked() {
        let args = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(hidden_arg(args(&["--data-dir", "/d", "--hidden"])));
        assert!(!hidden_arg(args(&["--data-dir", "/d"])));
        assert!(!hidden_arg(args(&["--hidden-extra"])));
    }

    #[test]
    fn keeps_running_for_servers_or_clients() {
        assert!(!keeps_running(0, 0));
        assert!(keeps_running(1, 0));
        assert!(keeps_running(0, 2));
    }
}
