//! The rules of server validation, each with the message a person sees.

use super::server::validate;
use crate::error::{HostError, Result};
use crate::roots;
use crate::store::registry::model::ServerTransport;
use crate::store::registry::model::*;

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
    assert!(message(with_oauth(settings(None, None, Some("s")))).contains("needs its client id"));
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
        message(with_oauth(ema(Some("https://idp.example.com"), None))).contains("client id there")
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
    assert!(message(validate(http("ftp://x", vec![]))).contains("scheme must be http or https"));
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
