//! The two origins of an app's frames, per platform, computed rather than read from
//! `document.referrer`: the host page's (where the UI runs) and the sandbox proxy's (a second
//! registered URI scheme). wry serves a custom scheme `x` as `x://localhost` on Linux and macOS,
//! and as `http://x.localhost` on Windows (the app does not set `use_https_scheme`).

/// The label of the main window and of its webview, where the UI runs.
pub const MAIN_WEBVIEW: &str = "main";

/// The URI scheme the sandbox proxy page is served from.
pub const SANDBOX_SCHEME: &str = "gatehouse-app";

/// The sandbox proxy's origin, as the host page sees it in `event.origin`.
#[cfg(not(windows))]
pub const SANDBOX_ORIGIN: &str = "gatehouse-app://localhost";
#[cfg(windows)]
pub const SANDBOX_ORIGIN: &str = "http://gatehouse-app.localhost";

/// The host page's origin (the built UI on Tauri's own scheme), as the proxy sees it.
#[cfg(not(windows))]
pub const HOST_ORIGIN: &str = "tauri://localhost";
#[cfg(windows)]
pub const HOST_ORIGIN: &str = "http://tauri.localhost";

/// The proxy page's URL for the view with this token.
pub fn sandbox_url(token: &str) -> String {
    format!("{SANDBOX_ORIGIN}/sandbox?view={token}")
}

/// The view token in a sandbox URL, or the token itself (what `app_close_view` accepts).
pub fn token_of(token_or_url: &str) -> &str {
    token_or_url
        .rsplit_once("view=")
        .map_or(token_or_url, |(_, token)| token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_url_names_its_view_and_gives_it_back() {
        let url = sandbox_url("abc123");
        assert!(url.starts_with(SANDBOX_ORIGIN), "{url}");
        assert_eq!(token_of(&url), "abc123");
        assert_eq!(token_of("abc123"), "abc123");
        assert_ne!(
            SANDBOX_ORIGIN, HOST_ORIGIN,
            "the host and the sandbox must have different origins (SEP-1865 Sandbox proxy 1)"
        );
    }
}
