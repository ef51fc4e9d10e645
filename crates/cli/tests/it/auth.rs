//! `gatehouse auth status|login|logout` against tests/fixtures/faults/oauth_server.py (an MCP
//! server behind OAuth with its own authorization server), in the real keyring (run under
//! `scripts/with-keyring.sh`). The test plays the browser: it reads the sign-in URL `login`
//! prints on stderr and fetches it, following the redirect back to the loopback listener.
//! Before the sign-in `tools` fails saying how to sign in; after it, `tools` (a connection of
//! its own) uses the tokens in the keyring; after `logout` it fails again.

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::Value;

/// `gatehouse auth login NAME` with no display, running: the process, the rest of its stderr,
/// and the sign-in URL it printed there.
fn start_login(
    data: &std::path::Path,
    name: &str,
) -> (
    std::process::Child,
    std::io::Lines<BufReader<std::process::ChildStderr>>,
    String,
) {
    let mut login = support::command(data)
        .args(["auth", "login", name, "--timeout", "60"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stderr = login.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let sign_in_url = loop {
        let line = lines
            .next()
            .expect("login prints the sign-in URL")
            .expect("stderr");
        if let Some(found) = line.trim().strip_prefix("http") {
            break format!("http{found}");
        }
    };
    (login, lines, sign_in_url)
}
use crate::support::{HttpFixture, exits, ok, ok_json};

/// Fetches `url` as a browser would (following redirects) and returns the page.
fn browse(url: &str) -> String {
    let output = Command::new("python3")
        .args([
            "-c",
            "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
            url,
        ])
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "the browser fetched {url}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn login_signs_in_through_the_browser_and_logout_signs_out() {
    let fixture = HttpFixture::oauth("plain");
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let url = fixture.url("/mcp");
    ok(
        data,
        &[
            "server",
            "add",
            "remote",
            "--url",
            &url,
            "--transport",
            "streamable-http",
        ],
    );
    let status = ok_json(data, &["auth", "status", "remote", "--json"]);
    assert_eq!(status["signedIn"], false, "{status}");
    let refused = exits(data, &["tools", "remote"], 1);
    let said = support::stderr(&refused);
    assert!(said.contains("gatehouse auth login"), "{said}");

    let (login, _stderr_rest, sign_in_url) = start_login(data, "remote");
    assert!(
        sign_in_url.starts_with(&format!("http://127.0.0.1:{}/as/authorize?", fixture.port)),
        "{sign_in_url}"
    );
    let page = browse(&sign_in_url);
    assert!(page.contains("Signed in to Gatehouse"), "{page}");
    let output = login.wait_with_output().expect("login ends");
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{printed}");
    assert!(printed.contains("signed in to remote"), "{printed}");
    assert!(!printed.contains("at-1"), "no token is printed: {printed}");

    let status = ok_json(data, &["auth", "status", "remote", "--json"]);
    assert_eq!(status["signedIn"], true, "{status}");
    assert_eq!(
        status["issuer"],
        Value::from(format!("http://127.0.0.1:{}/as", fixture.port))
    );
    assert_eq!(status["refreshable"], true);
    assert!(status["expiresAt"].is_string(), "{status}");
    let text = ok(data, &["auth", "status", "remote"]);
    assert!(text.contains("remote: signed in"), "{text}");

    let tools = ok(data, &["tools", "remote"]);
    assert!(
        tools.contains("echo"),
        "the CLI's connection uses the kept tokens: {tools}"
    );

    let said = ok(data, &["auth", "logout", "remote"]);
    assert!(said.contains("signed out of remote"), "{said}");
    let status = ok_json(data, &["auth", "status", "remote", "--json"]);
    assert_eq!(status["signedIn"], false, "{status}");
    exits(data, &["tools", "remote"], 1);

    // The client registered at the fixture's issuer stays in the keyring; removing it keeps the
    // shared keyring tidy.
    let issuer = format!("http://127.0.0.1:{}/as", fixture.port);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime
        .block_on(gatehouse_host::secrets::oauth::delete_client(
            &gatehouse_host::secrets::KeyringStore,
            &issuer,
        ))
        .expect("clean up");
}

#[test]
fn a_stdio_server_has_no_sign_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    support::add_stdio(data, "local", "true", &[]);
    let output = exits(data, &["auth", "status", "local"], 1);
    assert!(support::stderr(&output).contains("stdio"), "{output:?}");
}

#[test]
fn a_pre_registered_client_is_configured_with_its_secret_only_in_the_keyring() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let secret = format!("cli-client-secret-{}", std::process::id());
    let add = |extra: &[&str], secret: Option<&str>| {
        let mut command = support::command(data);
        command.args([
            "server",
            "add",
            "configured",
            "--url",
            "https://mcp.example.com/mcp",
            "--disabled",
        ]);
        command.args(extra);
        match secret {
            Some(secret) => command.env("GATEHOUSE_OAUTH_CLIENT_SECRET", secret),
            None => command.env_remove("GATEHOUSE_OAUTH_CLIENT_SECRET"),
        };
        command.output().expect("the binary runs")
    };
    let client = [
        "--oauth-issuer",
        "https://auth.example.com",
        "--oauth-client-id",
        "pre-registered",
        "--oauth-client-secret",
    ];
    let missing = add(&client, None);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        support::stderr(&missing).contains("GATEHOUSE_OAUTH_CLIENT_SECRET, which is not set"),
        "{}",
        support::stderr(&missing)
    );
    let unbound = add(&["--oauth-client-id", "pre-registered"], None);
    assert!(!unbound.status.success(), "a client id needs its issuer");

    let added = add(&client, Some(&secret));
    assert!(added.status.success(), "{}", support::stderr(&added));
    let servers = ok_json(data, &["server", "list", "--json"]);
    let oauth = &servers
        .as_array()
        .and_then(|all| all.iter().find(|s| s["name"] == "configured"))
        .expect("listed")["spec"]["oauth"];
    assert_eq!(oauth["issuer"], "https://auth.example.com", "{servers}");
    assert_eq!(oauth["clientId"], "pre-registered");
    assert_eq!(oauth["clientSecret"], "", "read back blank");
    // The client credentials grant with a private key (private_key_jwt) from a PEM file.
    let pem_text = format!(
        "-----BEGIN PRIVATE KEY-----\nkey-{}\n-----END PRIVATE KEY-----\n",
        std::process::id()
    );
    let pem = dir.path().join("client.pem");
    std::fs::write(&pem, &pem_text).expect("pem");
    let machine = support::command(data)
        .args([
            "server",
            "add",
            "machine",
            "--url",
            "https://mcp.example.com/mcp",
            "--disabled",
            "--oauth-issuer",
            "https://auth.example.com",
            "--oauth-client-id",
            "machine-client",
            "--oauth-grant",
            "client-credentials",
            "--oauth-private-key-file",
        ])
        .arg(&pem)
        .output()
        .expect("the binary runs");
    assert!(machine.status.success(), "{}", support::stderr(&machine));
    let servers = ok_json(data, &["server", "list", "--json"]);
    let machine = servers
        .as_array()
        .and_then(|all| all.iter().find(|s| s["name"] == "machine"))
        .expect("listed");
    assert_eq!(machine["spec"]["oauth"]["grant"], "clientCredentials");
    assert_eq!(
        machine["spec"]["oauth"]["privateKey"], "",
        "read back blank"
    );

    let db = std::fs::read(support::database(data)).expect("database");
    for kept in [&secret, &pem_text] {
        assert!(
            !db.windows(kept.len()).any(|w| w == kept.as_bytes()),
            "no client secret or key is in the database"
        );
    }
}

#[test]
fn workload_identity_and_enterprise_managed_servers_are_configured_by_flags() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let token = dir.path().join("workload-token");
    std::fs::write(&token, "header.payload.signature").expect("token file");
    let relative = support::command(data)
        .current_dir(dir.path())
        .args([
            "server",
            "add",
            "workload",
            "--url",
            "https://mcp.example.com/mcp",
            "--disabled",
            "--oauth-issuer",
            "https://auth.example.com",
            "--oauth-client-id",
            "workload-client",
            "--oauth-grant",
            "jwt-bearer",
            "--oauth-assertion-file",
            "workload-token",
        ])
        .output()
        .expect("the binary runs");
    assert!(relative.status.success(), "{}", support::stderr(&relative));
    let no_file = support::command(data)
        .args([
            "server",
            "add",
            "unfiled",
            "--url",
            "https://mcp.example.com/mcp",
            "--oauth-issuer",
            "https://auth.example.com",
            "--oauth-client-id",
            "workload-client",
            "--oauth-grant",
            "jwt-bearer",
        ])
        .output()
        .expect("the binary runs");
    assert_eq!(no_file.status.code(), Some(1));
    assert!(
        support::stderr(&no_file).contains("path of the file holding the workload's JWT"),
        "{}",
        support::stderr(&no_file)
    );

    let secret = format!("idp-secret-{}", std::process::id());
    let ema = |secret: Option<&str>, idp: &str| {
        let mut command = support::command(data);
        command.args([
            "server",
            "add",
            "enterprise",
            "--url",
            "https://mcp.example.com/mcp",
            "--disabled",
            "--oauth-issuer",
            "https://auth.example.com",
            "--oauth-client-id",
            "mcp-client",
            "--oauth-grant",
            "enterprise-managed",
            "--idp-issuer",
            idp,
            "--idp-client-id",
            "gatehouse",
            "--idp-client-secret",
        ]);
        match secret {
            Some(secret) => command.env("GATEHOUSE_IDP_CLIENT_SECRET", secret),
            None => command.env_remove("GATEHOUSE_IDP_CLIENT_SECRET"),
        };
        command.output().expect("the binary runs")
    };
    let missing = ema(None, "https://idp.example.com");
    assert!(
        support::stderr(&missing).contains("GATEHOUSE_IDP_CLIENT_SECRET, which is not set"),
        "{}",
        support::stderr(&missing)
    );
    let cleartext = ema(Some(&secret), "http://idp.example.com");
    assert!(
        support::stderr(&cleartext).contains("invalid identity provider issuer"),
        "{}",
        support::stderr(&cleartext)
    );
    let added = ema(Some(&secret), "https://idp.example.com");
    assert!(added.status.success(), "{}", support::stderr(&added));

    let servers = ok_json(data, &["server", "list", "--json"]);
    let find = |name: &str| {
        servers
            .as_array()
            .and_then(|all| all.iter().find(|s| s["name"] == name))
            .expect("listed")["spec"]["oauth"]
            .clone()
    };
    let workload = find("workload");
    assert_eq!(workload["grant"], "jwtBearer", "{servers}");
    assert_eq!(
        workload["assertionFile"],
        Value::from(token.display().to_string()),
        "made absolute"
    );
    let enterprise = find("enterprise");
    assert_eq!(enterprise["grant"], "enterpriseManaged");
    assert_eq!(enterprise["idpIssuer"], "https://idp.example.com");
    assert_eq!(enterprise["idpClientId"], "gatehouse");
    assert_eq!(enterprise["idpClientSecret"], "", "read back blank");

    let status = ok_json(data, &["auth", "status", "enterprise", "--json"]);
    assert_eq!(status["grant"], "enterprise-managed", "{status}");
    assert_eq!(status["idpIssuer"], "https://idp.example.com");
    assert_eq!(status["idpSignedIn"], false);
    let status = ok_json(data, &["auth", "status", "workload", "--json"]);
    assert_eq!(status["grant"], "jwt-bearer", "{status}");
    assert_eq!(status["idpSignedIn"], Value::Null);

    let db = std::fs::read(support::database(data)).expect("database");
    assert!(
        !db.windows(secret.len()).any(|w| w == secret.as_bytes()),
        "the IdP client secret is not in the database"
    );
    ok(data, &["server", "remove", "enterprise"]);
}

#[test]
fn login_to_an_enterprise_managed_server_signs_in_at_the_identity_provider() {
    let fixture = HttpFixture::oauth("plain");
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let base = format!("http://127.0.0.1:{}", fixture.port);
    let idp_client = format!("gatehouse-cli-{}", fixture.port);
    ok(
        data,
        &[
            "server",
            "add",
            "enterprise",
            "--url",
            &fixture.url("/mcp"),
            "--transport",
            "streamable-http",
            "--oauth-issuer",
            &format!("{base}/as"),
            "--oauth-client-id",
            "mcp-client",
            "--oauth-grant",
            "enterprise-managed",
            "--idp-issuer",
            &format!("{base}/idp"),
            "--idp-client-id",
            &idp_client,
        ],
    );
    let refused = exits(data, &["tools", "enterprise"], 1);
    assert!(
        support::stderr(&refused).contains("gatehouse auth login"),
        "{}",
        support::stderr(&refused)
    );
    let (login, lines, sign_in_url) = start_login(data, "enterprise");
    assert!(
        sign_in_url.starts_with(&format!("{base}/idp/authorize?")),
        "the identity provider's sign-in page: {sign_in_url}"
    );
    let page = browse(&sign_in_url);
    assert!(page.contains("Signed in to Gatehouse"), "{page}");
    let said: Vec<String> = lines.map_while(Result::ok).collect();
    let output = login.wait_with_output().expect("login ends");
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{printed}");
    assert!(
        printed.contains("identity provider") && printed.contains("enterprise-managed"),
        "{printed}"
    );
    let status = ok_json(data, &["auth", "status", "enterprise", "--json"]);
    assert_eq!(status["signedIn"], true, "{status}");
    assert_eq!(status["idpSignedIn"], true, "{status}");
    let tools = ok(data, &["tools", "enterprise"]);
    assert!(tools.contains("echo"), "{tools}");

    // Leak check: the ID token is in the keyring only; not in the data directory (SQLite, its
    // write-ahead log, server logs), the audit export, or anything the CLI printed.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let session = runtime
        .block_on(gatehouse_host::secrets::oauth::idp_session(
            &gatehouse_host::secrets::KeyringStore,
            &format!("{base}/idp"),
            &idp_client,
        ))
        .expect("keyring")
        .expect("the IdP sign-in is kept");
    let id_token = session.id_token.expose().clone();
    let export = ok(data, &["audit", "export", "--format", "jsonl"]);
    assert!(
        export.contains("signed_in"),
        "the sign-in is audited: {export}"
    );
    let mut places = vec![
        ("the audit export", export.into_bytes()),
        ("login's stdout", output.stdout.clone()),
        ("login's stderr", said.join("\n").into_bytes()),
        ("tools' output", tools.into_bytes()),
    ];
    let mut pending = vec![data.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).expect("data dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                places.push(("a data file", bytes));
            }
        }
    }
    for (place, bytes) in &places {
        assert!(
            !bytes
                .windows(id_token.len())
                .any(|w| w == id_token.as_bytes()),
            "the ID token is in {place}"
        );
    }

    let said = ok(data, &["auth", "logout", "enterprise", "--idp"]);
    assert!(said.contains("identity provider is forgotten"), "{said}");
    let status = ok_json(data, &["auth", "status", "enterprise", "--json"]);
    assert_eq!(status["idpSignedIn"], false, "{status}");
    exits(data, &["tools", "enterprise"], 1);
}
