//! Secret env values and headers against the real Secret Service (gnome-keyring; run under
//! `scripts/with-keyring.sh`): they reach the keyring and the server, never the database.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::support;

use crate::support::settled;
use gatehouse_host::secrets::{KeyringStore, SecretKey, SecretStore};
use gatehouse_host::{EnvVar, HostError, ServerInput, ServerSpec, ServerStatus};

fn unique_secret() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("tok-{nanos:x}-{}", std::process::id())
}

/// A python3 MCP server that reports whether API_TOKEN matches the given SHA-256, without the
/// secret itself appearing in its arguments.
fn checking_server(name: &str, secret: &str, token: Option<&str>) -> ServerInput {
    let source = support::scripted_source(
        r#"
import hashlib, os
ok = hashlib.sha256(os.environ.get("API_TOKEN", "").encode()).hexdigest() == sys.argv[1]
handshake({"tools": {}}, name="token-ok" if ok else "token-wrong")
reply(read(), {"tools": []})
sys.stdin.read()
"#,
    );
    let digest = sha256_hex(secret);
    let mut env = vec![EnvVar {
        key: "PLAIN".into(),
        value: "visible-value".into(),
        secret: false,
    }];
    if let Some(token) = token {
        env.push(EnvVar {
            key: "API_TOKEN".into(),
            value: token.into(),
            secret: true,
        });
    }
    ServerInput {
        name: name.into(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: "python3".into(),
            args: vec!["-c".into(), source, digest],
            env,
            cwd: None,
            stop: Default::default(),
        },
    }
}

fn sha256_hex(value: &str) -> String {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())",
            value,
        ])
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Every byte the data directory holds, database and WAL included.
fn data_dir_bytes(dir: &Path) -> Vec<u8> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read data dir").flatten() {
        if let Ok(bytes) = std::fs::read(entry.path()) {
            all.extend(bytes);
        }
    }
    all
}

/// A value read from the keyring, shown (this test compares it).
fn exposed(value: Option<gatehouse_mcp::Sensitive<String>>) -> Option<String> {
    value.map(|v| v.into_exposed())
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[tokio::test]
async fn a_secret_env_value_reaches_the_server_but_never_the_database() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secret = unique_secret();
    let host = support::open_host(dir.path(), true).await;
    let added = host
        .add_server(checking_server("checked", &secret, Some(&secret)))
        .await
        .expect("add");
    let ServerSpec::Stdio { env, .. } = &added.config.spec else {
        panic!("stdio")
    };
    let token = env
        .iter()
        .find(|v| v.key == "API_TOKEN")
        .expect("the secret entry is listed");
    assert!(
        token.secret && token.value.is_empty(),
        "a secret is never returned, only marked"
    );

    let status = settled(&host, "checked").await;
    assert!(
        matches!(&status, ServerStatus::Connected { server_name, .. } if server_name == "token-ok"),
        "the server must receive the secret from the keyring in its environment: {status:?}"
    );
    host.shutdown().await;

    let bytes = data_dir_bytes(dir.path());
    assert!(
        contains(&bytes, "visible-value"),
        "the check must be able to see stored values"
    );
    assert!(
        !contains(&bytes, &secret),
        "the secret must not be written to the database or WAL"
    );

    let store = KeyringStore;
    let key = SecretKey::env(&added.config.id, "API_TOKEN");
    assert_eq!(
        exposed(store.get(&key).await.expect("keyring")),
        Some(secret.clone()),
        "the keyring holds it"
    );

    // Editing with an empty value keeps the stored secret.
    let host = support::open_host(dir.path(), false).await;
    host.update_server("checked", checking_server("checked", &secret, Some("")))
        .await
        .expect("keep");
    assert_eq!(
        exposed(store.get(&key).await.expect("keyring")),
        Some(secret.clone()),
        "an empty edit keeps it"
    );
    // Dropping the secret from the config deletes it from the keyring.
    host.update_server("checked", checking_server("checked", &secret, None))
        .await
        .expect("drop");
    assert_eq!(
        exposed(store.get(&key).await.expect("keyring")),
        None,
        "a dropped secret is deleted"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn removing_a_server_deletes_its_secrets_and_a_missing_secret_is_explained() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secret = unique_secret();
    let host = support::open_host(dir.path(), true).await;
    let remote = support::unreachable_http("remote", Some(&secret));
    let remote = host
        .add_server(remote)
        .await
        .expect("add http with secret header");
    let header_key = SecretKey::header(&remote.config.id, "Authorization");
    let store = KeyringStore;
    assert_eq!(
        exposed(store.get(&header_key).await.expect("keyring")),
        Some(format!("Bearer {secret}"))
    );
    host.remove_server("remote").await.expect("remove");
    assert_eq!(
        exposed(store.get(&header_key).await.expect("keyring")),
        None,
        "removing a server removes its secrets"
    );

    let view = host
        .add_server(checking_server("lost", &secret, Some(&secret)))
        .await
        .expect("add");
    let env_key = SecretKey::env(&view.config.id, "API_TOKEN");
    settled(&host, "lost").await;
    store
        .delete(&env_key)
        .await
        .expect("delete behind the app's back");
    host.reconnect("lost").await.expect("reconnect");
    let ServerStatus::Failed { message } = settled(&host, "lost").await else {
        panic!("a server whose secret is gone must not start without it");
    };
    assert!(
        message.contains("missing from the OS keyring"),
        "the user is told what to do: {message}"
    );

    let no_value = checking_server("novalue", &secret, Some(""));
    let error = host
        .add_server(no_value)
        .await
        .expect_err("a new secret needs a value");
    assert!(
        matches!(&error, HostError::Validation(m) if m.contains("needs a value")),
        "got {error:?}"
    );
    host.shutdown().await;
}

/// Items as Gatehouse wrote them before it used the keyring crates: straight through the
/// Secret Service, found by the attributes `application`, `gatehouse-server`, `gatehouse-kind`
/// and `gatehouse-name`.
#[cfg(target_os = "linux")]
mod old_items {
    use std::collections::HashMap;

    use secret_service::{EncryptionType, SecretService};

    fn attributes<'a>(
        server_id: &'a str,
        kind: &'a str,
        name: &'a str,
    ) -> HashMap<&'a str, &'a str> {
        HashMap::from([
            ("application", "gatehouse"),
            ("gatehouse-server", server_id),
            ("gatehouse-kind", kind),
            ("gatehouse-name", name),
        ])
    }

    /// Writes the item the old code wrote for a server's secret.
    pub async fn write(server_id: &str, kind: &str, name: &str, value: &str) {
        let service = SecretService::connect(EncryptionType::Dh)
            .await
            .expect("the Secret Service of scripts/with-keyring.sh");
        let collection = service
            .get_default_collection()
            .await
            .expect("default collection");
        collection
            .create_item(
                &format!("Gatehouse: {name} for server old"),
                attributes(server_id, kind, name),
                value.as_bytes(),
                true,
                "text/plain",
            )
            .await
            .expect("an item written the old way");
    }

    /// How many old-style items the keyring has for a server's secret.
    pub async fn count(server_id: &str, kind: &str, name: &str) -> usize {
        let service = SecretService::connect(EncryptionType::Dh)
            .await
            .expect("the Secret Service");
        let found = service
            .search_items(attributes(server_id, kind, name))
            .await
            .expect("search");
        found.unlocked.len() + found.locked.len()
    }
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_secret_stored_the_old_way_still_reaches_the_server_and_moves_to_its_new_entry() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secret = unique_secret();
    let host = support::open_host(dir.path(), true).await;
    let added = host
        .add_server(checking_server("old", &secret, Some(&secret)))
        .await
        .expect("add");
    let id = added.config.id.clone();
    settled(&host, "old").await;
    // As an existing user's keyring holds it: only the item of the old scheme.
    let store = KeyringStore;
    let key = SecretKey::env(&id, "API_TOKEN");
    store.delete(&key).await.expect("delete the new entry");
    old_items::write(&id, "env", "API_TOKEN", &secret).await;
    assert_eq!(old_items::count(&id, "env", "API_TOKEN").await, 1);

    host.reconnect("old").await.expect("reconnect");
    let status = settled(&host, "old").await;
    assert!(
        matches!(&status, ServerStatus::Connected { server_name, .. } if server_name == "token-ok"),
        "the secret stored the old way must reach the server: {status:?}"
    );
    assert_eq!(
        old_items::count(&id, "env", "API_TOKEN").await,
        0,
        "the old item is gone once read"
    );
    assert_eq!(
        exposed(store.get(&key).await.expect("keyring")),
        Some(secret.clone()),
        "its value moved to the new entry"
    );

    // An old item never read is deleted with its server all the same.
    let header_value = format!("Bearer {secret}");
    let remote = host
        .add_server(support::unreachable_http("old-remote", Some(&secret)))
        .await
        .expect("add http");
    let remote_id = remote.config.id.clone();
    store
        .delete(&SecretKey::header(&remote_id, "Authorization"))
        .await
        .expect("delete the new entry");
    old_items::write(&remote_id, "header", "Authorization", &header_value).await;
    host.remove_server("old-remote").await.expect("remove");
    assert_eq!(
        old_items::count(&remote_id, "header", "Authorization").await,
        0,
        "removing a server deletes its secrets stored the old way"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn printing_the_engine_never_shows_a_secret() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secret = unique_secret();
    let host = support::open_host(dir.path(), true).await;
    let added = host
        .add_server(checking_server("printed", &secret, Some(&secret)))
        .await
        .expect("add");
    let status = settled(&host, "printed").await;
    assert!(
        matches!(&status, ServerStatus::Connected { server_name, .. } if server_name == "token-ok"),
        "the server holds the secret (else this test shows nothing): {status:?}"
    );
    // The gate reads the secret values too, for the audit log to hide them.
    host.gate()
        .learn_secrets(&added.config.id)
        .await
        .expect("learn");
    let printed = format!("{host:?}");
    assert!(
        printed.contains("<redacted>"),
        "the engine holds the secret, and its Debug shows where (else this test shows nothing)"
    );
    assert!(
        !printed.contains(&secret),
        "the engine's Debug must not show the secret: {printed}"
    );
    host.shutdown().await;
}
