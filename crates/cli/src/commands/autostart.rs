//! `gatehouse autostart on|off|status [--json]`: whether the Gatehouse app starts, hidden in
//! the tray, when the person logs in (the session's autostart entry, written by
//! `gatehouse_host::autostart`). `on` needs the app: `GATEHOUSE_APP` when set, else
//! `gatehouse-app` beside this `gatehouse` (the package installs both in one folder); it
//! refuses, writing nothing, when that file is missing. No engine, database or keyring is used.
//! `--json` prints `{"enabled": bool, "entry": PATH, "exec": TEXT or null}` for each.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use gatehouse_host::HostError;
use gatehouse_host::autostart::{self, AutostartStatus};

use crate::output;

/// The variable naming the app to start.
pub const APP_ENV: &str = "GATEHOUSE_APP";

#[derive(Debug, Subcommand)]
pub enum AutostartCommand {
    /// Start the app hidden in the tray at login
    On {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Stop starting the app at login
    Off {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Say whether the app starts at login
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: &AutostartCommand) -> Result<(), HostError> {
    match *command {
        AutostartCommand::On { json } => {
            let exe = std::env::current_exe().map_err(|source| HostError::Io {
                context: "cannot tell where this gatehouse is".into(),
                source,
            })?;
            let app = app_path(std::env::var_os(APP_ENV), &exe)?;
            show(&autostart::enable(&app)?, json, "")
        }
        AutostartCommand::Off { json } => {
            let removed = autostart::disable()?;
            let note = if removed {
                " (removed)"
            } else {
                " (there was no entry)"
            };
            show(&autostart::status()?, json, note)
        }
        AutostartCommand::Status { json } => show(&autostart::status()?, json, ""),
    }
}

/// Prints `status` as JSON, or as `autostart on|off: ENTRY` and what the entry runs.
fn show(status: &AutostartStatus, json: bool, note: &str) -> Result<(), HostError> {
    if json {
        return output::print_json(status);
    }
    let state = if status.enabled { "on" } else { "off" };
    say!("autostart {state}: {}{note}", status.entry.display());
    if let Some(exec) = &status.exec {
        say!("  Exec={exec}");
    }
    Ok(())
}

/// The app to start: `env` (the value of `GATEHOUSE_APP`) when set, made absolute, else
/// `gatehouse-app` beside `exe`; refused when the file is not there.
pub(crate) fn app_path(env: Option<OsString>, exe: &Path) -> Result<PathBuf, HostError> {
    if let Some(value) = env.filter(|v| !v.is_empty()) {
        let app = std::path::absolute(PathBuf::from(&value)).map_err(|source| HostError::Io {
            context: format!("{APP_ENV}: cannot resolve {value:?}"),
            source,
        })?;
        if !app.is_file() {
            return Err(HostError::Validation(format!(
                "{APP_ENV} is {}, which is not a file: set it to the Gatehouse app's path",
                app.display()
            )));
        }
        return Ok(app);
    }
    let beside = exe
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("gatehouse-app{}", std::env::consts::EXE_SUFFIX));
    if !beside.is_file() {
        return Err(HostError::Validation(format!(
            "cannot find the Gatehouse app: there is no {} beside this gatehouse; install the \
             app, or set {APP_ENV} to its path",
            beside.display()
        )));
    }
    Ok(beside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_comes_first_then_the_app_beside_the_cli() {
        let dir = tempfile::tempdir().expect("temp dir");
        let exe = dir.path().join("gatehouse");
        let missing = app_path(None, &exe).expect_err("nothing beside");
        assert!(
            missing.to_string().contains("set GATEHOUSE_APP"),
            "{missing}"
        );
        let beside = dir.path().join("gatehouse-app");
        std::fs::write(&beside, b"").expect("an app beside");
        assert_eq!(app_path(None, &exe).expect("beside"), beside);
        assert_eq!(
            app_path(Some("".into()), &exe).expect("empty: unset"),
            beside
        );
        let other = dir.path().join("other app");
        std::fs::write(&other, b"").expect("another app");
        assert_eq!(
            app_path(Some(other.clone().into_os_string()), &exe).expect("from the variable"),
            other
        );
        let gone = app_path(Some(dir.path().join("gone").into_os_string()), &exe)
            .expect_err("the variable names no file");
        assert!(gone.to_string().starts_with("GATEHOUSE_APP is "), "{gone}");
    }
}
