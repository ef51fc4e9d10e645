//! The resource indicator (RFC 8707) an MCP client sends, and whether Protected Resource
//! Metadata really describes the server being connected to (RFC 9728 §3.3, §7.3).
//!
//! The `resource` sent on the authorization and token requests is the PRM `resource` string
//! exactly as the server published it: `url::Url` would turn `http://host:1` into
//! `http://host:1/`, and authorization servers compare byte for byte. Without PRM (2025-03-26
//! servers) it is the canonical server URI (2025-11-25 basic/authorization, "Canonical Server
//! URI"): no fragment, no trailing slash after a bare origin.

use url::Url;

/// The canonical URI of an MCP endpoint, for when no metadata names the resource.
pub fn canonical(server: &Url) -> String {
    let mut url = server.clone();
    url.set_fragment(None);
    let text = url.to_string();
    if url.path() == "/" && url.query().is_none() {
        text.trim_end_matches('/').to_owned()
    } else {
        text
    }
}

/// Whether `resource` (a PRM `resource` value) identifies `server`: same scheme, host and port,
/// and a path that is the server's path or a parent of it at a segment boundary (a PRM served at
/// the root describes `https://host`, which covers `https://host/mcp`). No fragment allowed.
pub fn identifies(resource: &str, server: &Url) -> bool {
    let Ok(parsed) = Url::parse(resource) else {
        return false;
    };
    if parsed.fragment().is_some()
        || parsed.scheme() != server.scheme()
        || parsed.host_str() != server.host_str()
        || parsed.port_or_known_default() != server.port_or_known_default()
    {
        return false;
    }
    let wanted = parsed.path().trim_end_matches('/');
    let have = server.path().trim_end_matches('/');
    wanted.is_empty()
        || have == wanted
        || have
            .strip_prefix(wanted)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("a URL")
    }

    #[test]
    fn canonical_form_drops_the_slash_after_a_bare_origin_and_the_fragment() {
        assert_eq!(
            canonical(&url("https://mcp.example.com")),
            "https://mcp.example.com"
        );
        assert_eq!(
            canonical(&url("https://mcp.example.com/")),
            "https://mcp.example.com"
        );
        assert_eq!(
            canonical(&url("http://localhost:3000/mcp#x")),
            "http://localhost:3000/mcp"
        );
        assert_eq!(
            canonical(&url("https://MCP.example.com:8443/server/mcp")),
            "https://mcp.example.com:8443/server/mcp"
        );
    }

    #[test]
    fn the_same_endpoint_or_a_parent_path_on_the_same_origin_identifies_the_server() {
        let server = url("http://localhost:3000/mcp");
        assert!(identifies("http://localhost:3000/mcp", &server));
        assert!(identifies("http://localhost:3000", &server));
        assert!(identifies("http://localhost:3000/", &server));
        assert!(identifies("HTTP://LOCALHOST:3000/mcp", &server));
    }

    #[test]
    fn another_origin_path_or_a_fragment_does_not() {
        let server = url("http://localhost:3000/mcp");
        assert!(!identifies("https://evil.example.com/mcp", &server));
        assert!(!identifies("http://localhost:3001/mcp", &server));
        assert!(!identifies("https://localhost:3000/mcp", &server));
        assert!(!identifies("http://localhost:3000/mcp-other", &server));
        assert!(!identifies("http://localhost:3000/mcp/deeper", &server));
        assert!(!identifies("http://localhost:3000/mcp#frag", &server));
        assert!(!identifies("not a url", &server));
    }
}
