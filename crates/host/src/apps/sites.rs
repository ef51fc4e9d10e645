//! The person's global lists of outside sites app views may reach, and how they narrow what a
//! view declares (SEP-1865 "UI Resource Format": a host may restrict the declared domains
//! further, never widen them; the ext-apps host catalogue's `security/global-allowlist`).
//!
//! An entry is a domain (`example.com`), covering itself and every subdomain. A declared
//! source is withheld from the view's policy when a block entry covers its host, or when its
//! wildcard (`https://*.example.com`) would reach a blocked subdomain; and, when the allow list
//! is not empty, when no allow entry covers its host. Withholding only ever tightens the policy.
//!
//! Sources on the person's own machine or private networks, and wildcards over a whole public
//! suffix, are refused even with no lists at all, unless an allow entry covers them (see
//! [`super::source_risk`]).

use serde::{Deserialize, Serialize};

use super::csp::AppCsp;
use super::source_risk;
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
    /// What becomes of the declared `source` in a view's policy.
    pub fn reach(&self, source: &str) -> Reach {
        let (host, wildcard) = source_host(source);
        let blocked = self
            .block
            .iter()
            .any(|b| covers(b, &host) || (wildcard && covers(&host, b)));
        let allowed_by_entry = self.allow.iter().any(|a| covers(a, &host));
        if blocked {
            Reach::Withheld
        } else if let Some(why) = source_risk::risk(&host, wildcard)
            && !allowed_by_entry
        {
            Reach::Refused(why)
        } else if self.allow.is_empty() || allowed_by_entry {
            Reach::Keep
        } else {
            Reach::Withheld
        }
    }

    /// Whether a view may keep the declared `source`.
    pub fn permits(&self, source: &str) -> bool {
        self.reach(source) == Reach::Keep
    }

    /// `csp` with what may not stay taken out, and the sources taken out (each once, in the order
    /// first met): those the lists withheld, and those refused with the reason.
    pub fn narrow(&self, csp: &AppCsp) -> Narrowed {
        let mut withheld: Vec<String> = Vec::new();
        let mut refused: Vec<String> = Vec::new();
        let mut keep = |sources: &[String]| {
            sources
                .iter()
                .filter(|source| {
                    let reach = self.reach(source);
                    let out = match reach {
                        Reach::Keep => return true,
                        Reach::Withheld => (*source).clone(),
                        Reach::Refused(why) => format!("{source} ({why})"),
                    };
                    let list = match reach {
                        Reach::Refused(_) => &mut refused,
                        _ => &mut withheld,
                    };
                    if !list.contains(&out) {
                        list.push(out);
                    }
                    false
                })
                .cloned()
                .collect::<Vec<_>>()
        };
        let csp = AppCsp {
            connect_domains: keep(&csp.connect_domains),
            resource_domains: keep(&csp.resource_domains),
            frame_domains: keep(&csp.frame_domains),
            base_uri_domains: keep(&csp.base_uri_domains),
        };
        Narrowed {
            csp,
            withheld,
            refused,
        }
    }
}

/// What becomes of one declared source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    Keep,
    /// Taken out by the person's lists.
    Withheld,
    /// Taken out because of where it leads (see [`source_risk`]), with why.
    Refused(&'static str),
}

/// A view's declared sources after the lists and the refusals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Narrowed {
    pub csp: AppCsp,
    /// Sources the person's lists took out.
    pub withheld: Vec<String>,
    /// Sources refused, each as `source (why)`.
    pub refused: Vec<String>,
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
        let Narrowed {
            csp: narrowed,
            withheld,
            refused,
        } = sites(&[], &["tracker.net"]).narrow(&csp);
        assert!(refused.is_empty());
        assert_eq!(narrowed.connect_domains, ["https://api.example.com"]);
        assert_eq!(narrowed.resource_domains, ["https://cdn.example.com"]);
        assert!(narrowed.frame_domains.is_empty());
        assert_eq!(withheld, ["https://tracker.net"]);
        let policy = super::super::csp::policy(&narrowed);
        assert!(policy.contains("frame-src 'none'"), "{policy}");
        assert!(!policy.contains("tracker.net"), "{policy}");
    }

    #[test]
    fn local_private_and_whole_suffix_sources_are_refused_unless_an_allow_entry_covers_them() {
        let none = AppSites::default();
        for (source, why) in [
            ("http://localhost:3000", "loopback"),
            ("ws://127.0.0.1:9229", "loopback"),
            ("http://2130706433", "loopback"),
            ("https://192.168.1.1", "private network"),
            ("https://[fd00::1]:8443", "private network"),
            ("https://printer.local", "private network"),
            ("https://*.com", "public suffix"),
            ("https://*.co.uk", "public suffix"),
        ] {
            match none.reach(source) {
                Reach::Refused(reason) => assert!(reason.contains(why), "{source}: {reason}"),
                other => panic!("{source} was not refused: {other:?}"),
            }
        }
        assert_eq!(none.reach("https://*.example.com"), Reach::Keep);
        let allowed = sites(&["localhost", "192.168.1.1"], &[]);
        assert_eq!(allowed.reach("http://localhost:3000"), Reach::Keep);
        assert_eq!(allowed.reach("https://192.168.1.1"), Reach::Keep);
        assert!(matches!(
            allowed.reach("https://10.0.0.1"),
            Reach::Refused(_)
        ));
        let blocked = sites(&["localhost"], &["localhost"]);
        assert_eq!(blocked.reach("http://localhost:3000"), Reach::Withheld);
        let narrowed = none.narrow(&AppCsp {
            connect_domains: vec![
                "https://api.example.com".into(),
                "http://localhost:3000".into(),
            ],
            resource_domains: vec!["https://*.com".into()],
            frame_domains: vec![],
            base_uri_domains: vec![],
        });
        assert_eq!(narrowed.csp.connect_domains, ["https://api.example.com"]);
        assert!(narrowed.csp.resource_domains.is_empty());
        assert!(narrowed.withheld.is_empty());
        assert_eq!(
            narrowed.refused,
            [
                "http://localhost:3000 (this computer (loopback))",
                "https://*.com (a wildcard over a whole public suffix)"
            ]
        );
    }
}
