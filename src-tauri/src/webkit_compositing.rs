//! WebKitGTK's accelerated compositing, which the app turns off on Linux unless asked for.
//!
//! Gatehouse's window is forms, lists and tables: nothing it draws needs the GPU layers that
//! accelerated compositing keeps (3D transforms, WebGL, video). Kept on, it costs the web
//! process about 100 MB with 20 servers shown (`gatehouse-bench --section app-memory`,
//! docs/performance.md). It stays on when the person sets `WEBKIT_DISABLE_COMPOSITING_MODE`
//! themselves (whatever the value), or `GATEHOUSE_WEBKIT_COMPOSITING=1`.
//!
//! With compositing off, nothing in the app draws with OpenGL, so GTK's own GL is turned off too
//! (`GDK_GL=disable`, unless the person set `GDK_GL`): otherwise GTK opens GLX when it opens the
//! display, which loads the GL driver (under Xvfb, Mesa's software rasterizer and `libLLVM`)
//! into the engine, about 32 MB of it even with the window closed.

/// Set to `1` to keep WebKit's accelerated compositing on.
pub const KEEP_COMPOSITING: &str = "GATEHOUSE_WEBKIT_COMPOSITING";

/// WebKitGTK's own switch, read when the web view starts.
const WEBKIT_SWITCH: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// GTK's GL switch, read when it opens the display.
const GDK_GL: &str = "GDK_GL";

/// Whether compositing is to be turned off, given how the two variables are set.
fn turn_off(person_set_switch: bool, keep: Option<&str>) -> bool {
    !person_set_switch && keep != Some("1")
}

/// Turns compositing off unless asked not to. Call it first thing in `main`, while the process
/// has one thread: it changes the process environment.
#[allow(unsafe_code)]
pub fn configure() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let keep = std::env::var(KEEP_COMPOSITING).ok();
    if turn_off(std::env::var_os(WEBKIT_SWITCH).is_some(), keep.as_deref()) {
        // SAFETY: `main` calls this before the Tauri runtime, the engine or anything else has
        // started a thread, so no other thread can be reading the environment meanwhile.
        unsafe { std::env::set_var(WEBKIT_SWITCH, "1") };
        if std::env::var_os(GDK_GL).is_none() {
            // SAFETY: as above.
            unsafe { std::env::set_var(GDK_GL, "disable") };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::turn_off;

    #[test]
    fn off_unless_the_person_chose() {
        assert!(turn_off(false, None));
        assert!(turn_off(false, Some("0")));
        assert!(
            !turn_off(false, Some("1")),
            "GATEHOUSE_WEBKIT_COMPOSITING=1 keeps it"
        );
        assert!(
            !turn_off(true, None),
            "the person's own WEBKIT_DISABLE_COMPOSITING_MODE wins"
        );
    }
}
