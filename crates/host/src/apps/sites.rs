//! The person's global lists of outside sites app views may reach, and how they narrow what a
//! view declares (SEP-1865 "UI Resource Format": a host may restrict the declared domains
//! further, never widen them; the ext-apps host catalogue's `security/global-allowlist`).
//!
//! An entry is a domain (`example.com`), covering itself and every subdomain. A declared
//! source is withheld from the view's policy when a block entry covers its host, or when its
//! wildcard (`https://*.example.com`) would reach a blocked subdomain; and, when the allow list
//! is not empty, when no allow entry covers its host. Withholding only ever tightens the policy.

use serde::{Deserialize, Serialize};

use super::csp::AppCsp;
use crate::error::{HostError, Result};

/// Which list a domain is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum SiteList {
    /// When the allow list has any entry, views reach only the declared sites it covers.
    Allow,
    /// Views never reach the sites it covers, whatever they declare.
    Block,
}

impl SiteList {
    pub fn as_str(self) -> &'static str {
        match self {
            SiteList::Allow => "allow",
            SiteList::Block => "block",
        }
    }

    pub fn parse(text: &str) -> Result<SiteList> {
        match text {
            "allow" => Ok(SiteList::Allow),
            "block" => Ok(SiteList::Block),
            other => Err(HostError::Corrupt(format!(
                "unknown app site list `{other}`"
            ))),
        }
    }
}

/// Both lists, each sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AppSites {
    pub allow: Vec<String>,
    pub block: Vec<String>,
}

/// Longest domain accepted (RFC 1035's limit).
const MAX_DOMAIN: usize = 253;

/// A domain as the person typed it, made canonical (lower case, no trailing dot); a URL such as
/// `https://api.example.com/x` gives its host. Anything else is refused, saying what is wanted.
pub fn domain(input: &str) -> Result<String> {
    let refuse = || {
        HostError::Validation(format!(
            "`{input}` is not a domain: give one such as example.com (it covers its subdomains too)"
        ))
    };
    let text = input.trim();
    let text = text.split_once("://").map_or(text, |(_, rest)| rest);
    let host = text.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match host.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => host,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let labels_ok = host.split('.').all(|label| {
        !label.is_empty()
            && label.len() <= 63
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    });
    if host.is_empty() || host.len() > MAX_DOMAIN || !labels_ok {
        return Err(refuse());
    }
    Ok(host)
}

/// Whether `entry` covers `host`: the same domain, or a subdomain of it.
fn covers(entry: &str, host: &str) -> bool {
    host == entry
        || host
            .strip_suffix(entry)
            .is_some_and(|rest| rest.ends_with('.'))
}

/// The host of a declared source (`https://*.example.com:8443/path`), lower case, and whether it
/// is a wildcard.
fn source_host(source: &str) -> (String, bool) {
    let rest = source.split_once("://").map_or(source, |(_, rest)| rest);
    let authority = rest.split('/').next().unwrap_or_default();
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port == "*" || port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    };
    let host = host.to_ascii_lowercase();
    match host.strip_prefix("*.") {
        Some(base) => (base.to_owned(), true),
        None => (host, false),
    }
}

impl AppSites {
    /// Whether a view may keep the declared `source`.
    pub fn permits(&self, source: &str) -> bool {
        let (host, wildcard) = source_host(source);
        let blocked = self
            .block
            .iter()
            .any(|b| covers(b, &host) || (wildcard && covers(&host, b)));
        let allowed = self.allow.is_empty() || self.allow.iter().any(|a| covers(a, &host));
        !blocked && allowed
    }

    /// `csp` with what the lists do not permit taken out, and the sources taken out (each once,
    /// in the order first met).
    pub fn narrow(&self, csp: &AppCsp) -> (AppCsp, Vec<String>) {
        let mut withheld: Vec<String> = Vec::new();
        let mut keep = |sources: &[String]| {
            sources
                .iter()
                .filter(|source| {
                    let permitted = self.permits(source);
                    if !permitted && !withheld.contains(source) {
                        withheld.push((*source).clone());
                    }
                    permitted
                })
                .cloned()
                .collect::<Vec<_>>()
        };
        let narrowed = AppCsp {
            connect_domains: keep(&csp.connect_domains),
            resource_domains: keep(&csp.resource_domains),
            frame_domains: keep(&csp.frame_domains),
            base_uri_domains: keep(&csp.base_uri_domains),
        };
        (narrowed, withheld)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sites(allow: &[&str], block: &[&str]) -> AppSites {
        AppSites {
            allow: allow.iter().map(|s| (*s).to_owned()).collect(),
            block: block.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn a_domain_is_made_canonical_and_anything_else_refused() {
        assert_eq!(domain("Example.COM.").ok().as_deref(), Some("example.com"));
        assert_eq!(
            domain(" https://api.example.com:8443/v1?q=1 ")
                .ok()
                .as_deref(),
            Some("api.example.com")
        );
        assert_eq!(domain("127.0.0.1").ok().as_deref(), Some("127.0.0.1"));
        for bad in [
            "",
            "*",
            "*.example.com",
            "exa mple.com",
            "example..com",
            "-bad.com",
            "a;b.com",
            "'self'",
            "https://",
        ] {
            assert!(domain(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn no_lists_permit_everything_declared() {
        assert!(AppSites::default().permits("https://api.example.com"));
        assert!(AppSites::default().permits("https://*.example.com"));
    }

    #[test]
    fn a_block_entry_withholds_its_domain_its_subdomains_and_wildcards_over_it() {
        let lists = sites(&[], &["tracker.example.com"]);
        assert!(!lists.permits("https://tracker.example.com"));
        assert!(!lists.permits("https://eu.tracker.example.com:443"));
        assert!(!lists.permits("wss://TRACKER.example.com/socket"));
        // The wildcard would reach the blocked subdomain, so it goes as a whole.
        assert!(!lists.permits("https://*.example.com"));
        assert!(lists.permits("https://api.example.com"));
        assert!(lists.permits("https://example.com"));
        // A look-alike is not a subdomain.
        assert!(lists.permits("https://nottracker.example.com"));
    }

    #[test]
    fn a_non_empty_allow_list_keeps_only_what_it_covers_and_block_wins() {
        let lists = sites(&["example.com"], &["ads.example.com"]);
        assert!(lists.permits("https://api.example.com"));
        assert!(!lists.permits("https://*.example.com"));
        assert!(!lists.permits("https://ads.example.com"));
        assert!(!lists.permits("https://cdn.other.org"));
        assert!(!lists.permits("https://example.com.evil.org"));
        let only_allow = sites(&["example.com"], &[]);
        assert!(only_allow.permits("https://*.example.com"));
    }

    #[test]
    fn narrowing_takes_withheld_sources_out_of_every_field_and_names_them_once() {
        let csp = AppCsp {
            connect_domains: vec![
                "https://api.example.com".into(),
                "https://tracker.net".into(),
            ],
            resource_domains: vec![
                "https://tracker.net".into(),
                "https://cdn.example.com".into(),
            ],
            frame_domains: vec!["https://tracker.net".into()],
            base_uri_domains: vec![],
        };
        let (narrowed, withheld) = sites(&[], &["tracker.net"]).narrow(&csp);
        assert_eq!(narrowed.connect_domains, ["https://api.example.com"]);
        assert_eq!(narrowed.resource_domains, ["https://cdn.example.com"]);
        assert!(narrowed.frame_domains.is_empty());
        assert_eq!(withheld, ["https://tracker.net"]);
        let policy = super::super::csp::policy(&narrowed);
        assert!(policy.contains("frame-src 'none'"), "{policy}");
        assert!(!policy.contains("tracker.net"), "{policy}");
    }
}
