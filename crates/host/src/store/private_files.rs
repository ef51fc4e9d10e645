//! The data directory and its database files belong to the person alone: on Unix the directory is
//! created (or tightened to) mode 0700 and the database, its write-ahead log, shared memory and
//! migration lock files 0600, so another account on the machine can read neither the configuration
//! nor the audit log. SQLite gives the `-wal` and `-shm` files the database file's mode; they are
//! tightened too in case an older Gatehouse created them.

use std::path::Path;

use crate::error::{HostError, Result};

/// The database file's companions that SQLite creates beside it.
const COMPANIONS: &[&str] = &["-wal", "-shm", ".migrate-lock"];

/// Creates `dir` (and missing parents) private to the person, or makes an existing one so.
pub fn private_dir(dir: &Path) -> Result<()> {
    let failed = |e| HostError::io(format!("cannot create data directory {}", dir.display()), e);
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(failed)?;
    tighten(dir, 0o700)
}

/// Creates the database file `db` private to the person when it is missing, and makes it and
/// its companions private when they exist.
pub fn private_database(db: &Path) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(db)
        .map_err(|e| HostError::io(format!("cannot create {}", db.display()), e))?;
    tighten(db, 0o600)?;
    for suffix in COMPANIONS {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        let companion = Path::new(&name);
        if companion.exists() {
            tighten(companion, 0o600)?;
        }
    }
    Ok(())
}

/// Sets `path`'s permission bits to `mode` when they allow more (Unix only).
#[cfg(unix)]
fn tighten(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(path)
        .map_err(|e| HostError::io(format!("cannot read {}", path.display()), e))?;
    if metadata.permissions().mode() & 0o777 & !mode == 0 {
        return Ok(());
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| HostError::io(format!("cannot make {} private", path.display()), e))
}

#[cfg(not(unix))]
fn tighten(_path: &Path, _mode: u32) -> Result<()> {
    Ok(())
}

#[cfg(unix)]
#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777
    }

    #[test]
    fn a_new_data_directory_and_database_are_private() {
        let parent = tempfile::tempdir().expect("temp dir");
        let dir = parent.path().join("a/b/gatehouse");
        private_dir(&dir).expect("created");
        assert_eq!(mode(&dir), 0o700);
        let db = dir.join("gatehouse.db");
        private_database(&db).expect("created");
        assert_eq!(mode(&db), 0o600);
    }

    #[test]
    fn an_existing_open_directory_and_its_files_are_tightened() {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("data");
        std::fs::create_dir(&data).expect("dir");
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let db = data.join("gatehouse.db");
        for file in ["gatehouse.db", "gatehouse.db-wal", "gatehouse.db-shm"] {
            std::fs::write(data.join(file), b"").expect("file");
            std::fs::set_permissions(data.join(file), std::fs::Permissions::from_mode(0o644))
                .expect("chmod");
        }
        private_dir(&data).expect("tightened");
        private_database(&db).expect("tightened");
        assert_eq!(mode(&data), 0o700);
        for file in ["gatehouse.db", "gatehouse.db-wal", "gatehouse.db-shm"] {
            assert_eq!(mode(&data.join(file)), 0o600, "{file}");
        }
    }
}
