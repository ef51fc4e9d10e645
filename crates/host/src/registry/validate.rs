//! Validation and normalisation of server configurations. Every rule gives a message that says
//! what is wrong and how to fix it, because users see these verbatim in the form and the CLI.

use std::path::Path;

use crate::error::{HostError, Result};
use crate::registry::model::{
    EnvVar, HttpHeader, OAuthClientSettings, OAuthGrant, ServerInput, ServerSpec, StopGrace,
};
use crate::roots;

const MAX_NAME_LEN: usize = 64;

/// Headers the HTTP transports set themselves; a config may not override them.
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "content-length",
    "host",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
];

/// Checks `input` and returns it trimmed and normalised.
pub fn validate(input: ServerInput) -> Result<ServerInput> {
    let name = validate_name(&input.name)?;
    let spec = match input.spec {
        ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
            stop,
        } => validate_stdio(command, args, env, cwd, stop)?,
        ServerSpec::Http {
            url,
            transport,
            headers,
            oauth,
        } => ServerSpec::Http {
            url: validate_url(&url)?,
            transport,
            headers: validate_headers(headers)?,
            oauth: validate_oauth(oauth)?,
        },
    };
    Ok(ServerInput {
        name,
        enabled: input.enabled,
        roots: validate_roots(&input.roots)?,
        spec,
    })
}

fn invalid(message: impl Into<String>) -> HostError {
    HostError::Validation(message.into())
}

fn validate_name(raw: &str) -> Result<String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(invalid("the server name must not be empty"));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(invalid(format!(
            "the server name must be at most {MAX_NAME_LEN} characters"
        )));
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
    if !name.chars().next().is_some_and(char::is_alphanumeric) || !name.chars().all(allowed) {
        return Err(invalid(format!(
            "invalid server name `{name}`: use letters, digits, `-`, `_` and `.`, starting with a letter or digit"
        )));
    }
    Ok(name.to_owned())
}

fn validate_stdio(
    command: String,
    args: Vec<String>,
    env: Vec<EnvVar>,
    cwd: Option<String>,
    stop: StopGrace,
) -> Result<ServerSpec> {
    let command = command.trim().to_owned();
    if command.is_empty() {
        return Err(invalid("the command must not be empty"));
    }
    if command.contains('\0') || args.iter().any(|a| a.contains('\0')) {
        return Err(invalid(
            "the command and its arguments must not contain NUL characters",
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for var in &env {
        let key = var.key.as_str();
        if key.is_empty() || key.contains('=') || key.contains('\0') || key.trim() != key {
            return Err(invalid(format!(
                "invalid environment variable name `{key}`: it must be non-empty, without `=`, spaces or NUL"
            )));
        }
        if var.value.contains('\0') {
            return Err(invalid(format!(
                "the value of `{key}` must not contain NUL characters"
            )));
        }
        if !seen.insert(key) {
            return Err(invalid(format!(
                "the environment variable `{key}` is set twice"
            )));
        }
    }
    let cwd = cwd.map(|c| c.trim().to_owned()).filter(|c| !c.is_empty());
    if let Some(dir) = &cwd
        && !Path::new(dir).is_absolute()
    {
        return Err(invalid(format!(
            "the working directory `{dir}` must be an absolute path"
        )));
    }
    if stop.stdin_ms > StopGrace::MAX_MS || stop.term_ms > StopGrace::MAX_MS {
        return Err(invalid(format!(
            "a stop wait must be at most {} seconds",
            StopGrace::MAX_MS / 1000
        )));
    }
    Ok(ServerSpec::Stdio {
        command,
        args,
        env,
        cwd,
        stop,
    })
}

/// Roots as normalised `file://` URIs of absolute local paths without `..`, without
/// duplicates, at most [`roots::MAX_ROOTS`] (2025-11-25 client/roots: "The uri MUST be a
/// file:// URI"; "Security Considerations": clients MUST "validate all root URIs to prevent
/// path traversal"). Whether each exists is checked when it is given ([`roots::expose`]).
fn validate_roots(raw_roots: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for raw in raw_roots.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        let uri = roots::validated(raw).map_err(invalid)?;
        if !out.contains(&uri) {
            out.push(uri);
        }
    }
    if out.len() > roots::MAX_ROOTS {
        return Err(invalid(format!(
            "a server may have at most {} roots",
            roots::MAX_ROOTS
        )));
    }
    Ok(out)
}

fn validate_url(raw: &str) -> Result<String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(invalid("the URL must not be empty"));
    }
    let url = url::Url::parse(raw).map_err(|e| invalid(format!("invalid URL `{raw}`: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid(format!(
            "invalid URL `{raw}`: the scheme must be http or https"
        )));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid(format!("invalid URL `{raw}`: it has no host")));
    }
    Ok(url.to_string())
}

/// The OAuth client settings trimmed, empty ones dropped (an empty secret stays: on edit it
/// keeps the one in the keyring). A client id is bound to its issuer, and a secret to its
/// client id; URLs as the authorization spec wants them. The issuer is kept as typed: it is
/// compared with the metadata's byte for byte.
fn validate_oauth(oauth: OAuthClientSettings) -> Result<OAuthClientSettings> {
    let given = |v: Option<String>| v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let settings = OAuthClientSettings {
        issuer: given(oauth.issuer),
        client_id: given(oauth.client_id),
        client_secret: oauth.client_secret.map(|s| s.trim().to_owned()),
        client_metadata_url: given(oauth.client_metadata_url),
        grant: oauth.grant,
        private_key: oauth.private_key.map(|s| s.trim().to_owned()),
        assertion_file: given(oauth.assertion_file),
        idp_issuer: given(oauth.idp_issuer),
        idp_client_id: given(oauth.idp_client_id),
        idp_client_secret: oauth.idp_client_secret.map(|s| s.trim().to_owned()),
    };
    match settings.grant {
        OAuthGrant::ClientCredentials
            if settings.client_id.is_none()
                || (settings.client_secret.is_none() && settings.private_key.is_none()) =>
        {
            return Err(invalid(
                "the client credentials grant needs a pre-registered client: its issuer, client id, and its secret or private key",
            ));
        }
        OAuthGrant::JwtBearer if settings.client_id.is_none() => {
            return Err(invalid(
                "the JWT-bearer grant (workload identity) needs the client registered for the workload at the server's authorization server: its issuer and client id",
            ));
        }
        OAuthGrant::JwtBearer if settings.assertion_file.is_none() => {
            return Err(invalid(
                "the JWT-bearer grant (workload identity) needs the path of the file holding the workload's JWT",
            ));
        }
        OAuthGrant::EnterpriseManaged if settings.client_id.is_none() => {
            return Err(invalid(
                "enterprise-managed authorization needs Gatehouse's client at the server's authorization server: its issuer and client id",
            ));
        }
        OAuthGrant::EnterpriseManaged
            if settings.idp_issuer.is_none() || settings.idp_client_id.is_none() =>
        {
            return Err(invalid(
                "enterprise-managed authorization needs the identity provider's issuer URL and Gatehouse's client id there",
            ));
        }
        _ => {}
    }
    if settings.private_key.is_some() && settings.grant != OAuthGrant::ClientCredentials {
        return Err(invalid(
            "a client private key is only used with the client credentials grant",
        ));
    }
    if let Some(path) = &settings.assertion_file {
        if settings.grant != OAuthGrant::JwtBearer {
            return Err(invalid(
                "a workload token file is only used with the JWT-bearer grant",
            ));
        }
        if !Path::new(path).is_absolute() {
            return Err(invalid(format!(
                "the workload token file `{path}` must be an absolute path"
            )));
        }
    }
    let idp_set = settings.idp_issuer.is_some()
        || settings.idp_client_id.is_some()
        || settings.idp_client_secret.is_some();
    if idp_set && settings.grant != OAuthGrant::EnterpriseManaged {
        return Err(invalid(
            "an identity provider is only used with enterprise-managed authorization",
        ));
    }
    if let Some(issuer) = &settings.idp_issuer {
        secure_issuer(issuer, "identity provider issuer")?;
    }
    if let Some(issuer) = &settings.issuer {
        secure_issuer(issuer, "OAuth issuer")?;
    }
    if settings.client_id.is_some() && settings.issuer.is_none() {
        return Err(invalid(
            "an OAuth client id needs the issuer URL of the authorization server it is registered with",
        ));
    }
    if settings.client_secret.is_some() && settings.client_id.is_none() {
        return Err(invalid("an OAuth client secret needs its client id"));
    }
    if let Some(raw) = &settings.client_metadata_url {
        let url = url::Url::parse(raw)
            .map_err(|e| invalid(format!("invalid client metadata URL `{raw}`: {e}")))?;
        // 2026-07-28 basic/authorization/client-registration: an https URL with a path.
        if url.scheme() != "https" || url.path().len() <= 1 {
            return Err(invalid(format!(
                "invalid client metadata URL `{raw}`: it must be an https URL with a path"
            )));
        }
    }
    Ok(settings)
}

/// An issuer URL must be `https` (plain `http` only on this computer: 2025-11-25
/// basic/authorization, "Communication Security").
fn secure_issuer(issuer: &str, what: &str) -> Result<()> {
    let url =
        url::Url::parse(issuer).map_err(|e| invalid(format!("invalid {what} `{issuer}`: {e}")))?;
    let loopback = matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    if !(url.scheme() == "https" || (url.scheme() == "http" && loopback)) {
        return Err(invalid(format!(
            "invalid {what} `{issuer}`: it must be an https URL (http only on this computer)"
        )));
    }
    Ok(())
}

fn validate_headers(headers: Vec<HttpHeader>) -> Result<Vec<HttpHeader>> {
    headers
        .into_iter()
        .map(|h| {
            let name = h.name.trim().to_owned();
            let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
            if name.is_empty() || !name.chars().all(token) {
                return Err(invalid(format!("invalid header name `{name}`")));
            }
            if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err(invalid(format!(
                    "the header `{name}` is set by the transport and cannot be configured"
                )));
            }
            if h.value.contains(['\r', '\n', '\0']) {
                return Err(invalid(format!(
                    "the value of header `{name}` must be a single line"
                )));
            }
            Ok(HttpHeader {
                name,
                value: h.value.trim().to_owned(),
                secret: h.secret,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::model::ServerTransport;

    fn stdio(name: &str, command: &str) -> ServerInput {
        ServerInput {
            name: name.into(),
            enabled: true,
            roots: Vec::new(),
            spec: ServerSpec::Stdio {
                command: command.into(),
                args: vec![],
                env: vec![],
                cwd: None,
                stop: Default::default(),
            },
        }
    }

    fn http(url: &str, headers: Vec<HttpHeader>) -> ServerInput {
        ServerInput {
            name: "remote".into(),
            enabled: true,
            roots: Vec::new(),
            spec: ServerSpec::Http {
                url: url.into(),
                transport: ServerTransport::Auto,
                headers,
                oauth: OAuthClientSettings::default(),
            },
        }
    }

    fn with_oauth(oauth: OAuthClientSettings) -> Result<ServerInput> {
        let mut input = http("https://mcp.example.com/mcp", Vec::new());
        if let ServerSpec::Http { oauth: o, .. } = &mut input.spec {
            *o = oauth;
        }
        validate(input)
    }

    #[test]
    fn oauth_client_settings_are_bound_to_an_issuer_and_urls_checked() {
        let settings =
            |issuer: Option<&str>, id: Option<&str>, secret: Option<&str>| OAuthClientSettings {
                issuer: issuer.map(str::to_owned),
                client_id: id.map(str::to_owned),
                client_secret: secret.map(str::to_owned),
                ..OAuthClientSettings::default()
            };
        assert!(
            message(with_oauth(settings(None, Some("abc"), None))).contains("needs the issuer URL")
        );
        assert!(
            message(with_oauth(settings(None, None, Some("s")))).contains("needs its client id")
        );
        assert!(
            message(with_oauth(settings(
                Some("http://auth.example.com"),
                Some("a"),
                None
            )))
            .contains("must be an https URL")
        );
        let ok = with_oauth(settings(
            Some(" https://auth.example.com/tenant "),
            Some(" abc "),
            Some("s3cret"),
        ))
        .expect("valid");
        let ServerSpec::Http { oauth, .. } = ok.spec else {
            panic!("http")
        };
        assert_eq!(
            oauth.issuer.as_deref(),
            Some("https://auth.example.com/tenant")
        );
        assert_eq!(oauth.client_id.as_deref(), Some("abc"));
        // A loopback issuer may be plain http; empty fields are dropped.
        let local = with_oauth(OAuthClientSettings {
            issuer: Some("http://127.0.0.1:8080/as".into()),
            client_id: Some("x".into()),
            client_metadata_url: Some(String::new()),
            ..OAuthClientSettings::default()
        })
        .expect("valid");
        let ServerSpec::Http { oauth, .. } = local.spec else {
            panic!("http")
        };
        assert_eq!(oauth.client_metadata_url, None);
        assert!(
            message(with_oauth(OAuthClientSettings {
                client_metadata_url: Some("https://gatehouse.example".into()),
                ..OAuthClientSettings::default()
            }))
            .contains("https URL with a path")
        );
        assert!(
            message(with_oauth(OAuthClientSettings {
                grant: OAuthGrant::ClientCredentials,
                ..settings(Some("https://auth.example.com"), Some("a"), None)
            }))
            .contains("its secret or private key")
        );
        assert!(
            message(with_oauth(OAuthClientSettings {
                private_key: Some("pem".into()),
                ..settings(Some("https://auth.example.com"), Some("a"), None)
            }))
            .contains("only used with the client credentials grant")
        );
    }

    #[test]
    fn workload_identity_and_enterprise_managed_settings_are_checked() {
        let client = || OAuthClientSettings {
            issuer: Some("https://auth.example.com".into()),
            client_id: Some("c".into()),
            ..OAuthClientSettings::default()
        };
        let wif = |file: Option<&str>| OAuthClientSettings {
            grant: OAuthGrant::JwtBearer,
            assertion_file: file.map(str::to_owned),
            ..client()
        };
        assert!(message(with_oauth(wif(None))).contains("path of the file holding the workload"));
        assert!(message(with_oauth(wif(Some("token")))).contains("must be an absolute path"));
        assert!(
            message(with_oauth(OAuthClientSettings {
                client_id: None,
                ..wif(Some("/run/token"))
            }))
            .contains("issuer and client id")
        );
        with_oauth(wif(Some(" /var/run/secrets/token "))).expect("valid");
        assert!(
            message(with_oauth(OAuthClientSettings {
                assertion_file: Some("/run/token".into()),
                ..client()
            }))
            .contains("only used with the JWT-bearer grant")
        );

        let ema = |issuer: Option<&str>, id: Option<&str>| OAuthClientSettings {
            grant: OAuthGrant::EnterpriseManaged,
            idp_issuer: issuer.map(str::to_owned),
            idp_client_id: id.map(str::to_owned),
            ..client()
        };
        assert!(
            message(with_oauth(ema(None, Some("idp-client"))))
                .contains("identity provider's issuer URL")
        );
        assert!(
            message(with_oauth(ema(Some("https://idp.example.com"), None)))
                .contains("client id there")
        );
        assert!(
            message(with_oauth(ema(Some("http://idp.example.com"), Some("i"))))
                .contains("invalid identity provider issuer")
        );
        let ok = with_oauth(ema(Some(" http://127.0.0.1:9/idp "), Some(" i ")))
            .expect("a loopback IdP may be http");
        let ServerSpec::Http { oauth, .. } = ok.spec else {
            panic!("http")
        };
        assert_eq!(oauth.idp_issuer.as_deref(), Some("http://127.0.0.1:9/idp"));
        assert_eq!(oauth.idp_client_id.as_deref(), Some("i"));
        assert!(
            message(with_oauth(OAuthClientSettings {
                idp_issuer: Some("https://idp.example.com".into()),
                ..client()
            }))
            .contains("only used with enterprise-managed")
        );
    }

    fn message(result: Result<ServerInput>) -> String {
        match result {
            Err(HostError::Validation(m)) => m,
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn trims_and_accepts_a_good_stdio_config() {
        let ok = validate(stdio("  everything ", " node ")).ok();
        assert_eq!(ok.as_ref().map(|i| i.name.as_str()), Some("everything"));
        assert!(
            matches!(ok.map(|i| i.spec), Some(ServerSpec::Stdio { command, .. }) if command == "node")
        );
    }

    #[test]
    fn names_the_broken_rule() {
        assert!(message(validate(stdio("", "node"))).contains("name must not be empty"));
        assert!(message(validate(stdio("a b", "node"))).contains("invalid server name"));
        assert!(message(validate(stdio("ok", "   "))).contains("command must not be empty"));
        assert!(
            message(validate(http("ftp://x", vec![]))).contains("scheme must be http or https")
        );
        assert!(message(validate(http("not a url", vec![]))).contains("invalid URL"));
        let reserved = vec![HttpHeader {
            name: "Mcp-Session-Id".into(),
            value: "x".into(),
            secret: false,
        }];
        assert!(
            message(validate(http("http://127.0.0.1:1/mcp", reserved)))
                .contains("set by the transport")
        );
    }

    #[test]
    fn turns_roots_into_file_uris_and_refuses_relative_ones() {
        let mut input = stdio("s", "node");
        input.roots = vec![
            "/home/me/project".into(),
            "file:///tmp/x".into(),
            "/home/me/project".into(),
        ];
        let roots = validate(input).map(|i| i.roots).ok();
        assert_eq!(
            roots,
            Some(vec![
                "file:///home/me/project".to_owned(),
                "file:///tmp/x".to_owned()
            ])
        );
        let mut input = stdio("s", "node");
        input.roots = vec!["relative/dir".into()];
        assert!(message(validate(input)).contains("absolute path or a file:// URI"));
        let mut input = stdio("s", "node");
        input.roots = vec!["https://example.test/".into()];
        assert!(message(validate(input)).contains("absolute path"));
        for climbing in ["/home/me/../other", "file:///home/me/%2e%2e/other"] {
            let mut input = stdio("s", "node");
            input.roots = vec![climbing.into()];
            assert!(
                message(validate(input)).contains("must not contain `..`"),
                "{climbing}"
            );
        }
        let mut input = stdio("s", "node");
        input.roots = (0..=roots::MAX_ROOTS).map(|i| format!("/r/{i}")).collect();
        assert!(message(validate(input)).contains("at most 64 roots"));
    }

    #[test]
    fn rejects_bad_environment_and_relative_cwd() {
        let mut input = stdio("s", "node");
        input.spec = ServerSpec::Stdio {
            command: "node".into(),
            args: vec![],
            env: vec![EnvVar {
                key: "A=B".into(),
                value: "1".into(),
                secret: false,
            }],
            cwd: None,
            stop: Default::default(),
        };
        assert!(message(validate(input)).contains("invalid environment variable name"));
        let mut input = stdio("s", "node");
        input.spec = ServerSpec::Stdio {
            command: "node".into(),
            args: vec![],
            env: vec![],
            cwd: Some("rel".into()),
            stop: Default::default(),
        };
        assert!(message(validate(input)).contains("absolute path"));
    }
}
