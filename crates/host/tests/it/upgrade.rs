//! Upgrades keep the data: databases made by older builds (`tests/fixtures/upgrade`, made as
//! those builds made them; its README says how) open in this one with every migration applied,
//! their servers, secret references, rules and audit chain intact. And the other way round: a
//! database a newer build wrote is refused with `schema_too_new`, its file, write-ahead log and
//! index left byte for byte as they were.

use std::path::{Path, PathBuf};

use crate::support::audit::{append, check, parts};
use crate::support::open_host;
use gatehouse_host::audit::report::PartKind;
use gatehouse_host::policy::{ArgumentMatch, Effect, Pattern};
use gatehouse_host::{
    AuditFilter, AuditKind, EnvVar, ErrorCode, Host, HostError, HostOptions, HttpHeader,
    ServerSpec, ServerTransport, VerifyReport,
};
use sha2::{Digest, Sha256};

/// A fixture database of `tests/fixtures/upgrade`.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/upgrade")
        .join(name)
}

/// A data directory holding a copy of the fixture `name` as its database.
fn data_dir_with(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(fixture(name), dir.path().join("gatehouse.db")).expect("copy the fixture");
    dir
}

/// The stored spec of the server `name`.
async fn spec_of(host: &Host, name: &str) -> (bool, Vec<String>, ServerSpec) {
    let servers = host.list_servers().await.expect("list servers");
    let view = servers
        .into_iter()
        .find(|s| s.config.name == name)
        .unwrap_or_else(|| panic!("the server `{name}` survived"));
    (view.config.enabled, view.config.roots, view.config.spec)
}

#[tokio::test]
async fn a_database_from_the_first_commit_opens_with_its_servers() {
    let dir = data_dir_with("first-commit-33ee293.db");
    let host = open_host(dir.path(), false).await;
    assert_eq!(host.list_servers().await.expect("list").len(), 2);
    let (enabled, roots, spec) = spec_of(&host, "everything").await;
    assert!(enabled);
    assert!(roots.is_empty(), "roots came later: none");
    let ServerSpec::Stdio {
        command, args, env, ..
    } = spec
    else {
        panic!("`everything` is a stdio server: {spec:?}");
    };
    assert_eq!(command, "npx");
    assert_eq!(args, ["-y", "@modelcontextprotocol/server-everything"]);
    assert_eq!(
        env,
        [EnvVar {
            key: "DEBUG".into(),
            value: "1".into(),
            secret: false,
        }],
        "an env value stored before secrets existed is read as a plain value"
    );
    let (enabled, _, spec) = spec_of(&host, "remote").await;
    assert!(!enabled);
    let ServerSpec::Http {
        url,
        transport,
        headers,
        ..
    } = spec
    else {
        panic!("`remote` is an HTTP server: {spec:?}");
    };
    assert_eq!(url, "https://mcp.example.com/mcp");
    assert_eq!(transport, ServerTransport::Auto);
    assert_eq!(
        headers,
        [HttpHeader {
            name: "X-Team".into(),
            value: "blue".into(),
            secret: false,
        }]
    );
    // The upgraded database takes new data as any other.
    host.set_enabled("remote", true).await.expect("enable");
    assert!(spec_of(&host, "remote").await.0);
}

#[tokio::test]
async fn a_database_from_the_first_build_with_audit_and_policy_keeps_its_data() {
    let dir = data_dir_with("audit-and-policy-3177108.db");
    let host = open_host(dir.path(), false).await;

    let (enabled, roots, spec) = spec_of(&host, "notes").await;
    assert!(enabled);
    assert_eq!(roots, ["file:///home/person/notes"]);
    let ServerSpec::Stdio {
        command,
        args,
        env,
        cwd,
        ..
    } = spec
    else {
        panic!("`notes` is a stdio server: {spec:?}");
    };
    assert_eq!(
        (command.as_str(), args.as_slice()),
        (
            "node",
            &["server.js".to_owned(), "--verbose".to_owned()][..]
        )
    );
    assert_eq!(cwd.as_deref(), Some("/home/person/notes"));
    let env: Vec<_> = env
        .iter()
        .map(|v| (v.key.as_str(), v.value.as_str(), v.secret))
        .collect();
    assert_eq!(
        env,
        [("LOG_LEVEL", "debug", false), ("NOTES_API_TOKEN", "", true)],
        "the secret reference survives, its value still only in the keyring"
    );
    let (enabled, _, spec) = spec_of(&host, "remote").await;
    assert!(!enabled);
    let ServerSpec::Http {
        transport, headers, ..
    } = spec
    else {
        panic!("`remote` is an HTTP server: {spec:?}");
    };
    assert_eq!(transport, ServerTransport::StreamableHttp);
    let headers: Vec<_> = headers
        .iter()
        .map(|h| (h.name.as_str(), h.value.as_str(), h.secret))
        .collect();
    assert_eq!(
        headers,
        [("X-Team", "blue", false), ("Authorization", "", true)]
    );

    let mut rules = host.rules().await.expect("rules");
    rules.sort_by(|a, b| a.id.cmp(&b.id));
    let summary: Vec<_> = rules
        .iter()
        .map(|r| {
            (
                r.id.as_str(),
                r.server.as_deref(),
                r.tool.as_deref(),
                r.decision,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("r-0a1b2c3d", None, None, Effect::Ask),
            ("r-1b2c3d4e", Some("notes"), None, Effect::Allow),
            (
                "r-2c3d4e5f",
                Some("notes"),
                Some("delete_note"),
                Effect::Deny
            ),
            (
                "r-3d4e5f60",
                Some("notes"),
                Some("read_note"),
                Effect::Allow
            ),
        ]
    );
    assert_eq!(
        rules[3].argument,
        Some(ArgumentMatch {
            pointer: "/path".into(),
            pattern: Pattern::Glob("/home/person/notes/**".into()),
            outside: true,
        })
    );
    assert!(
        rules
            .iter()
            .all(|r| r.source.is_none() && r.client.is_none()),
        "old rules apply to every source and client, as they did"
    );
    assert!(host.trusts_read_only("notes").await.expect("trust"));

    let rows = host
        .audit_rows(&AuditFilter::default())
        .await
        .expect("rows");
    let mut kinds: Vec<_> = rows.iter().map(|r| (r.seq, r.event.kind)).collect();
    kinds.sort_by_key(|(seq, _)| *seq);
    assert_eq!(
        kinds,
        [
            (1, AuditKind::Connection),
            (2, AuditKind::RequestReceived),
            (3, AuditKind::Decision),
            (4, AuditKind::CallStarted),
            (5, AuditKind::CallFinished),
            (6, AuditKind::PolicyChange),
        ]
    );
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 6 },
        "the old plain chain verifies as it did"
    );
    // New rows after the upgrade are keyed from an anchor on; the whole chain still holds.
    append(host.audit(), &["after the upgrade"]).await;
    let report = check(host.audit()).await;
    assert_eq!(report.result, VerifyReport::Intact { rows: 8 });
    assert_eq!(
        parts(&report),
        [(1, 6, PartKind::Unkeyed), (7, 8, PartKind::Keyed)]
    );
}

/// The SHA-256 of a file, or `None` when it does not exist.
fn digest(path: &Path) -> Option<String> {
    std::fs::read(path)
        .ok()
        .map(|bytes| format!("{:x}", Sha256::digest(bytes)))
}

/// The database and its companions, each with its digest.
fn files(dir: &Path) -> Vec<(String, Option<String>)> {
    ["gatehouse.db", "gatehouse.db-wal", "gatehouse.db-shm"]
        .iter()
        .map(|name| (name.to_string(), digest(&dir.join(name))))
        .collect()
}

/// A database given a migration from the future, as a newer build would leave it: an old
/// fixture with one more row in `_sqlx_migrations`, written by the only connection (so the
/// file is checkpointed and alone when it closes).
fn database_from_a_newer_build() -> (tempfile::TempDir, i64) {
    let dir = data_dir_with("audit-and-policy-3177108.db");
    let future = 99_991_231_000_000;
    let db = rusqlite::Connection::open(dir.path().join("gatehouse.db")).expect("open");
    db.execute(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (?1, 'from a newer build', TRUE, x'00', 1)",
        [future],
    )
    .expect("a future migration");
    drop(db);
    (dir, future)
}

#[tokio::test]
async fn a_database_from_a_newer_build_is_refused_untouched() {
    let (dir, future) = database_from_a_newer_build();
    let before = files(dir.path());
    assert!(before[0].1.is_some(), "the database exists");
    let opened = Host::open(HostOptions {
        data_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    })
    .await;
    let Err(error) = opened else {
        panic!("a newer build's database must be refused");
    };
    assert!(
        matches!(error, HostError::SchemaTooNew { found, .. } if found == future),
        "{error:?}"
    );
    assert_eq!(error.code(), ErrorCode::SchemaTooNew);
    let message = error.to_string();
    assert!(
        message.starts_with(&format!(
            "this data directory was written by a newer Gatehouse (schema {future}, this build \
             knows up to "
        )) && message.ends_with("install the newer version, or use another --data-dir"),
        "{message}"
    );
    assert_eq!(
        files(dir.path()),
        before,
        "the database, its log and its index are as they were"
    );
}

#[tokio::test]
async fn a_newer_database_with_a_live_write_ahead_log_is_refused_untouched() {
    let (dir, future) = database_from_a_newer_build();
    // Another process (the newer build) holds it open with pages in its log.
    let holder = rusqlite::Connection::open(dir.path().join("gatehouse.db")).expect("open");
    holder
        .execute_batch("PRAGMA wal_autocheckpoint = 0; CREATE TABLE newer_things (x);")
        .expect("a write left in the log");
    let before = digest(&dir.path().join("gatehouse.db"));
    let wal_before = digest(&dir.path().join("gatehouse.db-wal"));
    assert!(wal_before.is_some(), "the log holds the write");
    let opened = Host::open(HostOptions {
        data_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    })
    .await;
    let Err(error) = opened else {
        panic!("a newer build's database must be refused");
    };
    assert!(
        matches!(error, HostError::SchemaTooNew { found, .. } if found == future),
        "{error:?}"
    );
    assert_eq!(digest(&dir.path().join("gatehouse.db")), before);
    assert_eq!(digest(&dir.path().join("gatehouse.db-wal")), wal_before);
    drop(holder);
}
