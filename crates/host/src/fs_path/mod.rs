//! Paths given as values (a tool call's argument, a configured root): one normalisation for
//! everything that decides on a path. A value that looks like a path (absolute, `~` or `~/…`,
//! a `file:` URI, or a relative path with a `/`) is read as one: `~` is the home directory, a
//! `file:` URI is percent-decoded (so `%2e%2e` is `..`), repeated separators are collapsed, and
//! `.` and `..` are resolved lexically ([`lexical`]); where it exists on this machine it is
//! also resolved as the filesystem would, symbolic links followed ([`resolve`]). A relative
//! path that still climbs above its start, or a path that cannot be resolved (a loop of links,
//! longer than [`MAX_PATH_BYTES`], a NUL, a `file:` URI naming another host), is an
//! [`Escape`]: whoever decides on it must treat it as outside everything.
//!
//! Only `/` separates (on Unix a `\` is an ordinary character of a name). Reading a path does
//! filesystem I/O: call it off the async runtime's workers.
//!
//! A `file:` URI is decoded by the `url` crate. Resolving takes the longest existing ancestor
//! through its links and appends the rest; at most 40 links ([`MAX_LINKS`]) and 4096 bytes.

mod escape;
mod resolve;
#[cfg(all(test, unix))]
mod tests;

use std::path::{Component, Path, PathBuf};

pub use escape::{Escape, MAX_LINKS, MAX_PATH_BYTES};
pub use resolve::resolve;

/// A value read as a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathValue {
    /// Not a path (plain text, a URL of another scheme): it stands as written.
    NotAPath,
    /// An absolute path, lexically normalised (`lexical`) and as the filesystem resolves it
    /// today (`resolved`: symbolic links followed through the longest existing ancestor, the
    /// rest appended). Both are UTF-8.
    Absolute { lexical: String, resolved: String },
    /// A relative path that stays below its start, lexically normalised (nothing to resolve
    /// it against: a server resolves it against a directory Gatehouse does not know).
    Relative(String),
    /// A path that climbs above its start or cannot be resolved.
    Escapes(Escape),
}

/// Reads `value` as a path if it looks like one (see the module's header). Does filesystem
/// I/O for an absolute path.
pub fn read(value: &str) -> PathValue {
    let Some(path) = classify(value) else {
        return PathValue::NotAPath;
    };
    match path.and_then(|path| placed(&path)) {
        Ok(value) => value,
        Err(escape) => PathValue::Escapes(escape),
    }
}

/// The path a path-like `value` names before normalisation (`~` expanded, a `file:` URI
/// decoded), or `None` when it is not a path.
fn classify(value: &str) -> Option<Result<PathBuf, Escape>> {
    let path_like = value.starts_with('/')
        || value == "~"
        || value.starts_with("~/")
        || has_scheme(value, "file")
        || (!has_any_scheme(value) && (value.contains('/') || value == "." || value == ".."));
    if !path_like {
        return None;
    }
    if value.len() > MAX_PATH_BYTES {
        return Some(Err(Escape::TooLong));
    }
    if value.contains('\0') {
        return Some(Err(Escape::Nul));
    }
    Some(if has_scheme(value, "file") {
        file_uri_path(value)
    } else if let Some(rest) = value.strip_prefix('~') {
        dirs::home_dir()
            .ok_or(Escape::NoHome)
            .map(|home| home.join(rest.trim_start_matches('/')))
    } else {
        Ok(PathBuf::from(value))
    })
}

/// Normalises an absolute or relative path and, when absolute, resolves it.
fn placed(path: &Path) -> Result<PathValue, Escape> {
    let normal = lexical(path)?;
    let text = |p: &Path| p.to_str().map(str::to_owned).ok_or(Escape::NotUtf8);
    if !path.has_root() {
        return Ok(PathValue::Relative(text(&normal)?));
    }
    let resolved = resolve(path)?;
    Ok(PathValue::Absolute {
        lexical: text(&normal)?,
        resolved: text(&resolved)?,
    })
}

/// Whether `value` starts with a URI scheme (`letter *(letter / digit / + / - / .) :`,
/// RFC 3986 §3.1) other than a single letter (a drive letter such as `C:` is no scheme).
fn has_any_scheme(value: &str) -> bool {
    let Some((scheme, _)) = value.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    scheme.len() > 1
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

fn has_scheme(value: &str, scheme: &str) -> bool {
    value
        .split_once(':')
        .is_some_and(|(s, _)| s.eq_ignore_ascii_case(scheme))
}

/// The local path of a `file:` URI, percent-decoded by the `url` crate (whose parser also
/// resolves `.`, `..` and their encoded forms such as `%2e%2e`); a URI naming another host, or
/// one that does not parse, is not local.
pub fn file_uri_path(uri: &str) -> Result<PathBuf, Escape> {
    let url = url::Url::parse(uri).map_err(|e| Escape::NotLocal(e.to_string()))?;
    if url.scheme() != "file" {
        return Err(Escape::NotLocal(format!(
            "the scheme is `{}`",
            url.scheme()
        )));
    }
    let path = url
        .to_file_path()
        .map_err(|()| Escape::NotLocal(format!("it names the host `{}`", url_host(&url))))?;
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(Escape::Nul);
    }
    Ok(path)
}

fn url_host(url: &url::Url) -> String {
    url.host_str().unwrap_or_default().to_owned()
}

/// `path` with repeated separators collapsed and `.` and `..` resolved without looking at the
/// filesystem. `..` at the root stays at the root; a relative path that climbs above its start
/// is an [`Escape::ClimbsAbove`]. An empty relative result is `.`.
pub fn lexical(path: &Path) -> Result<PathBuf, Escape> {
    let mut out = PathBuf::new();
    let mut depth = 0usize;
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => out.push(component.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => {
                out.pop();
                depth -= 1;
            }
            Component::ParentDir if path.has_root() => {}
            Component::ParentDir => return Err(Escape::ClimbsAbove),
            Component::Normal(name) => {
                out.push(name);
                depth += 1;
            }
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    Ok(out)
}

/// Whether `path` has a `..` component as written.
pub fn has_parent_component(path: &Path) -> bool {
    path.components().any(|c| c == Component::ParentDir)
}
