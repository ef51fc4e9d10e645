//! Where metadata lives: the well-known URLs of Protected Resource Metadata (RFC 9728 §3.1) and
//! of authorization server metadata (RFC 8414 §3.1 and OpenID Connect Discovery, with path
//! insertion), in the order the MCP specification tries them (2025-11-25 basic/authorization,
//! "Protected Resource Metadata Discovery Requirements" and "Authorization Server Metadata
//! Discovery"). URLs are built as strings from the origin and the path, so nothing adds or drops
//! a slash on the way.

use url::Url;

const PRM_SUFFIX: &str = "/.well-known/oauth-protected-resource";
const OAUTH_SUFFIX: &str = "/.well-known/oauth-authorization-server";
const OIDC_SUFFIX: &str = "/.well-known/openid-configuration";

/// `scheme://host[:port]` of a URL, without a trailing slash.
pub fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// The path and query of `url` with any terminating slash removed; empty for a root URL
/// (RFC 9728 §3.1, RFC 8414 §3.1: "any terminating slash … MUST be removed").
fn path_and_query(url: &Url) -> String {
    let path = url.path().trim_end_matches('/');
    match url.query() {
        Some(query) => format!("{path}?{query}"),
        None => path.to_owned(),
    }
}

/// The Protected Resource Metadata URLs to try for an MCP endpoint when its 401 names none:
/// the path-based one first (if the endpoint has a path), then the root one.
pub fn protected_resource_urls(server: &Url) -> Vec<String> {
    let origin = origin(server);
    let path = path_and_query(server);
    let mut urls = Vec::with_capacity(2);
    if !path.is_empty() {
        urls.push(format!("{origin}{PRM_SUFFIX}{path}"));
    }
    urls.push(format!("{origin}{PRM_SUFFIX}"));
    urls
}

/// The authorization server metadata URLs to try for `issuer`, in priority order: for an issuer
/// with a path, RFC 8414 with path insertion, OIDC with path insertion, OIDC with the path
/// appended; for a root issuer, RFC 8414 then OIDC.
pub fn authorization_server_urls(issuer: &Url) -> Vec<String> {
    let origin = origin(issuer);
    let path = path_and_query(issuer);
    if path.is_empty() {
        vec![
            format!("{origin}{OAUTH_SUFFIX}"),
            format!("{origin}{OIDC_SUFFIX}"),
        ]
    } else {
        vec![
            format!("{origin}{OAUTH_SUFFIX}{path}"),
            format!("{origin}{OIDC_SUFFIX}{path}"),
            format!("{origin}{path}{OIDC_SUFFIX}"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("a URL")
    }

    #[test]
    fn protected_resource_metadata_is_tried_path_based_then_at_the_root() {
        assert_eq!(
            protected_resource_urls(&url("https://example.com/public/mcp")),
            [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            protected_resource_urls(&url("http://localhost:3000/mcp/")),
            [
                "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
                "http://localhost:3000/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            protected_resource_urls(&url("https://example.com")),
            ["https://example.com/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn an_issuer_with_a_path_gets_path_insertion_then_oidc_appending() {
        assert_eq!(
            authorization_server_urls(&url("https://auth.example.com/tenant1")),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn a_root_issuer_gets_oauth_then_oidc_and_keeps_its_port() {
        assert_eq!(
            authorization_server_urls(&url("http://localhost:4123")),
            [
                "http://localhost:4123/.well-known/oauth-authorization-server",
                "http://localhost:4123/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            authorization_server_urls(&url("https://auth.example.com/")),
            authorization_server_urls(&url("https://auth.example.com"))
        );
    }
}
