//! The files `gatehouse connect` touches: an agent's config read whole (with the agents'
//! bound), its original bytes kept in `DATA_DIR/agent-backups/` (directory 0700, files 0600),
//! and the new text written only if the file still holds the bytes the preview was made from:
//! a temporary file in the same directory, flushed to disk, renamed over the original, with the
//! original's permissions. (A program writing the file in the instant between that last check
//! and the rename is not caught: no lock is shared with the agents.)

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::agents::read::read_bounded;
use crate::error::{HostError, Result};
use crate::store::private_files::private_dir;

/// The SHA-256 of a file's bytes, in hex.
pub fn hash(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// The config file's text; a missing file, one too large or not UTF-8 is an error naming it.
pub fn read_config(path: &Path) -> Result<String> {
    match read_bounded(path) {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(HostError::NotFound(format!(
            "{} does not exist: nothing to connect",
            path.display()
        ))),
        Err(e) => Err(HostError::Validation(format!(
            "{}: {}",
            path.display(),
            e.message
        ))),
    }
}

/// Keeps `bytes` (a config's original) as `DATA_DIR/agent-backups/AGENT-<ms>-<hash>.orig`.
pub fn save_backup(data_dir: &Path, agent_id: &str, bytes: &[u8]) -> Result<PathBuf> {
    let dir = data_dir.join("agent-backups");
    private_dir(&dir)?;
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let path = dir.join(format!("{agent_id}-{millis}-{}.orig", &hash(bytes)[..12]));
    let failed = |e| HostError::io(format!("cannot write the backup {}", path.display()), e);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&path).map_err(failed)?;
    file.write_all(bytes).map_err(failed)?;
    file.sync_all().map_err(failed)?;
    Ok(path)
}

/// A backup's bytes, as kept (sealed: see [`super::sealed`]).
pub fn read_backup(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path)
        .map_err(|e| HostError::io(format!("cannot read the backup {}", path.display()), e))
}

/// The current bytes of `path` (empty when it is missing).
pub fn current_bytes(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(HostError::io(format!("cannot read {}", path.display()), e)),
    }
}

/// Writes `new` over `path` if the file still hashes to `expected`; else refuses, nothing
/// written. `changed` says what changed, ending where "nothing was written" follows.
pub fn replace_if_unchanged(path: &Path, expected: &str, new: &[u8], changed: &str) -> Result<()> {
    let now = current_bytes(path)?.unwrap_or_default();
    if hash(&now) != expected {
        return Err(HostError::Validation(format!(
            "{} {changed} nothing was written",
            path.display()
        )));
    }
    write_atomic(path, new)
}

/// A temporary file beside `path`, flushed, with `path`'s permissions, renamed over it. A
/// symbolic link (a dotfiles manager's) is followed: the file it points at is replaced, the link
/// stays.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let path = target.as_path();
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "config".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.gatehouse-{}.tmp", std::process::id()));
    let failed = |e| HostError::io(format!("cannot write {}", path.display()), e);
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        if let Ok(metadata) = std::fs::metadata(path) {
            file.set_permissions(metadata.permissions())?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)?;
        #[cfg(unix)]
        if let Ok(dir) = std::fs::File::open(dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_is_not_replaced_and_permissions_are_kept() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("mcp.json");
        std::fs::write(&path, "old").expect("written");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        }
        let error =
            replace_if_unchanged(&path, &hash(b"other"), b"new", "changed:").expect_err("refused");
        assert!(error.to_string().contains("nothing was written"));
        assert_eq!(std::fs::read(&path).expect("read"), b"old");
        replace_if_unchanged(&path, &hash(b"old"), b"new", "changed:").expect("written");
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let backup = save_backup(dir.path(), "cursor", b"old").expect("kept");
        assert_eq!(read_backup(&backup).expect("read"), b"old");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&backup)
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 2);
        #[cfg(unix)]
        {
            let link = dir.path().join("link.json");
            std::os::unix::fs::symlink(&path, &link).expect("a link");
            write_atomic(&link, b"through the link").expect("written");
            assert!(std::fs::symlink_metadata(&link).expect("meta").is_symlink());
            assert_eq!(std::fs::read(&path).expect("read"), b"through the link");
        }
    }
}
