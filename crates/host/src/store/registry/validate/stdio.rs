//! A stdio server's settings checked: its command, arguments, environment, working directory
//! and stop grace.

use std::path::Path;

use super::invalid::invalid;
use crate::error::Result;
use crate::store::registry::model::{EnvVar, ServerSpec, StopGrace};

pub(super) fn validate_stdio(
    command: String,
    args: Vec<String>,
    env: Vec<EnvVar>,
    cwd: Option<String>,
    stop: StopGrace,
) -> Result<ServerSpec> {
    let command = command.trim().to_owned();
    if command.is_empty() {
        return Err(invalid("the command must not be empty"));
    }
    if command.contains('\0') || args.iter().any(|a| a.contains('\0')) {
        return Err(invalid(
            "the command and its arguments must not contain NUL characters",
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for var in &env {
        let key = var.key.as_str();
        if key.is_empty() || key.contains('=') || key.contains('\0') || key.trim() != key {
            return Err(invalid(format!(
                "invalid environment variable name `{key}`: it must be non-empty, without `=`, spaces or NUL"
            )));
        }
        if var.value.contains('\0') {
            return Err(invalid(format!(
                "the value of `{key}` must not contain NUL characters"
            )));
        }
        if !seen.insert(key) {
            return Err(invalid(format!(
                "the environment variable `{key}` is set twice"
            )));
        }
    }
    let cwd = cwd.map(|c| c.trim().to_owned()).filter(|c| !c.is_empty());
    if let Some(dir) = &cwd
        && !Path::new(dir).is_absolute()
    {
        return Err(invalid(format!(
            "the working directory `{dir}` must be an absolute path"
        )));
    }
    if stop.stdin_ms > StopGrace::MAX_MS || stop.term_ms > StopGrace::MAX_MS {
        return Err(invalid(format!(
            "a stop wait must be at most {} seconds",
            StopGrace::MAX_MS / 1000
        )));
    }
    Ok(ServerSpec::Stdio {
        command,
        args,
        env,
        cwd,
        stop,
    })
}
