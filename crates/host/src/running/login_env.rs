//! The login shell's environment. An app started from a desktop launcher (a GNOME or KDE menu,
//! the macOS Dock) does not get the `PATH` a terminal has, so `npx`, `uvx`, `node`, `python` or
//! `docker` installed through a version manager or Homebrew are "not found" (the classic
//! "spawn npx ENOENT"). The host asks the user's shell once, as a login shell, for its
//! environment, and gives it to every stdio server: the command is looked up in its `PATH`.
//!
//! The shell runs `-l -i -c` (login and interactive, so both profile and rc files are read)
//! with no terminal, in a process group of its own, and is given [`TIMEOUT`]; whatever it
//! prints around the environment (a greeting, a prompt theme's noise) is skipped by marks. If
//! it fails or takes too long, servers get this process's own environment.
//!
//! The shell is given 3 s, and its process group is killed after. Servers get its `PATH` first
//! (then this process's other entries) and the variables it has that this process lacks. Only a
//! host given a login shell (the app) asks; the CLI's servers get the CLI's own environment.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// How long the login shell may take.
pub const TIMEOUT: Duration = Duration::from_secs(3);

/// Marks the start and end of the environment in the shell's output.
const MARK: &str = "_GATEHOUSE_LOGIN_ENV_";

/// Variables never taken from the login shell: they describe the shell itself.
const SHELL_OWN: &[&str] = &[
    "_",
    "SHLVL",
    "PWD",
    "OLDPWD",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "PROMPT_COMMAND",
    "TERM",
    "COLUMNS",
    "LINES",
    "TMUX",
    "TMUX_PANE",
];

/// What stdio servers get on top of this process's environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoginEnv {
    /// `PATH` (the login shell's entries first, then this process's others) and the variables
    /// the login shell has that this process lacks.
    pub vars: Vec<(String, String)>,
}

impl LoginEnv {
    /// The `PATH` servers get, if the login shell gave one.
    pub fn path(&self) -> Option<&str> {
        self.vars
            .iter()
            .find(|(key, _)| key == "PATH")
            .map(|(_, value)| value.as_str())
    }
}

/// The user's shell: `$SHELL`, else `/bin/sh`.
pub fn user_shell() -> PathBuf {
    std::env::var_os("SHELL")
        .filter(|shell| !shell.is_empty())
        .map_or_else(|| PathBuf::from("/bin/sh"), PathBuf::from)
}

/// Asks `shell` for its login environment; an empty [`LoginEnv`] if that fails.
pub async fn resolve(shell: &Path) -> LoginEnv {
    match ask(shell).await {
        Ok(vars) => {
            let merged = merge(&vars, std::env::vars_os());
            tracing::debug!(
                "{} gave {} variables; servers get PATH={:?}",
                shell.display(),
                merged.vars.len(),
                merged.path()
            );
            merged
        }
        Err(why) => {
            tracing::warn!(
                "cannot read the login environment of {}: {why}; stdio servers get this \
                 process's environment",
                shell.display()
            );
            LoginEnv::default()
        }
    }
}

async fn ask(shell: &Path) -> Result<HashMap<String, String>, String> {
    // PATH is printed on its own first, for an `env` without `-0` (older macOS).
    let script = format!(
        "printf '%s' '{MARK}'; printf 'PATH=%s\\0' \"$PATH\"; env -0; printf '%s' '{MARK}'"
    );
    let mut command = tokio::process::Command::new(shell);
    command
        .args(["-l", "-i", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    let child = command.spawn().map_err(|e| e.to_string())?;
    let group = child
        .id()
        .and_then(|pid| i32::try_from(pid).ok())
        .map(Pid::from_raw);
    let output = tokio::time::timeout(TIMEOUT, child.wait_with_output()).await;
    // Whatever the shell started (a prompt theme's helpers) goes with it.
    if let Some(group) = group {
        let _ = killpg(group, Signal::SIGKILL);
    }
    let output = match output {
        Ok(output) => output.map_err(|e| e.to_string())?,
        Err(_) => return Err(format!("no answer within {TIMEOUT:?}")),
    };
    parse(&output.stdout).ok_or_else(|| "its output holds no environment".to_owned())
}

/// The variables between the two marks, `KEY=VALUE` separated by NUL.
fn parse(output: &[u8]) -> Option<HashMap<String, String>> {
    let text = String::from_utf8_lossy(output);
    let start = text.find(MARK)? + MARK.len();
    let end = start + text[start..].find(MARK)?;
    let vars = text[start..end]
        .split('\0')
        .filter_map(|entry| entry.split_once('='))
        .filter(|(key, _)| {
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .collect();
    Some(vars)
}

/// `PATH`: the login shell's entries, then this process's others. Other variables: the login
/// shell's where this process has none (this process's own settings win).
fn merge(
    login: &HashMap<String, String>,
    current: impl Iterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
) -> LoginEnv {
    let current: HashMap<String, String> = current
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    let mut vars: Vec<(String, String)> = Vec::new();
    if let Some(login_path) = login.get("PATH").filter(|p| !p.is_empty()) {
        let mut entries: Vec<&str> = login_path.split(':').collect();
        if let Some(own) = current.get("PATH") {
            for entry in own.split(':') {
                if !entries.contains(&entry) {
                    entries.push(entry);
                }
            }
        }
        vars.push(("PATH".to_owned(), entries.join(":")));
    }
    let mut others: Vec<(String, String)> = login
        .iter()
        .filter(|(key, _)| {
            key.as_str() != "PATH"
                && !SHELL_OWN.contains(&key.as_str())
                && !current.contains_key(key.as_str())
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    others.sort();
    vars.extend(others);
    LoginEnv { vars }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_what_is_between_the_marks() {
        let output = format!("motd noise\n{MARK}PATH=/a:/b\0HOME=/h\0X=1=2\0{MARK}prompt");
        let vars = parse(output.as_bytes()).expect("vars");
        assert_eq!(vars.get("PATH").map(String::as_str), Some("/a:/b"));
        assert_eq!(vars.get("X").map(String::as_str), Some("1=2"));
    }

    #[test]
    fn the_login_path_comes_first_and_this_process_keeps_its_settings() {
        let login: HashMap<String, String> = [
            ("PATH", "/login/bin:/usr/bin"),
            ("NVM_DIR", "/home/u/.nvm"),
            ("HOME", "/elsewhere"),
            ("SHLVL", "2"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let current = [("PATH", "/usr/bin:/bin"), ("HOME", "/home/u")]
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()));
        let env = merge(&login, current);
        assert_eq!(
            env.vars,
            vec![
                ("PATH".to_owned(), "/login/bin:/usr/bin:/bin".to_owned()),
                ("NVM_DIR".to_owned(), "/home/u/.nvm".to_owned()),
            ]
        );
    }
}
