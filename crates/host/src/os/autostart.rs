//! Start with the session: the Gatehouse app started hidden in the tray when the person logs
//! in. On Linux and the BSDs this is an XDG autostart entry (the Desktop Application Autostart
//! Specification): `$XDG_CONFIG_HOME/autostart/gatehouse.desktop`, `~/.config/autostart` when the
//! variable is unset or not absolute, whose `Exec` runs the app with `--hidden`. The entry is
//! written here rather than with the `auto-launch` crate, which (0.5) ignores `XDG_CONFIG_HOME`,
//! writes the path into `Exec` unquoted (a path with a space breaks) and panics without a home
//! directory. The app's path is quoted by the Desktop Entry Specification's rules for `Exec`
//! (the argument in double quotes when it holds a reserved character, `"`, `` ` ``, `$` and `\`
//! escaped inside, then the value's own escaping, `\` doubled, and `%` doubled as a field code
//! would be). An entry another program wrote there with `Hidden=true` counts as off, as the
//! specification says. Elsewhere: [`HostError::Unsupported`].

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{HostError, Result};

/// The entry's file name in the autostart folder.
pub const ENTRY_FILE: &str = "gatehouse.desktop";

/// The argument the app starts with from the session: into the tray, no window.
pub const HIDDEN_ARG: &str = "--hidden";

/// Whether Gatehouse starts with the session, and how.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AutostartStatus {
    /// The entry is there and not hidden.
    pub enabled: bool,
    /// Where the entry is (or would be).
    pub entry: PathBuf,
    /// Its `Exec` line as written, when there is an entry.
    pub exec: Option<String>,
}

/// Writes the autostart entry that starts `app_path` hidden at login; the entry's status.
/// `app_path` must be an absolute path to an existing file, in UTF-8 without control
/// characters (a desktop entry holds nothing else).
pub fn enable(app_path: &Path) -> Result<AutostartStatus> {
    let entry = entry_path()?;
    let text = entry_text(app_path)?;
    if !app_path.is_file() {
        return Err(HostError::Validation(format!(
            "the app {} does not exist: install Gatehouse's app, or set GATEHOUSE_APP to it",
            app_path.display()
        )));
    }
    let folder = entry.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder)
        .map_err(|e| HostError::io(format!("cannot create {}", folder.display()), e))?;
    // Written beside it and renamed over it: a session starting meanwhile reads either entry
    // whole.
    let mut file = tempfile::NamedTempFile::new_in(folder)
        .map_err(|e| HostError::io(format!("cannot write in {}", folder.display()), e))?;
    file.write_all(text.as_bytes())
        .map_err(|e| HostError::io(format!("cannot write {}", entry.display()), e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(file.path(), std::fs::Permissions::from_mode(0o644))
            .map_err(|e| HostError::io(format!("cannot write {}", entry.display()), e))?;
    }
    file.persist(&entry)
        .map_err(|e| HostError::io(format!("cannot write {}", entry.display()), e.error))?;
    status()
}

/// Removes the autostart entry; whether there was one.
pub fn disable() -> Result<bool> {
    let entry = entry_path()?;
    match std::fs::remove_file(&entry) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(HostError::io(
            format!("cannot remove {}", entry.display()),
            e,
        )),
    }
}

/// Whether Gatehouse starts with the session.
pub fn is_enabled() -> Result<bool> {
    Ok(status()?.enabled)
}

/// The entry, whether it is on, and what it runs.
pub fn status() -> Result<AutostartStatus> {
    let entry = entry_path()?;
    let text = match std::fs::read_to_string(&entry) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(AutostartStatus {
                enabled: false,
                entry,
                exec: None,
            });
        }
        Err(e) => return Err(HostError::io(format!("cannot read {}", entry.display()), e)),
    };
    let value = |key: &str| {
        text.lines()
            .map(str::trim)
            .find_map(|line| line.strip_prefix(key)?.trim_start().strip_prefix('='))
            .map(|v| v.trim().to_owned())
    };
    Ok(AutostartStatus {
        enabled: value("Hidden").as_deref() != Some("true"),
        entry,
        exec: value("Exec"),
    })
}

/// Where the entry goes: `$XDG_CONFIG_HOME/autostart/gatehouse.desktop`, else under
/// `~/.config`.
pub fn entry_path() -> Result<PathBuf> {
    if !cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd"
    )) {
        return Err(HostError::Unsupported(
            "starting with the session is only available on Linux and the BSDs yet".to_owned(),
        ));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| dirs::home_dir().map(|home| home.join(".config")))
        .ok_or_else(|| {
            HostError::Validation(
                "no home directory (HOME) and no XDG_CONFIG_HOME: set one of them".to_owned(),
            )
        })?;
    Ok(config.join("autostart").join(ENTRY_FILE))
}

/// The desktop entry that starts `app_path` hidden.
pub fn entry_text(app_path: &Path) -> Result<String> {
    let exec = exec_line(app_path)?;
    Ok(format!(
        "[Desktop Entry]\n\
         Type=Application\n\
         Version=1.0\n\
         Name=Gatehouse\n\
         Comment=Gatehouse in the tray from login: your MCP servers, policies and approvals\n\
         Exec={exec}\n\
         Terminal=false\n\
         StartupNotify=false\n\
         X-GNOME-Autostart-enabled=true\n"
    ))
}

/// The `Exec` value running `app_path` with `--hidden`.
pub fn exec_line(app_path: &Path) -> Result<String> {
    let invalid = |why: &str| {
        HostError::Validation(format!(
            "the app's path {} {why}: a desktop entry cannot name it",
            app_path.display()
        ))
    };
    if !app_path.is_absolute() {
        return Err(invalid("is not absolute"));
    }
    let path = app_path.to_str().ok_or_else(|| invalid("is not UTF-8"))?;
    if path.chars().any(char::is_control) {
        return Err(invalid("holds a control character"));
    }
    Ok(format!(
        "{} {HIDDEN_ARG}",
        escape_value(&quote_argument(path))
    ))
}

/// Characters that make an `Exec` argument need double quotes.
const RESERVED: &[char] = &[
    ' ', '\t', '\n', '"', '\'', '\\', '>', '<', '~', '|', '&', ';', '$', '*', '?', '#', '(', ')',
    '`',
];

/// One `Exec` argument, in double quotes when it holds a reserved character, with `"`, `` ` ``,
/// `$` and `\` escaped inside them.
fn quote_argument(argument: &str) -> String {
    if !argument.contains(RESERVED) {
        return argument.to_owned();
    }
    let mut quoted = String::from("\"");
    for c in argument.chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

/// An `Exec` value as the file holds it: `%` doubled (no field codes), then the string type's
/// escaping (`\` doubled).
fn escape_value(value: &str) -> String {
    value.replace('%', "%%").replace('\\', "\\\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_path_is_written_as_it_is() {
        let exec = exec_line(Path::new("/usr/bin/gatehouse-app")).expect("exec");
        assert_eq!(exec, "/usr/bin/gatehouse-app --hidden");
    }

    #[test]
    fn a_path_with_reserved_characters_is_quoted_and_escaped() {
        let exec = exec_line(Path::new("/opt/My Apps/gate$house \"x\"/100%/a\\b")).expect("exec");
        assert_eq!(
            exec,
            r#""/opt/My Apps/gate\\$house \\"x\\"/100%%/a\\\\b" --hidden"#
        );
    }

    #[test]
    fn a_relative_path_or_one_with_a_newline_is_refused() {
        assert!(exec_line(Path::new("gatehouse-app")).is_err());
        assert!(exec_line(Path::new("/opt/a\nb")).is_err());
    }
}
