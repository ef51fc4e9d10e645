//! One engine per data directory: `DATA/engine.lock`, held with an exclusive OS file lock
//! (`File::try_lock`) for the engine's whole life, and beside it `DATA/engine.json` (written
//! atomically once the lock is held, mode 0600) saying which engine holds it. The OS releases the
//! lock when the process dies, so a killed engine's lock is free: its `engine.json` and socket are
//! then leftovers, removed and taken over without anyone's help. A second engine finds the lock
//! held and is refused with [`HostError::EngineRunning`], naming the running one.
//!
//! The lock is taken before a live [`crate::Host`] is opened: opening one sweeps the data
//! directory's leftover server process groups, which would kill a running engine's servers.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{HostError, Result};
use crate::store::{paths, private_files};

/// The lock file's name in the data directory.
pub const LOCK_FILE: &str = "engine.lock";
/// The running engine's description, beside the lock.
pub const INFO_FILE: &str = "engine.json";
/// The control socket's name in the data directory.
pub const SOCKET_FILE: &str = "engine.sock";

/// Which face the engine has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineKind {
    /// The desktop app: an engine with a window.
    App,
    /// `gatehouse serve`: the engine with no window.
    Serve,
}

impl EngineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EngineKind::App => "app",
            EngineKind::Serve => "serve",
        }
    }
}

/// The running engine, as `engine.json` and the hello reply describe it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineInfo {
    pub pid: u32,
    /// When it started, RFC 3339 (UTC).
    pub since: String,
    pub kind: EngineKind,
    pub data_dir: PathBuf,
    pub socket: PathBuf,
    /// Gatehouse's version.
    pub version: String,
}

impl EngineInfo {
    /// How to stop this engine, for a message.
    pub fn how_to_stop(&self) -> String {
        match self.kind {
            EngineKind::Serve => format!("stop it with `kill {}`", self.pid),
            EngineKind::App => "quit the Gatehouse app to stop it".to_owned(),
        }
    }

    /// Reads `engine.json` in `data_dir`, if there is one that parses.
    pub fn read(data_dir: &Path) -> Option<EngineInfo> {
        let text = std::fs::read(data_dir.join(INFO_FILE)).ok()?;
        serde_json::from_slice(&text).ok()
    }
}

/// The held engine lock; dropping it removes `engine.json` and releases the lock.
#[derive(Debug)]
pub struct EngineLock {
    file: File,
    info: EngineInfo,
}

impl EngineLock {
    /// Takes the data directory's engine lock for an engine of `kind`, or says which engine
    /// holds it ([`HostError::EngineRunning`]). A killed engine's leftovers are taken over.
    pub fn acquire(data_dir: Option<&Path>, kind: EngineKind) -> Result<EngineLock> {
        let data_dir = paths::data_dir(data_dir)?;
        private_files::private_dir(&data_dir)?;
        let path = data_dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| HostError::io(format!("cannot open {}", path.display()), e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(HostError::EngineRunning(running_message(&data_dir)));
            }
            Err(TryLockError::Error(e)) => {
                return Err(HostError::io(format!("cannot lock {}", path.display()), e));
            }
        }
        let socket = socket_path(&data_dir);
        if let Some(gone) = EngineInfo::read(&data_dir) {
            tracing::info!(
                "taking over from engine pid {} (since {}), which is gone",
                gone.pid,
                gone.since
            );
        }
        #[cfg(unix)]
        remove_if_there(&socket)?;
        let info = EngineInfo {
            pid: std::process::id(),
            since: rfc3339_now(),
            kind,
            data_dir: data_dir.clone(),
            socket,
            version: env!("CARGO_PKG_VERSION").to_owned(),
        };
        write_private_atomically(&data_dir.join(INFO_FILE), &info)?;
        Ok(EngineLock { file, info })
    }

    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// What `engine.json` in the data directory (`None`: the default one) says of the engine
    /// that runs or ran there, if anything.
    pub fn described(data_dir: Option<&Path>) -> Result<Option<EngineInfo>> {
        Ok(EngineInfo::read(&paths::data_dir(data_dir)?))
    }
}

impl Drop for EngineLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.info.data_dir.join(INFO_FILE));
        let _ = self.file.unlock();
    }
}

/// Where the engine listens: `DATA/engine.sock`, or on Windows the data directory's named pipe
/// ([`super::pipe::name`]), which the system removes with the engine's last handle.
pub fn socket_path(data_dir: &Path) -> PathBuf {
    if cfg!(windows) {
        PathBuf::from(super::pipe::name(data_dir))
    } else {
        data_dir.join(SOCKET_FILE)
    }
}

/// The message for a second engine: which one runs, since when, and how to stop it.
fn running_message(data_dir: &Path) -> String {
    match EngineInfo::read(data_dir) {
        Some(info) => format!(
            "an engine already runs on {}: gatehouse {} pid {} since {}; {}",
            data_dir.display(),
            info.kind.as_str(),
            info.pid,
            info.since,
            info.how_to_stop()
        ),
        None => format!(
            "an engine already runs on {} (it is starting); quit the app or stop `gatehouse serve`",
            data_dir.display()
        ),
    }
}

#[cfg(unix)]
fn remove_if_there(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => {
            tracing::info!("removed {} left by an engine that is gone", path.display());
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(HostError::io(
            format!("cannot remove {}", path.display()),
            e,
        )),
    }
}

fn write_private_atomically(path: &Path, info: &EngineInfo) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let failed = |e| HostError::io(format!("cannot write {}", path.display()), e);
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
    let text = serde_json::to_vec_pretty(info).map_err(|e| failed(std::io::Error::other(e)))?;
    file.write_all(&text).map_err(failed)?;
    // NamedTempFile creates its file 0600 on Unix.
    file.persist(path).map_err(|e| failed(e.error))?;
    Ok(())
}

/// Now, as RFC 3339 in UTC to the second.
pub fn rfc3339_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    rfc3339(secs)
}

fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Days to civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn a_second_engine_is_refused_naming_the_first_and_a_released_lock_is_taken_over() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = EngineLock::acquire(Some(dir.path()), EngineKind::Serve).expect("first");
        let refused = EngineLock::acquire(Some(dir.path()), EngineKind::App)
            .expect_err("a second engine must be refused");
        assert_eq!(refused.code(), crate::ErrorCode::EngineRunning);
        let message = refused.to_string();
        assert!(
            message.contains(&format!("pid {}", std::process::id())) && message.contains("kill"),
            "{message}"
        );
        drop(first);
        std::fs::write(dir.path().join(SOCKET_FILE), b"left").expect("leftover");
        let second = EngineLock::acquire(Some(dir.path()), EngineKind::App).expect("taken over");
        assert!(!dir.path().join(SOCKET_FILE).exists(), "leftover removed");
        assert_eq!(second.info().kind, EngineKind::App);
    }
}
