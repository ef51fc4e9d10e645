//! Where Gatehouse keeps its data: an explicit directory (`--data-dir`), else the
//! `GATEHOUSE_DATA_DIR` environment variable, else the OS data directory
//! (`~/.local/share/gatehouse` on Linux).

use std::path::{Path, PathBuf};

use crate::error::{HostError, Result};

/// The environment variable that overrides the data directory.
pub const DATA_DIR_ENV: &str = "GATEHOUSE_DATA_DIR";

/// The database file's name inside the data directory.
pub const DATABASE_FILE: &str = "gatehouse.db";

/// Resolves the data directory from an explicit choice, the environment or the OS default.
pub fn data_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    dirs::data_dir()
        .map(|d| d.join("gatehouse"))
        .ok_or_else(|| {
            HostError::Validation(format!(
                "cannot find the OS data directory; pass --data-dir or set {DATA_DIR_ENV}"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explicit_directory_wins() {
        let dir = Path::new("/tmp/explicit-gatehouse");
        assert_eq!(data_dir(Some(dir)).ok().as_deref(), Some(dir));
    }
}
