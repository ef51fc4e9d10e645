//! What a person should know about where a URL leads before agreeing to open it (2025-11-25
//! client/elicitation, "Safe URL Handling": show the domain prominently, warn about Punycode
//! and other forms that disguise a site). The URL is only parsed here, never fetched.

/// The URL's host, and what looks suspicious about the URL. A URL that cannot be opened
/// (not http or https, not a URL at all) has no host and says why.
pub fn describe(url: &str) -> (String, Vec<String>) {
    let Ok(parsed) = url::Url::parse(url) else {
        return (String::new(), vec!["this is not a valid URL".into()]);
    };
    let mut warnings = Vec::new();
    if !matches!(parsed.scheme(), "http" | "https") {
        warnings.push(format!(
            "it is a `{}` URL; only http and https URLs are opened",
            parsed.scheme()
        ));
    } else if parsed.scheme() != "https" {
        warnings.push("it is not https: what you send there can be read on the way".into());
    }
    let host = parsed.host_str().unwrap_or_default().to_owned();
    if host.is_empty() {
        warnings.push("this URL names no site".into());
    }
    if host.split('.').any(|label| label.starts_with("xn--")) {
        warnings
            .push("the site name is written in Punycode (xn--) and may imitate another one".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        warnings.push("the URL carries a user name, which can disguise the real site".into());
    }
    (host, warnings)
}

/// Whether the URL may be opened in a browser at all: http or https with a host.
pub fn openable(url: &str) -> bool {
    url::Url::parse(url)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_is_named_and_suspicious_urls_are_flagged() {
        assert_eq!(
            describe("https://auth.example.test/x"),
            ("auth.example.test".to_owned(), vec![])
        );
        let (_, lookalike) = describe("https://xn--pple-43d.com/login");
        assert!(
            lookalike.iter().any(|w| w.contains("Punycode")),
            "{lookalike:?}"
        );
        let (host, disguised) = describe("http://bank.example@evil.test/");
        assert_eq!(host, "evil.test");
        assert!(disguised.iter().any(|w| w.contains("not https")));
        assert!(disguised.iter().any(|w| w.contains("user name")));
        let (none, bad) = describe("not a url");
        assert!(none.is_empty() && !bad.is_empty());
        assert!(!openable("javascript:alert(1)") && !openable("file:///etc/passwd"));
        assert!(openable("https://example.test/a") && openable("http://127.0.0.1:8080/"));
    }
}
