//! With every webview closed, WebKitGTK keeps its network process running for the app's life
//! (Tauri keeps the web context on Linux so that a new webview reuses it:
//! tauri-apps/tauri#14626). A window closed to the tray should leave the engine alone, so that
//! process is ended; WebKit starts a new one when the window is opened again.

/// Ends the app's own WebKit network process(es): children of this process named
/// `WebKitNetworkProcess` (as `/proc/PID/comm` shows it, cut to 15 bytes). Call only when no
/// webview is left. Returns how many were told to end.
#[cfg(target_os = "linux")]
pub fn end_network_process() -> usize {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut ended = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if parent_and_name(&stat)
            .is_some_and(|(ppid, name)| ppid == me && name.starts_with("WebKitNetworkPr"))
            && kill(Pid::from_raw(pid), Signal::SIGTERM).is_ok()
        {
            ended += 1;
        }
    }
    ended
}

/// Elsewhere WebKit (or WebView2) ends its processes with the last webview.
#[cfg(not(target_os = "linux"))]
pub fn end_network_process() -> usize {
    0
}

/// The parent pid and the command name of a `/proc/PID/stat` line (`pid (comm) state ppid …`;
/// the name may hold spaces and parentheses, so it ends at the last `)`).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn parent_and_name(stat: &str) -> Option<(u32, &str)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?;
    let mut rest = stat.get(close + 1..)?.split_whitespace();
    let _state = rest.next()?;
    let ppid = rest.next()?.parse().ok()?;
    Some((ppid, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_odd_names() {
        assert_eq!(
            parent_and_name("42 (WebKitNetworkPr) S 7 42 42 0"),
            Some((7, "WebKitNetworkPr"))
        );
        assert_eq!(parent_and_name("9 (a) b)) R 3 1"), Some((3, "a) b)")));
        assert_eq!(parent_and_name("garbage"), None);
    }
}
