//! The keyed audit chain on a real SQLite file and the real keyring (gnome-keyring; run under
//! `scripts/with-keyring.sh`), tried as someone who can write the database file but does not
//! hold the unlocked keyring: dropping the triggers, editing a row and recomputing the chain
//! (plain SHA-256, or MACs under a key of their own) is caught; removing the newest rows or
//! rolling the file back is caught by the head checkpoint; a forged retention anchor is caught;
//! an unkeyed chain (written before keying existed) is keyed from an anchor on and still
//! verifies; the key reaches neither the database files nor an export; the checkpoint never
//! moves past a row the table lost. The checkpoint's own tests are in audit_checkpoint.rs.

use crate::support;

use std::path::Path;
use std::time::Duration;

use crate::support::audit::{
    append, broken, check, checkpoint, checkpoint_seq, columns, data_dir_id, forget_checkpoint,
    keyed_log, parts, tamper,
};
use crate::support::open_host;
use base64::Engine;
use gatehouse_host::audit::key::AuditKey;
use gatehouse_host::audit::report::{CheckpointStatus, KeyStatus, PartKind};
use gatehouse_host::secrets::{KeyringStore, SecretKey, SecretStore};
use gatehouse_host::{AuditKind, AuditLog, CheckOptions, ExportFormat, Host, VerifyReport};
use serde_json::{Value, json};
use sqlx::SqlitePool;

/// Row `seq`'s columns as the chain covers them, with `key_id` when given.
async fn content(pool: &SqlitePool, seq: i64, key_id: Option<&str>) -> Value {
    let mut value = columns(pool, seq).await;
    if let Some(id) = key_id {
        value["key_id"] = json!(id);
    }
    value
}

/// Row `seq`'s hash.
async fn hash_of(pool: &SqlitePool, seq: i64) -> String {
    sqlx::query_scalar("SELECT hash FROM audit_log WHERE seq = ?")
        .bind(seq)
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("row {seq}'s hash: {e}"))
}

/// How the attacker seals each rewritten row.
enum Seal<'a> {
    /// Plain SHA-256, the row made unkeyed.
    Sha,
    /// Plain SHA-256, the row still claiming the real key.
    ShaKeepingKeyId(&'a str),
    /// An HMAC under a key of the attacker's own, claiming `id`.
    Mac(&'a AuditKey, &'a str),
}

/// Rewrites every row from `from` to the last, as the strongest attacker without the key
/// would: each row's `prev_hash` set to the new hash of the row before, then sealed.
async fn recompute_from(pool: &SqlitePool, from: i64, seal: &Seal<'_>) {
    let last: i64 = sqlx::query_scalar("SELECT MAX(seq) FROM audit_log")
        .fetch_one(pool)
        .await
        .expect("last");
    for seq in from..=last {
        let prev = hash_of(pool, seq - 1).await;
        tamper(
            pool,
            &format!("UPDATE audit_log SET prev_hash = '{prev}' WHERE seq = {seq}"),
        )
        .await;
        let (key_id, hash) = match seal {
            Seal::Sha => (
                None,
                gatehouse_host::canonical::sha256(&content(pool, seq, None).await),
            ),
            Seal::ShaKeepingKeyId(id) => (
                Some(*id),
                gatehouse_host::canonical::sha256(&content(pool, seq, None).await),
            ),
            Seal::Mac(key, id) => (Some(*id), key.mac_json(&content(pool, seq, Some(id)).await)),
        };
        let key_id = key_id.map_or("NULL".to_owned(), |id| format!("'{id}'"));
        tamper(
            pool,
            &format!("UPDATE audit_log SET hash = '{hash}', key_id = {key_id} WHERE seq = {seq}"),
        )
        .await;
    }
}

async fn key_id_of(pool: &SqlitePool, seq: i64) -> Option<String> {
    sqlx::query_scalar("SELECT key_id FROM audit_log WHERE seq = ?")
        .bind(seq)
        .fetch_one(pool)
        .await
        .expect("key_id")
}

/// The data directory's key, read from the keyring as a test with the keyring can.
async fn keyring_key(host: &Host) -> AuditKey {
    let entry = SecretKey::AuditKey {
        data_dir_id: data_dir_id(host).await,
    };
    let text = KeyringStore
        .get(&entry)
        .await
        .expect("keyring")
        .expect("a key was created on first use");
    AuditKey::decode(text.expose()).expect("a key")
}

#[tokio::test]
async fn recomputing_the_chain_without_the_key_is_caught() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = keyed_log(dir.path()).await;
    let pool = host.store().pool();
    let key = keyring_key(&host).await;
    assert_eq!(key_id_of(pool, 3).await.as_deref(), Some(key.id()));
    let report = check(host.audit()).await;
    assert_eq!(report.result, VerifyReport::Intact { rows: 5 });
    assert_eq!(report.parts.len(), 1);
    assert_eq!(report.parts[0].kind, PartKind::Keyed);
    assert_eq!(
        report.key,
        KeyStatus::Keyring {
            key_id: key.id().to_owned()
        }
    );
    assert_eq!(
        report.checkpoint,
        CheckpointStatus::Holds { seq: 5, newer: 0 }
    );

    // Edit row 3, then recompute the plain SHA-256 chain from there as the old scheme had it,
    // the rows still claiming the key.
    let edit = "UPDATE audit_log SET detail = '{\"note\":\"edited\"}' WHERE seq = 3";
    tamper(pool, edit).await;
    recompute_from(pool, 3, &Seal::ShaKeepingKeyId(key.id())).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(3, "its content does not match its hash"),
        "a SHA-256 does not pass for the key's MAC"
    );

    // Under a key of the attacker's own, claiming the real key's id.
    let forger = AuditKey::generate().expect("random");
    recompute_from(pool, 3, &Seal::Mac(&forger, key.id())).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(3, "its content does not match its hash"),
        "only the key makes a MAC that checks"
    );

    // Under a key of their own with its own id: the rows cannot be checked, and the checkpoint
    // no longer matches the head.
    recompute_from(pool, 3, &Seal::Mac(&forger, forger.id())).await;
    let report = check(host.audit()).await;
    assert_eq!(
        report.result,
        broken(5, "row 5 is not the row the head checkpoint records")
    );
    assert_eq!(report.parts[1].kind, PartKind::Unchecked);

    // Made unkeyed (a downgrade): the rows check as SHA-256 rows, but unkeyed rows after keyed
    // ones are never vouched for, and the checkpoint catches the head.
    recompute_from(pool, 3, &Seal::Sha).await;
    let report = check(host.audit()).await;
    assert_eq!(
        report.result,
        broken(5, "row 5 is not the row the head checkpoint records")
    );
    assert_eq!(
        report.parts.iter().map(|p| p.kind).collect::<Vec<_>>(),
        [PartKind::Keyed, PartKind::Unkeyed]
    );
    // Even with no checkpoint to compare (one kept elsewhere lost), the downgrade is not intact.
    forget_checkpoint(&host).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Unverified {
            rows: 5,
            reason: "rows 3 to 5 are unkeyed, after keyed rows (row 2): written while the OS \
                     keyring was unavailable, or rewritten by someone without the key"
                .into()
        }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn deleting_the_newest_rows_or_rolling_the_file_back_is_caught() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = keyed_log(dir.path()).await;
    let pool = host.store().pool();
    tamper(pool, "DELETE FROM audit_log WHERE seq >= 4").await;
    let truncated = broken(
        4,
        "rows 4 to 5 are missing (the log ends at row 3, but the head checkpoint records row 5)",
    );
    assert_eq!(host.audit().verify().await.expect("verify"), truncated);

    // The host appending after the cut neither hides it nor moves the checkpoint past it.
    append(host.audit(), &["six", "seven", "eight"]).await;
    let moved = host.audit().flush_checkpoint().await;
    assert!(
        moved.is_err(),
        "the checkpoint must not move past a row the table lost: {moved:?}"
    );
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(5, "row 5 is not the row the head checkpoint records")
    );
    assert_eq!(
        checkpoint_seq(host.audit()).await,
        Some(5),
        "the evidence stays"
    );
    host.shutdown().await;

    // A whole database rolled back to an older copy of itself.
    let dir = tempfile::tempdir().expect("temp dir");
    let host = keyed_log(dir.path()).await;
    let db = host.store().path().to_path_buf();
    host.shutdown().await;
    let files = |db: &Path| {
        ["", "-wal", "-shm"].map(|end| std::path::PathBuf::from(format!("{}{end}", db.display())))
    };
    let old: Vec<Option<Vec<u8>>> = files(&db).iter().map(|f| std::fs::read(f).ok()).collect();
    let host = open_host(dir.path(), false).await;
    append(host.audit(), &["six", "seven"]).await;
    host.shutdown().await;
    for (file, bytes) in files(&db).iter().zip(old) {
        match bytes {
            Some(bytes) => std::fs::write(file, bytes).expect("roll back"),
            None => {
                let _ = std::fs::remove_file(file);
            }
        }
    }
    let host = open_host(dir.path(), false).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(
            6,
            "rows 6 to 7 are missing (the log ends at row 5, but the head checkpoint records row 7)"
        )
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_fake_retention_row_is_caught() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = keyed_log(dir.path()).await;
    let pool = host.store().pool();
    let key = keyring_key(&host).await;
    let fourth_prev: String = sqlx::query_scalar("SELECT prev_hash FROM audit_log WHERE seq = 4")
        .fetch_one(pool)
        .await
        .expect("row 4");
    let fifth = hash_of(pool, 5).await;
    // Replace rows 1 to 3 with a made-up "pruned" record appended after the last row.
    let detail = json!({
        "throughSeq": 3, "throughHash": fourth_prev, "dropped": 3,
        "before": "2026-11-23T09:00:00.000Z",
    })
    .to_string();
    tamper(pool, "DELETE FROM audit_log WHERE seq <= 3").await;
    tamper(
        pool,
        &format!(
            "INSERT INTO audit_log (seq, at, kind, detail, prev_hash, hash) \
             VALUES (6, '2026-11-23T09:00:00.000Z', 'retention', '{detail}', '{fifth}', '')"
        ),
    )
    .await;
    recompute_from(pool, 6, &Seal::Sha).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(
            4,
            "the retention anchor at row 6 that accounts for the rows before it is not keyed, \
             though row 4 before it is: anyone who can write the file could have made it"
        ),
        "an unkeyed anchor after keyed rows is a forgery"
    );
    recompute_from(pool, 6, &Seal::ShaKeepingKeyId(key.id())).await;
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        broken(6, "its content does not match its hash"),
        "an anchor claiming the key must carry its MAC"
    );

    // A real pruning's anchor is keyed, and verifies.
    let dir = tempfile::tempdir().expect("temp dir");
    let host = keyed_log(dir.path()).await;
    let report = host
        .audit()
        .prune_older_than(Duration::ZERO)
        .await
        .expect("prune");
    let anchor = report.anchor.expect("an anchor");
    assert_eq!(
        anchor.key_id,
        Some(keyring_key(&host).await.id().to_owned())
    );
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 1 }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn an_unkeyed_chain_is_keyed_from_an_anchor_on_and_still_verifies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_host(dir.path(), false).await;
    // Rows written as before keying existed: plain SHA-256, no key_id.
    let unkeyed = AuditLog::new(host.store().pool().clone());
    append(&unkeyed, &["old-1", "old-2", "old-3"]).await;
    drop(unkeyed);
    let pool = host.store().pool();
    assert_eq!(key_id_of(pool, 3).await, None);
    assert_eq!(
        hash_of(pool, 2).await,
        gatehouse_host::canonical::sha256(&columns(pool, 2).await),
        "an old row's hash is the plain SHA-256 of its columns, as before"
    );
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { rows: 3 },
        "an unkeyed chain before any keyed row verifies as it always did"
    );

    append(host.audit(), &["new-1", "new-2"]).await;
    let key = keyring_key(&host).await;
    let rows = host
        .audit()
        .list(&gatehouse_host::AuditFilter::default())
        .await
        .expect("list");
    let anchor = rows.iter().find(|r| r.seq == 4).expect("row 4");
    assert_eq!(anchor.event.kind, AuditKind::Keying);
    assert_eq!(
        anchor.event.detail,
        json!({"keyed": true, "keyId": key.id(), "previousKeyId": null})
    );
    assert_eq!(
        anchor.key_id.as_deref(),
        Some(key.id()),
        "the anchor is keyed"
    );
    let report = check(host.audit()).await;
    assert_eq!(report.result, VerifyReport::Intact { rows: 6 });
    assert_eq!(
        parts(&report),
        [(1, 3, PartKind::Unkeyed), (4, 6, PartKind::Keyed)],
        "the report says which part is keyed"
    );
    assert_eq!(
        report.lines()[1..3],
        [
            "  rows 1 to 3: UNKEYED (plain SHA-256: anyone who can write the database could \
             have rewritten them)"
                .to_owned(),
            format!(
                "  rows 4 to 6: keyed, checked with the key {} from the OS keyring",
                key.id()
            ),
        ],
        "the verify output says which part is keyed"
    );

    // An old row rewritten, with the plain chain recomputed up to the anchor: the keyed
    // anchor covers the last old row's hash.
    tamper(
        pool,
        "UPDATE audit_log SET detail = '{\"note\":\"edited\"}' WHERE seq = 2",
    )
    .await;
    recompute_from(pool, 2, &Seal::Sha).await;
    let report = check(host.audit()).await;
    assert!(
        matches!(
            report.result,
            VerifyReport::Broken { .. } | VerifyReport::Unverified { .. }
        ),
        "rewriting old rows cannot pass past the keyed anchor: {report:?}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn two_data_directories_never_share_a_key() {
    let (a, b) = (
        tempfile::tempdir().expect("temp dir"),
        tempfile::tempdir().expect("temp dir"),
    );
    let (first, second) = (keyed_log(a.path()).await, keyed_log(b.path()).await);
    assert_ne!(data_dir_id(&first).await, data_dir_id(&second).await);
    assert_ne!(
        keyring_key(&first).await.id(),
        keyring_key(&second).await.id()
    );
    first.shutdown().await;
    second.shutdown().await;
}

/// Every form the key could be written in: its bytes, hex and base64.
fn key_forms(key: &AuditKey) -> Vec<Vec<u8>> {
    let encoded = key.encode();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded.as_str())
        .expect("base64");
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    vec![
        bytes.clone(),
        hex.clone().into_bytes(),
        hex.to_uppercase().into_bytes(),
        encoded.as_bytes().to_vec(),
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(&bytes)
            .into_bytes(),
    ]
}

#[tokio::test]
async fn the_key_never_reaches_the_database_files_or_an_export() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = keyed_log(dir.path()).await;
    let key = keyring_key(&host).await;
    host.audit()
        .prune_older_than(Duration::ZERO)
        .await
        .expect("prune");
    append(host.audit(), &["after"]).await;
    let exports = tempfile::tempdir().expect("temp dir");
    for (format, name) in [
        (ExportFormat::Jsonl, "a.jsonl"),
        (ExportFormat::Csv, "a.csv"),
    ] {
        host.audit()
            .export_to_file(format, &exports.path().join(name))
            .await
            .expect("export");
    }
    let head = checkpoint(host.audit()).await.expect("kept");
    std::fs::write(
        exports.path().join("head.json"),
        serde_json::to_string(&head).expect("json"),
    )
    .expect("write");
    host.shutdown().await;
    assert!(
        !support::files_containing(dir.path(), key.id()).is_empty(),
        "the rows name the key's id, so the files searched hold the rows"
    );
    for form in key_forms(&key) {
        for place in [dir.path(), exports.path()] {
            let found = support::files_containing(place, &form);
            assert!(found.is_empty(), "the key is in {found:?}");
        }
    }
    // A key file is the one place it goes, on purpose.
    let file = exports.path().join("audit.key");
    let host = open_host(dir.path(), false).await;
    host.audit().export_key(&file).await.expect("key export");
    let (read, _) = AuditKey::read_file(&file).expect("read");
    assert_eq!(read.id(), key.id());
    let report = host
        .audit()
        .check(&CheckOptions {
            key_file: Some(file),
            ..Default::default()
        })
        .await
        .expect("check with the key file");
    assert_eq!(
        report.key,
        KeyStatus::File {
            key_id: key.id().to_owned()
        }
    );
    assert_eq!(report.result, VerifyReport::Intact { rows: 2 });
    host.shutdown().await;
}
