//! The Content-Security-Policy of an MCP App's view, derived from the domains its UI resource
//! declares (SEP-1865, "UI Resource Format", host behaviour). Only what is declared is added to
//! the restrictive default, never anything else: undeclared means `'none'` (or `'self'` for
//! `base-uri`), and nothing is ever loosened beyond the spec's template. A domain entry that
//! could break out of its directive (`;`, a quote, whitespace, a line break) is refused, which
//! refuses the whole resource.
//!
//! The policy also holds `object-src 'none'` and `form-action 'none'`. An entry that is not a host
//! source (a keyword, a bare scheme, `*`), or that holds `,` or a control character, is refused
//! too.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The CSP domains a UI resource declares (`_meta.ui.csp`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AppCsp {
    /// Origins for fetch, XHR and WebSocket (`connect-src`).
    pub connect_domains: Vec<String>,
    /// Origins for scripts, styles, images, fonts and media.
    pub resource_domains: Vec<String>,
    /// Origins for nested frames (`frame-src`).
    pub frame_domains: Vec<String>,
    /// Allowed base URIs (`base-uri`).
    pub base_uri_domains: Vec<String>,
}

/// Most entries kept per field; a longer list is refused rather than cut.
pub const MAX_DOMAINS: usize = 64;
/// Longest domain entry, in bytes.
pub const MAX_DOMAIN_LEN: usize = 512;

/// Why a declared CSP was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CspError {
    #[error("`{field}` is not a list of strings")]
    NotAList { field: &'static str },
    #[error(
        "`{field}` entry {entry:?} could change the policy (it holds `;`, a quote, whitespace or a control character)"
    )]
    Injection { field: &'static str, entry: String },
    #[error(
        "`{field}` entry {entry:?} is not a source the policy accepts (an origin such as https://api.example.com, or https://*.example.com)"
    )]
    NotASource { field: &'static str, entry: String },
    #[error("`{field}` has more than {MAX_DOMAINS} entries")]
    TooMany { field: &'static str },
}

impl AppCsp {
    /// The declaration in `_meta.ui.csp` (a JSON object; absent fields are empty), checked.
    pub fn from_meta(csp: &Value) -> Result<AppCsp, CspError> {
        Ok(AppCsp {
            connect_domains: domains(csp, "connectDomains")?,
            resource_domains: domains(csp, "resourceDomains")?,
            frame_domains: domains(csp, "frameDomains")?,
            base_uri_domains: domains(csp, "baseUriDomains")?,
        })
    }
}

fn domains(csp: &Value, field: &'static str) -> Result<Vec<String>, CspError> {
    let Some(value) = csp.get(field) else {
        return Ok(Vec::new());
    };
    if value.is_null() {
        return Ok(Vec::new());
    }
    let entries = value.as_array().ok_or(CspError::NotAList { field })?;
    if entries.len() > MAX_DOMAINS {
        return Err(CspError::TooMany { field });
    }
    let mut kept: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry.as_str().ok_or(CspError::NotAList { field })?;
        check_source(field, entry)?;
        if !kept.iter().any(|k| k == entry) {
            kept.push(entry.to_owned());
        }
    }
    Ok(kept)
}

/// An entry may only be a host source (CSP3 §2.3.1 `host-source`): a scheme and a host, with
/// an optional leading `*.` label, port and path. Keywords (`'unsafe-eval'`), bare schemes
/// (`https:`, `data:`) and `*` would widen the policy beyond a declared origin, so they are
/// refused as well as anything that could end the directive.
fn check_source(field: &'static str, entry: &str) -> Result<(), CspError> {
    let injection = entry.is_empty()
        || entry.len() > MAX_DOMAIN_LEN
        || entry.chars().any(|c| {
            matches!(c, ';' | ',' | '\'' | '"' | '\\') || c.is_whitespace() || c.is_control()
        });
    if injection {
        return Err(CspError::Injection {
            field,
            entry: entry.to_owned(),
        });
    }
    let not_a_source = || CspError::NotASource {
        field,
        entry: entry.to_owned(),
    };
    let (scheme, rest) = entry.split_once("://").ok_or_else(not_a_source)?;
    if !matches!(scheme, "https" | "http" | "wss" | "ws") {
        return Err(not_a_source());
    }
    let authority = rest.split('/').next().unwrap_or_default();
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port == "*" || port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    };
    let host = host.strip_prefix("*.").unwrap_or(host);
    let labels_ok = !host.is_empty()
        && host.split('.').all(|label| {
            !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    let ipv6 = host.starts_with('[') && host.ends_with(']') && host.len() > 2;
    if !(labels_ok || ipv6) {
        return Err(not_a_source());
    }
    Ok(())
}

/// The policy for a view: the spec's restrictive default, with each directive widened only by
/// the domains declared for it.
pub fn policy(csp: &AppCsp) -> String {
    let with = |base: &str, extra: &[String]| {
        std::iter::once(base)
            .chain(extra.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let or = |none: &str, declared: &[String]| {
        if declared.is_empty() {
            none.to_owned()
        } else {
            declared.join(" ")
        }
    };
    let resources = &csp.resource_domains;
    [
        "default-src 'none'".to_owned(),
        format!("script-src {}", with("'self' 'unsafe-inline'", resources)),
        format!("style-src {}", with("'self' 'unsafe-inline'", resources)),
        format!("img-src {}", with("'self' data:", resources)),
        format!("font-src {}", with("'self'", resources)),
        format!("media-src {}", with("'self' data:", resources)),
        format!("connect-src {}", or("'none'", &csp.connect_domains)),
        format!("frame-src {}", or("'none'", &csp.frame_domains)),
        format!("base-uri {}", or("'self'", &csp.base_uri_domains)),
        "object-src 'none'".to_owned(),
        "form-action 'none'".to_owned(),
    ]
    .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn directive<'a>(policy: &'a str, name: &str) -> &'a str {
        policy
            .split("; ")
            .find(|d| d.split(' ').next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} in {policy}"))
    }

    #[test]
    fn the_default_is_the_specs_restrictive_policy() {
        let p = policy(&AppCsp::from_meta(&json!({})).expect("accepted"));
        assert_eq!(directive(&p, "default-src"), "default-src 'none'");
        assert_eq!(
            directive(&p, "script-src"),
            "script-src 'self' 'unsafe-inline'"
        );
        assert_eq!(
            directive(&p, "style-src"),
            "style-src 'self' 'unsafe-inline'"
        );
        assert_eq!(directive(&p, "img-src"), "img-src 'self' data:");
        assert_eq!(directive(&p, "media-src"), "media-src 'self' data:");
        assert_eq!(directive(&p, "connect-src"), "connect-src 'none'");
        assert_eq!(directive(&p, "frame-src"), "frame-src 'none'");
        assert_eq!(directive(&p, "base-uri"), "base-uri 'self'");
        assert_eq!(directive(&p, "object-src"), "object-src 'none'");
    }

    #[test]
    fn connect_domains_become_connect_src_only() {
        let csp = AppCsp::from_meta(&json!({
            "connectDomains": ["https://api.example.com", "wss://live.example.com"]
        }))
        .expect("accepted");
        let p = policy(&csp);
        assert_eq!(
            directive(&p, "connect-src"),
            "connect-src https://api.example.com wss://live.example.com"
        );
        assert!(!directive(&p, "script-src").contains("api.example.com"));
        assert!(!directive(&p, "frame-src").contains("api.example.com"));
    }

    #[test]
    fn resource_domains_widen_scripts_styles_images_fonts_and_media() {
        let csp = AppCsp::from_meta(&json!({
            "resourceDomains": ["https://cdn.example.com", "https://*.cloudflare.com"]
        }))
        .expect("accepted");
        let p = policy(&csp);
        for name in [
            "script-src",
            "style-src",
            "img-src",
            "font-src",
            "media-src",
        ] {
            let d = directive(&p, name);
            assert!(
                d.ends_with("https://cdn.example.com https://*.cloudflare.com"),
                "{d}"
            );
        }
        assert_eq!(directive(&p, "connect-src"), "connect-src 'none'");
    }

    #[test]
    fn frame_domains_replace_none_in_frame_src() {
        let csp = AppCsp::from_meta(&json!({ "frameDomains": ["https://www.youtube.com"] }))
            .expect("accepted");
        assert_eq!(
            directive(&policy(&csp), "frame-src"),
            "frame-src https://www.youtube.com"
        );
    }

    #[test]
    fn base_uri_domains_replace_self_in_base_uri() {
        let csp = AppCsp::from_meta(&json!({ "baseUriDomains": ["https://cdn.example.com"] }))
            .expect("accepted");
        assert_eq!(
            directive(&policy(&csp), "base-uri"),
            "base-uri https://cdn.example.com"
        );
    }

    #[test]
    fn entries_that_could_rewrite_the_policy_are_refused() {
        for bad in [
            "https://a.com; script-src *",
            "https://a.com'",
            "https://a.com\"",
            "https://a.com\r\nX-Injected: 1",
            "https://a.com\nframe-src *",
            "https://a.com https://b.com",
            "https://a.com,https://b.com",
        ] {
            let error =
                AppCsp::from_meta(&json!({ "connectDomains": [bad] })).expect_err("refused");
            assert!(
                matches!(
                    error,
                    CspError::Injection {
                        field: "connectDomains",
                        ..
                    }
                ),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn keywords_bare_schemes_and_wildcards_are_not_domains() {
        for bad in [
            "'unsafe-eval'",
            "*",
            "https:",
            "data:",
            "blob:",
            "javascript:alert(1)",
            "https://",
            "https://*",
            "ftp://example.com",
        ] {
            assert!(
                AppCsp::from_meta(&json!({ "resourceDomains": [bad] })).is_err(),
                "{bad} was accepted"
            );
        }
    }

    #[test]
    fn origins_with_ports_paths_and_loopback_are_accepted() {
        let csp = AppCsp::from_meta(&json!({ "connectDomains": [
            "http://127.0.0.1:8123", "https://api.example.com/v1/", "http://localhost:*", "http://[::1]:9000"
        ]})).expect("accepted");
        assert_eq!(csp.connect_domains.len(), 4);
    }

    #[test]
    fn a_field_that_is_not_a_list_of_strings_is_refused() {
        assert!(AppCsp::from_meta(&json!({ "connectDomains": "https://a.com" })).is_err());
        assert!(AppCsp::from_meta(&json!({ "frameDomains": [1] })).is_err());
        let many: Vec<String> = (0..=MAX_DOMAINS)
            .map(|i| format!("https://h{i}.example.com"))
            .collect();
        assert!(matches!(
            AppCsp::from_meta(&json!({ "resourceDomains": many })),
            Err(CspError::TooMany { .. })
        ));
    }
}
