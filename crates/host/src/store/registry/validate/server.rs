//! A server configuration checked whole and normalised: its name, its roots, and its
//! transport's settings (each checked by the file beside this one that knows them). Every rule
//! gives a message that says what is wrong and how to fix it, because users see these verbatim
//! in the form and the CLI.

use super::headers::validate_headers;
use super::invalid::invalid;
use super::oauth::validate_oauth;
use super::stdio::validate_stdio;
use crate::error::Result;
use crate::roots;
use crate::store::registry::model::{ServerInput, ServerSpec};

const MAX_NAME_LEN: usize = 64;

/// Checks `input` and returns it trimmed and normalised.
pub fn validate(input: ServerInput) -> Result<ServerInput> {
    let name = validate_name(&input.name)?;
    let spec = match input.spec {
        ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
            stop,
        } => validate_stdio(command, args, env, cwd, stop)?,
        ServerSpec::Http {
            url,
            transport,
            headers,
            oauth,
        } => ServerSpec::Http {
            url: validate_url(&url)?,
            transport,
            headers: validate_headers(headers)?,
            oauth: validate_oauth(oauth)?,
        },
    };
    Ok(ServerInput {
        name,
        enabled: input.enabled,
        roots: validate_roots(&input.roots)?,
        spec,
    })
}

pub(super) fn validate_name(raw: &str) -> Result<String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(invalid("the server name must not be empty"));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(invalid(format!(
            "the server name must be at most {MAX_NAME_LEN} characters"
        )));
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
    if !name.chars().next().is_some_and(char::is_alphanumeric) || !name.chars().all(allowed) {
        return Err(invalid(format!(
            "invalid server name `{name}`: use letters, digits, `-`, `_` and `.`, starting with a letter or digit"
        )));
    }
    Ok(name.to_owned())
}

/// Roots as normalised `file://` URIs of absolute local paths without `..`, without
/// duplicates, at most [`roots::MAX_ROOTS`] (2025-11-25 client/roots: "The uri MUST be a
/// file:// URI"; "Security Considerations": clients MUST "validate all root URIs to prevent
/// path traversal"). Whether each exists is checked when it is given ([`roots::expose`]).
pub(super) fn validate_roots(raw_roots: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for raw in raw_roots.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        let uri = roots::validated(raw).map_err(invalid)?;
        if !out.contains(&uri) {
            out.push(uri);
        }
    }
    if out.len() > roots::MAX_ROOTS {
        return Err(invalid(format!(
            "a server may have at most {} roots",
            roots::MAX_ROOTS
        )));
    }
    Ok(out)
}

pub(super) fn validate_url(raw: &str) -> Result<String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(invalid("the URL must not be empty"));
    }
    let url = url::Url::parse(raw).map_err(|e| invalid(format!("invalid URL `{raw}`: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid(format!(
            "invalid URL `{raw}`: the scheme must be http or https"
        )));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid(format!("invalid URL `{raw}`: it has no host")));
    }
    Ok(url.to_string())
}
