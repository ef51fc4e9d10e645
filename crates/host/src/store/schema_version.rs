//! A database written by a newer Gatehouse is refused before anything touches it. The newest
//! migration it records (`_sqlx_migrations`) is read on a connection that cannot write: with
//! SQLite's `immutable` flag when no write-ahead log holds anything (so no `-wal` or `-shm` file
//! is created or changed), or read-only through the log when one does (another process has
//! written recently). A newest version above the newest this build carries is
//! [`HostError::SchemaTooNew`]: the file, its log and its index stay exactly as they were.
//! A missing or empty file, or one with no migrations table, is a new database: nothing to check.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::error::{HostError, Result};

/// Refuses a database whose newest applied migration is above `known`, this build's newest.
pub(crate) fn refuse_newer(db: &Path, known: i64) -> Result<()> {
    match newest_applied(db)? {
        Some(found) if found > known => Err(HostError::SchemaTooNew { found, known }),
        _ => Ok(()),
    }
}

/// The newest migration version recorded in `db`, if it has any.
pub(crate) fn newest_applied(db: &Path) -> Result<Option<i64>> {
    let is_empty = match std::fs::metadata(db) {
        Ok(meta) => meta.len() == 0,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(HostError::io(format!("cannot read {}", db.display()), e)),
    };
    if is_empty {
        return Ok(None);
    }
    let connection = open_without_writing(db)?;
    let has_table: Option<i64> = connection
        .query_row(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
            [],
            |row| row.get(0),
        )
        .optional()?;
    if has_table.is_none() {
        return Ok(None);
    }
    let newest: Option<i64> =
        connection.query_row("SELECT MAX(version) FROM _sqlx_migrations", [], |row| {
            row.get(0)
        })?;
    Ok(newest)
}

/// A connection to `db` that writes nothing: immutable when the write-ahead log is absent or
/// empty (everything is in the main file), else read-only through the log.
fn open_without_writing(db: &Path) -> Result<Connection> {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    let log_holds_pages = std::fs::metadata(Path::new(&wal)).is_ok_and(|m| m.len() > 0);
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let query = if log_holds_pages {
        "mode=ro"
    } else {
        "immutable=1"
    };
    let uri = format!("{}?{query}", file_uri(db));
    Ok(Connection::open_with_flags(uri, flags)?)
}

/// `db` as an SQLite `file:` URI: `%`, `?` and `#` escaped (the rest is taken literally).
fn file_uri(db: &Path) -> String {
    let text = db.to_string_lossy();
    let mut uri = String::from("file:");
    if cfg!(windows) {
        uri.push('/');
    }
    for c in text.chars() {
        match c {
            '%' => uri.push_str("%25"),
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            '\\' if cfg!(windows) => uri.push('/'),
            c => uri.push(c),
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_with_uri_characters_is_escaped() {
        let uri = file_uri(Path::new("/tmp/a b/50%?#/gatehouse.db"));
        assert_eq!(uri, "file:/tmp/a b/50%25%3f%23/gatehouse.db");
    }

    #[test]
    fn a_missing_or_empty_file_is_a_new_database() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("gatehouse.db");
        assert_eq!(newest_applied(&db).expect("missing"), None);
        std::fs::write(&db, b"").expect("empty file");
        assert_eq!(newest_applied(&db).expect("empty"), None);
        assert!(refuse_newer(&db, 1).is_ok());
    }
}
