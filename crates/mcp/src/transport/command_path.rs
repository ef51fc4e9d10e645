//! Finding a stdio server's program. A bare name (`npx`, `uvx`) is looked up in the `PATH` the
//! server itself gets (its own `PATH` if its environment sets one, else this process's), the way
//! a shell would, so that a program that is not there fails with an error naming every
//! directory searched (`McpError::CommandNotFound`) instead of a bare "No such file or
//! directory".

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::error::McpError;

/// The program to run for `command`: a name with a `/` as it is (relative to the server's
/// working directory), a bare name as the first executable file of that name in `PATH`.
pub(crate) fn resolve(
    command: &str,
    env: &[(String, String)],
    cwd: Option<&Path>,
) -> Result<PathBuf, McpError> {
    if command.contains('/') {
        return Ok(PathBuf::from(command));
    }
    let path = search_path(env);
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    for dir in &dirs {
        // POSIX: an empty entry is the working directory.
        let dir = match (dir.as_os_str().is_empty(), cwd) {
            (true, Some(cwd)) => cwd.to_path_buf(),
            (true, None) => PathBuf::from("."),
            (false, _) => dir.clone(),
        };
        let candidate = dir.join(command);
        if is_executable(&candidate) {
            return Ok(candidate);
        }
    }
    Err(McpError::CommandNotFound {
        command: command.to_owned(),
        searched: dirs
            .iter()
            .map(|d| match d.as_os_str().is_empty() {
                true => "(the working directory)".to_owned(),
                false => d.display().to_string(),
            })
            .collect(),
    })
}

/// The `PATH` the server gets: the last one its environment sets, else this process's.
fn search_path(env: &[(String, String)]) -> OsString {
    env.iter()
        .rev()
        .find(|(key, _)| key == "PATH")
        .map(|(_, value)| OsString::from(value))
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default()
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_is_found_in_the_servers_own_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let program = dir.path().join("only-here");
        std::fs::write(&program, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let env = vec![(
            "PATH".to_owned(),
            format!("/nonexistent:{}", dir.path().display()),
        )];
        assert_eq!(resolve("only-here", &env, None).expect("found"), program);
    }

    #[test]
    fn a_missing_program_names_every_directory_searched() {
        let env = vec![(
            "PATH".to_owned(),
            "/nonexistent/a:/nonexistent/b".to_owned(),
        )];
        let error = resolve("no-such-program", &env, None).expect_err("not found");
        assert_eq!(
            error.to_string(),
            "`no-such-program` was not found; looked in /nonexistent/a, /nonexistent/b \
             (add its directory to the server's PATH, or give its full path)"
        );
    }

    #[test]
    fn a_file_that_is_not_executable_is_passed_over() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("plain"), "x").expect("write");
        let env = vec![("PATH".to_owned(), dir.path().display().to_string())];
        assert!(resolve("plain", &env, None).is_err());
    }
}
