//! `ui/open-link` (SEP-1865, "Requests"): only http and https URLs with a host are opened, in
//! the system browser; `javascript:`, `file:`, `data:`, the app's own schemes and anything else
//! are refused.

use gatehouse_host::HostError;
use gatehouse_host::approvals::site;

/// Ok when `url` may be opened in the system browser.
pub fn check(url: &str) -> Result<(), HostError> {
    if site::openable(url) {
        Ok(())
    } else {
        Err(HostError::Validation(format!(
            "an app may open only http and https links, not `{url}`"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_and_https_links_open() {
        assert!(check("https://example.test/page?q=1").is_ok());
        assert!(check("http://127.0.0.1:8080/").is_ok());
        for refused in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "file:///etc/passwd",
            "data:text/html,<script>1</script>",
            "gatehouse-app://localhost/sandbox",
            "tauri://localhost/",
            "ipc://localhost/list_servers",
            "mailto:a@example.test",
            "https://",
            "/relative",
            "",
        ] {
            let error = check(refused).expect_err(refused);
            assert_eq!(error.code(), "validation", "{refused}");
        }
    }
}
