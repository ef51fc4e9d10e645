//! Finding the authorization server of an MCP server (2025-11-25 basic/authorization,
//! "Authorization Server Discovery"; 2026-07-28 authorization-server-discovery):
//!
//! 1. Protected Resource Metadata from the challenge's `resource_metadata`, else the path-based
//!    then the root well-known URL (RFC 9728 §3). Its `resource` must identify this server, or
//!    nothing more happens (RFC 9728 §7.3: a mismatch may be an attack).
//! 2. The first of its `authorization_servers`; its metadata from the RFC 8414 / OIDC URLs in the
//!    specification's order. The document's `issuer` must be the issuer it was looked up for
//!    (RFC 8414 §3.3), or it is not used. Its issuer and endpoints must be HTTPS (plain HTTP
//!    only on the loopback interface), or it is not used either.
//! 3. No PRM at all: a 2025-03-26 server. Its origin is the authorization server; metadata at
//!    `<origin>/.well-known/oauth-authorization-server`, else the default `/authorize`, `/token`,
//!    `/register` (2025-03-26 basic/authorization, "Server Metadata Discovery" and "Fallbacks for
//!    Servers without Metadata Discovery").

use url::Url;

use super::AuthError;
use super::challenge::BearerChallenge;
use super::metadata::{self, AuthorizationServerMetadata, Fetched, ProtectedResourceMetadata};
use super::{resource, well_known};

/// Where to authorize for one MCP server.
#[derive(Debug, Clone)]
pub struct Discovery {
    /// The `resource` to send: the PRM's value exactly, or the canonical server URI.
    pub resource: String,
    pub protected_resource: Option<ProtectedResourceMetadata>,
    pub authorization_server: AuthorizationServerMetadata,
}

impl Discovery {
    pub fn issuer(&self) -> &str {
        &self.authorization_server.issuer
    }
}

pub async fn discover(
    http: &reqwest::Client,
    server: &Url,
    challenge: Option<&BearerChallenge>,
) -> Result<Discovery, AuthError> {
    match protected_resource(http, server, challenge).await? {
        Some((url, prm)) => {
            if !resource::identifies(&prm.resource, server) {
                return Err(AuthError::ResourceMismatch {
                    metadata_url: url,
                    resource: prm.resource,
                    server: server.to_string(),
                });
            }
            // RFC 9728 §7.6 leaves the choice to the client; the first is the server's preference.
            let issuer = prm.authorization_servers.first().cloned().ok_or_else(|| {
                AuthError::Discovery(format!("{url} names no authorization server"))
            })?;
            let authorization_server = authorization_server(http, &issuer).await?;
            Ok(Discovery {
                resource: prm.resource.clone(),
                protected_resource: Some(prm),
                authorization_server,
            })
        }
        None => legacy(http, server).await,
    }
}

/// The first PRM document found, and where.
async fn protected_resource(
    http: &reqwest::Client,
    server: &Url,
    challenge: Option<&BearerChallenge>,
) -> Result<Option<(String, ProtectedResourceMetadata)>, AuthError> {
    let from_header = challenge.and_then(|c| c.resource_metadata.clone());
    let candidates = from_header
        .into_iter()
        .chain(well_known::protected_resource_urls(server));
    for url in candidates {
        match metadata::fetch::<ProtectedResourceMetadata>(http, &url).await {
            Fetched::Found(prm) => return Ok(Some((url, prm))),
            Fetched::Absent(status) => {
                tracing::debug!("no resource metadata at {url} (HTTP {status})")
            }
            Fetched::Failed(e) => tracing::debug!("resource metadata: {e}"),
        }
    }
    Ok(None)
}

/// The metadata of `issuer`, from the first well-known URL that has it.
async fn authorization_server(
    http: &reqwest::Client,
    issuer: &str,
) -> Result<AuthorizationServerMetadata, AuthError> {
    let issuer_url = Url::parse(issuer).map_err(|e| {
        AuthError::Discovery(format!("invalid authorization server `{issuer}`: {e}"))
    })?;
    let mut problems = Vec::new();
    for url in well_known::authorization_server_urls(&issuer_url) {
        match metadata::fetch::<AuthorizationServerMetadata>(http, &url).await {
            Fetched::Found(found) => return checked(found, issuer, &url),
            Fetched::Absent(status) => problems.push(format!("{url}: HTTP {status}")),
            Fetched::Failed(e) => problems.push(e),
        }
    }
    Err(AuthError::Discovery(format!(
        "no metadata for authorization server {issuer} ({})",
        problems.join("; ")
    )))
}

/// RFC 8414 §3.3: the document's issuer must be, character for character, the one looked up.
/// Then [`over_https`].
pub(crate) fn checked(
    found: AuthorizationServerMetadata,
    issuer: &str,
    url: &str,
) -> Result<AuthorizationServerMetadata, AuthError> {
    if found.issuer != issuer {
        return Err(AuthError::IssuerMismatch {
            metadata_url: url.to_owned(),
            claimed: found.issuer,
            expected: issuer.to_owned(),
        });
    }
    over_https(found)
}

/// The authorization server's issuer and endpoints must be HTTPS, or plain HTTP only on the
/// loopback interface (a server on the same machine, as in tests): codes, tokens and client
/// secrets never go over cleartext to another host (2025-11-25 basic/authorization,
/// "Communication Security": "All authorization server endpoints MUST be served over HTTPS").
fn over_https(
    metadata: AuthorizationServerMetadata,
) -> Result<AuthorizationServerMetadata, AuthError> {
    let endpoints = [
        ("issuer", Some(&metadata.issuer)),
        (
            "authorization endpoint",
            Some(&metadata.authorization_endpoint),
        ),
        ("token endpoint", Some(&metadata.token_endpoint)),
        (
            "registration endpoint",
            metadata.registration_endpoint.as_ref(),
        ),
    ];
    for (what, url) in endpoints {
        let Some(url) = url else { continue };
        let secure = Url::parse(url)
            .is_ok_and(|u| u.scheme() == "https" || (u.scheme() == "http" && is_loopback(&u)));
        if !secure {
            return Err(AuthError::Discovery(format!(
                "the {what} of authorization server {} is `{url}`, not HTTPS; \
                 not authorizing over cleartext",
                metadata.issuer
            )));
        }
    }
    Ok(metadata)
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// A server without Protected Resource Metadata (the 2025-03-26 revision).
async fn legacy(http: &reqwest::Client, server: &Url) -> Result<Discovery, AuthError> {
    let origin = well_known::origin(server);
    let url = format!("{origin}/.well-known/oauth-authorization-server");
    let authorization_server = match metadata::fetch::<AuthorizationServerMetadata>(http, &url)
        .await
    {
        Fetched::Found(found) => checked(found, &origin, &url)?,
        Fetched::Absent(status) => {
            tracing::debug!("no metadata at {url} (HTTP {status}); using the default endpoints");
            over_https(AuthorizationServerMetadata::default_endpoints(&origin))?
        }
        Fetched::Failed(e) => return Err(AuthError::Discovery(e)),
    };
    Ok(Discovery {
        resource: resource::canonical(server),
        protected_resource: None,
        authorization_server,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata_at(origin: &str) -> AuthorizationServerMetadata {
        AuthorizationServerMetadata::default_endpoints(origin)
    }

    #[test]
    fn metadata_naming_another_issuer_is_not_used() {
        let found = metadata_at("https://attacker.example");
        let result = checked(
            found,
            "https://honest.example",
            "https://honest.example/.wk",
        );
        assert!(matches!(result, Err(AuthError::IssuerMismatch { .. })));
    }

    #[test]
    fn cleartext_endpoints_are_refused_except_on_the_loopback_interface() {
        for origin in [
            "https://as.example",
            "https://as.example:8443",
            "http://127.0.0.1:8080",
            "http://localhost:9000",
            "http://[::1]:1",
        ] {
            let found = metadata_at(origin);
            assert!(checked(found, origin, "x").is_ok(), "{origin}");
        }
        for origin in ["http://as.example", "http://10.0.0.5:8080"] {
            let found = metadata_at(origin);
            let error = checked(found, origin, "x").expect_err(origin).to_string();
            assert!(error.contains("HTTPS"), "{error}");
        }
        // An HTTPS issuer whose token endpoint is plain HTTP elsewhere.
        let mut found = metadata_at("https://as.example");
        found.token_endpoint = "http://as.example/token".into();
        let error = checked(found, "https://as.example", "x")
            .expect_err("a cleartext token endpoint")
            .to_string();
        assert!(error.contains("token endpoint"), "{error}");
    }
}
