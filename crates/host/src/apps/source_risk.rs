//! Declared sources no app view reaches unless the person allows them under App sites: the person's
//! own machine (loopback), their private networks (RFC 1918, link-local, carrier-grade NAT, IPv6
//! unique-local and link-local, `.local`, `.internal`, `home.arpa`), and wildcards over a whole
//! public suffix (the `psl` crate; `https://*.com`, `https://*.co.uk`, `https://*.github.io`),
//! which would reach every site registered under it. A page from a remote server has no business
//! with the first two (routers, development servers, other local services answer there), and the
//! last is no restriction at all.
//!
//! Hosts are read the way the browser reads them (the WHATWG URL parser of the `url` crate), so
//! `http://2130706433` and `http://0x7f.1` are the loopback address they are.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why a declared source is refused, if it is.
pub fn risk(host: &str, wildcard: bool) -> Option<&'static str> {
    let parsed = url::Url::parse(&format!("http://{host}/")).ok()?;
    match parsed.host()? {
        url::Host::Ipv4(ip) => ip_risk(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => ip_risk(IpAddr::V6(ip)),
        url::Host::Domain(name) => {
            let name = name.trim_end_matches('.');
            if name == "localhost" || name.ends_with(".localhost") {
                Some("this computer (loopback)")
            } else if [".local", ".internal", ".lan", ".home.arpa"]
                .iter()
                .any(|suffix| name.ends_with(suffix))
                || name == "home.arpa"
            {
                Some("a private network name")
            } else if wildcard && whole_suffix(name) {
                Some("a wildcard over a whole public suffix")
            } else {
                None
            }
        }
    }
}

/// Whether `name` is itself a public suffix (a known one, or a single label, which the list's
/// default rule treats as one).
fn whole_suffix(name: &str) -> bool {
    !name.contains('.') || psl::suffix_str(name) == Some(name)
}

fn ip_risk(ip: IpAddr) -> Option<&'static str> {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    match ip {
        IpAddr::V4(v4) if v4.is_loopback() || v4.is_unspecified() => {
            Some("this computer (loopback)")
        }
        IpAddr::V4(v4) if private_v4(v4) => Some("a private network address"),
        IpAddr::V6(v6) if v6.is_loopback() || v6.is_unspecified() => {
            Some("this computer (loopback)")
        }
        IpAddr::V6(v6) if private_v6(v6) => Some("a private network address"),
        _ => None,
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_private() || ip.is_link_local() || (a == 100 && (64..128).contains(&b))
}

fn private_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    // fc00::/7 unique local, fe80::/10 link-local.
    (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
}

#[cfg(test)]
mod tests {
    use super::risk;

    #[test]
    fn loopback_in_every_spelling_is_refused() {
        for host in [
            "localhost",
            "api.localhost",
            "127.0.0.1",
            "127.8.9.10",
            "2130706433",
            "0x7f.1",
            "127.1",
            "0.0.0.0",
            "[::1]",
            "[::ffff:127.0.0.1]",
            "[::]",
        ] {
            assert_eq!(
                risk(host, false),
                Some("this computer (loopback)"),
                "{host}"
            );
        }
    }

    #[test]
    fn private_networks_are_refused() {
        for host in [
            "10.0.0.1",
            "172.16.5.4",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "[fd00::1]",
            "[fe80::1]",
            "[::ffff:192.168.0.1]",
        ] {
            assert_eq!(
                risk(host, false),
                Some("a private network address"),
                "{host}"
            );
        }
        for host in [
            "printer.local",
            "db.internal",
            "nas.home.arpa",
            "router.lan",
        ] {
            assert_eq!(risk(host, false), Some("a private network name"), "{host}");
        }
    }

    #[test]
    fn a_wildcard_over_a_whole_public_suffix_is_refused() {
        for host in ["com", "co.uk", "github.io", "test", "io"] {
            assert_eq!(
                risk(host, true),
                Some("a wildcard over a whole public suffix"),
                "*.{host}"
            );
        }
        assert_eq!(risk("example.com", true), None);
        assert_eq!(risk("example.co.uk", true), None);
        assert_eq!(risk("me.github.io", true), None);
    }

    #[test]
    fn public_sites_are_not_refused() {
        for host in [
            "api.example.com",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "[2001:db8::1]",
            "com.example.org",
        ] {
            assert_eq!(risk(host, false), None, "{host}");
        }
    }
}
