//! The main window's size and position kept across restarts (tauri-plugin-window-state): the
//! plugin keeps them in `.window-state.json` in the app's config directory. Each time the window
//! is made (at start, from the tray, a notification or a second launch) its size, position and
//! maximised state are restored; they are written when it closes (the window is destroyed then,
//! while the app may stay in the tray) and when the app exits. A saved position on no screen
//! now (a monitor unplugged) is not used: the window is centred on a screen instead. Nothing
//! saved leaves the window where the window manager puts it.

use tauri::{AppHandle, Monitor, PhysicalPosition, PhysicalSize, Runtime, WebviewWindow};
use tauri_plugin_window_state::{AppHandleExt, StateFlags, WindowExt};

use crate::apps::origins::MAIN_WEBVIEW;

/// What is kept: size, position and maximised (not visibility: the app decides that, nor
/// decorations or full screen).
pub fn flags() -> StateFlags {
    StateFlags::SIZE | StateFlags::POSITION | StateFlags::MAXIMIZED
}

/// The plugin, for the builder: it restores nothing by itself (`create` does, once the window
/// exists), and follows the window's moves and resizes to write them on close and exit.
pub fn plugin<R: Runtime>() -> tauri::plugin::TauriPlugin<R> {
    tauri_plugin_window_state::Builder::new()
        .with_state_flags(flags())
        .skip_initial_state(MAIN_WEBVIEW)
        .build()
}

/// Restores the window's saved size, position and maximised state. With nothing saved the window
/// stays where the window manager put it. A window that would be on no screen afterwards (its
/// monitor unplugged) is centred on the primary screen, or the first one.
pub fn restore<R: Runtime>(window: &WebviewWindow<R>) {
    if let Err(e) = window.restore_state(flags()) {
        tracing::warn!("cannot restore the window's size and position: {e}");
    }
    let placed = window.outer_position().and_then(|position| {
        let size = window.outer_size()?;
        let screens: Vec<Rect> = window
            .available_monitors()?
            .iter()
            .map(Rect::of_monitor)
            .collect();
        Ok((Rect::new(position, size), screens))
    });
    // No monitor reported (some compositors do not say) is not "off every screen".
    let Ok((placed, screens)) = placed else {
        return;
    };
    if on_some_screen(placed, &screens) {
        return;
    }
    let primary = window
        .primary_monitor()
        .ok()
        .flatten()
        .map(|m| Rect::of_monitor(&m));
    if let Some(screen) = primary.or_else(|| screens.first().copied()) {
        let (x, y) = centred(placed, screen);
        if let Err(e) = window.set_position(PhysicalPosition::new(x, y)) {
            tracing::warn!("cannot move the window onto a screen: {e}");
        }
    }
}

/// Where `window` goes to be centred on `screen` (its top-left corner on the screen when it is
/// larger than the screen).
pub fn centred(window: Rect, screen: Rect) -> (i32, i32) {
    let x = screen.x + ((screen.width - window.width) / 2).max(0);
    let y = screen.y + ((screen.height - window.height) / 2).max(0);
    let clamp = |v: i64| i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX });
    (clamp(x), clamp(y))
}

/// Writes the window's size and position now (the window is closing).
pub fn save<R: Runtime>(app: &AppHandle<R>) {
    if let Err(e) = app.save_window_state(flags()) {
        tracing::warn!("cannot save the window's size and position: {e}");
    }
}

/// A rectangle on the desktop, in physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x: i64,
    pub y: i64,
    pub width: i64,
    pub height: i64,
}

impl Rect {
    fn new(position: PhysicalPosition<i32>, size: PhysicalSize<u32>) -> Self {
        Self {
            x: i64::from(position.x),
            y: i64::from(position.y),
            width: i64::from(size.width),
            height: i64::from(size.height),
        }
    }

    fn of_monitor(monitor: &Monitor) -> Self {
        Self::new(*monitor.position(), *monitor.size())
    }
}

/// How much of the window must lie on one screen for it to count as on that screen: enough of
/// its title bar to grab it.
const GRAB_MARGIN: i64 = 48;

/// Whether `window` shows at least a grabbable piece (`GRAB_MARGIN` pixels each way) on one of
/// `screens`; none at all (no monitor reported) counts as on screen, since nothing says it is not.
pub fn on_some_screen(window: Rect, screens: &[Rect]) -> bool {
    if screens.is_empty() {
        return true;
    }
    screens.iter().any(|screen| {
        let left = window.x.max(screen.x);
        let right = (window.x + window.width).min(screen.x + screen.width);
        let top = window.y.max(screen.y);
        let bottom = (window.y + window.height).min(screen.y + screen.height);
        right - left >= GRAB_MARGIN.min(window.width)
            && bottom - top >= GRAB_MARGIN.min(window.height)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn rect(x: i64, y: i64, width: i64, height: i64) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    const LAPTOP: Rect = rect(0, 0, 1920, 1080);
    const RIGHT_MONITOR: Rect = rect(1920, 0, 2560, 1440);

    #[test]
    fn an_off_screen_window_is_centred_on_the_screen_or_at_its_corner_if_larger() {
        assert_eq!(centred(rect(5000, 0, 1200, 800), LAPTOP), (360, 140));
        assert_eq!(
            centred(rect(0, 0, 1200, 800), RIGHT_MONITOR),
            (1920 + 680, 320)
        );
        assert_eq!(centred(rect(0, 0, 4000, 3000), LAPTOP), (0, 0));
    }

    #[test]
    fn a_window_inside_a_screen_is_on_screen() {
        assert!(on_some_screen(rect(100, 100, 1200, 800), &[LAPTOP]));
    }

    #[test]
    fn a_window_on_the_second_monitor_is_on_screen_only_while_it_is_plugged_in() {
        let window = rect(2500, 200, 1200, 800);
        assert!(on_some_screen(window, &[LAPTOP, RIGHT_MONITOR]));
        assert!(!on_some_screen(window, &[LAPTOP]));
    }

    #[test]
    fn a_window_with_only_a_sliver_on_screen_is_off_screen() {
        // 10 pixels of it on the laptop's right edge: too little to grab.
        assert!(!on_some_screen(rect(1910, 100, 1200, 800), &[LAPTOP]));
        // Half of it off the left edge still leaves plenty.
        assert!(on_some_screen(rect(-600, 100, 1200, 800), &[LAPTOP]));
    }

    #[test]
    fn far_away_and_negative_positions_are_off_screen() {
        assert!(!on_some_screen(
            rect(-30000, -30000, 1200, 800),
            &[LAPTOP, RIGHT_MONITOR]
        ));
        assert!(!on_some_screen(
            rect(100, 5000, 1200, 800),
            &[LAPTOP, RIGHT_MONITOR]
        ));
    }

    #[test]
    fn no_monitor_reported_is_not_off_screen() {
        assert!(on_some_screen(rect(-30000, 0, 1200, 800), &[]));
    }

    #[test]
    fn only_size_position_and_maximised_are_kept() {
        let kept = flags();
        assert!(kept.contains(StateFlags::SIZE | StateFlags::POSITION | StateFlags::MAXIMIZED));
        assert!(
            !kept
                .intersects(StateFlags::VISIBLE | StateFlags::DECORATIONS | StateFlags::FULLSCREEN)
        );
    }
}
