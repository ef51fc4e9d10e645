//! Where agents keep their config: the directories the per-agent files build their paths from,
//! taken from the environment (`HOME`, `XDG_CONFIG_HOME`, `APPDATA`, `CODEX_HOME`) so a test can
//! point them at a made-up home.

use std::path::PathBuf;

/// The person's directories, as the agents find them.
#[derive(Debug, Clone)]
pub struct Places {
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME` (else `~/.config`) on Linux; `~/Library/Application Support` on macOS;
    /// `%APPDATA%` on Windows.
    pub config_dir: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: PathBuf,
}

impl Places {
    /// From the environment; `None` when no home directory is known.
    pub fn from_env() -> Option<Places> {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .or_else(dirs::home_dir)?;
        Some(Places::for_home(home))
    }

    /// For a given home directory, with the rest from the environment as the agents read it.
    pub fn for_home(home: PathBuf) -> Places {
        let env_dir = |name: &str| {
            std::env::var_os(name)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        let config_dir = if cfg!(target_os = "macos") {
            home.join("Library/Application Support")
        } else if cfg!(windows) {
            env_dir("APPDATA").unwrap_or_else(|| home.join("AppData/Roaming"))
        } else {
            env_dir("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"))
        };
        let codex_home = env_dir("CODEX_HOME").unwrap_or_else(|| home.join(".codex"));
        Places {
            home,
            config_dir,
            codex_home,
        }
    }
}
