//! Roots, the directories a server is told it may use (2025-11-25 client/roots; 2026-07-28
//! client/roots, deprecated but kept): checked when configured ([`validated`]: an absolute local
//! path or `file:` URI, without `..`, normalised by [`crate::fs_path`]), and again each time they
//! are given ([`expose`]: only a root that resolves to a directory this user can read is given, as
//! the directory it resolves to; the others are withheld with the reason). Both revisions'
//! "Security Considerations": clients MUST "validate all root URIs to prevent path traversal" and
//! "monitor root accessibility"; `sessions::root_watch` follows them while a session runs.
//!
//! A configured root may not hold `..`, even percent-encoded, and a server has at most
//! [`MAX_ROOTS`] of them; [`validated`] is the registry's check.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::fs_path;

/// The most roots one server may have.
pub const MAX_ROOTS: usize = 64;

/// A root given to a server: the `file://` URI of the directory it resolves to, and its name
/// (the last segment of the configured path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExposedRoot {
    pub uri: String,
    pub name: String,
}

/// A configured root that is not given, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withheld {
    pub uri: String,
    pub why: String,
}

/// What of the configured roots is given to a server now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exposure {
    pub listed: Vec<ExposedRoot>,
    pub withheld: Vec<Withheld>,
}

/// A configured root (`raw`: an absolute path or a `file:` URI of this computer) as the
/// normalised `file://` URI it is kept as, or what is wrong with it. A `..` is refused as
/// written, before the URL parser would resolve it away (and in its encoded forms, `%2e%2e`).
pub fn validated(raw: &str) -> Result<String, String> {
    let path = if raw
        .split_once(':')
        .is_some_and(|(scheme, _)| scheme.eq_ignore_ascii_case("file"))
    {
        let decoded = percent_encoding::percent_decode_str(raw).decode_utf8_lossy();
        if decoded.split('/').any(|segment| segment == "..") {
            return Err(climbs(raw));
        }
        fs_path::file_uri_path(raw).map_err(|e| format!("invalid root `{raw}`: {e}"))?
    } else {
        let path = PathBuf::from(raw);
        if !path.is_absolute() {
            return Err(format!(
                "the root `{raw}` must be an absolute path or a file:// URI"
            ));
        }
        path
    };
    if fs_path::has_parent_component(&path) {
        return Err(climbs(raw));
    }
    if path.as_os_str().len() > fs_path::MAX_PATH_BYTES
        || path.as_os_str().as_encoded_bytes().contains(&0)
    {
        return Err(format!(
            "invalid root `{raw}`: it must be at most {} bytes, without NUL",
            fs_path::MAX_PATH_BYTES
        ));
    }
    let normal = fs_path::lexical(&path).map_err(|e| format!("invalid root `{raw}`: {e}"))?;
    url::Url::from_file_path(&normal)
        .map(|url| url.to_string())
        .map_err(|()| format!("invalid root `{raw}`"))
}

fn climbs(raw: &str) -> String {
    format!("the root `{raw}` must not contain `..`: name the directory itself")
}

/// What of `configured` (as kept: `file://` URIs) may be given to a server now: each root that
/// still validates and resolves (symbolic links followed) to a directory that exists and that
/// this user can list, as the URI of that directory; the rest withheld with the reason.
/// Roots that resolve to the same directory are given once. Blocking filesystem I/O.
pub fn expose(configured: &[String]) -> Exposure {
    let mut exposure = Exposure::default();
    for uri in configured {
        match exposed(uri) {
            Ok(root) if exposure.listed.iter().any(|r| r.uri == root.uri) => {}
            Ok(root) => exposure.listed.push(root),
            Err(why) => exposure.withheld.push(Withheld {
                uri: uri.clone(),
                why,
            }),
        }
    }
    exposure
}

fn exposed(uri: &str) -> Result<ExposedRoot, String> {
    let kept = validated(uri)?;
    let path = fs_path::file_uri_path(&kept).map_err(|e| e.to_string())?;
    let resolved = fs_path::resolve(&path).map_err(|e| e.to_string())?;
    let metadata = std::fs::metadata(&resolved).map_err(|e| match e.kind() {
        ErrorKind::NotFound => "it does not exist".to_owned(),
        _ => format!("it cannot be reached: {e}"),
    })?;
    if !metadata.is_dir() {
        return Err("it is not a directory".into());
    }
    std::fs::read_dir(&resolved).map_err(|e| format!("it cannot be read: {e}"))?;
    let uri = url::Url::from_file_path(&resolved)
        .map_err(|()| "it does not resolve to a local path".to_owned())?
        .to_string();
    Ok(ExposedRoot {
        uri,
        name: name_of(&path),
    })
}

/// The last segment of `path`, or the whole path for the root directory.
fn name_of(path: &Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}

#[cfg(unix)]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_is_kept_normalised_and_never_with_dot_dot() {
        for (raw, kept) in [
            ("/home/me/project", "file:///home/me/project"),
            ("/home//me/./project/", "file:///home/me/project"),
            ("file:///tmp/x", "file:///tmp/x"),
            ("file://localhost/tmp/a%20b", "file:///tmp/a%20b"),
            ("FILE:///tmp/x/", "file:///tmp/x"),
        ] {
            assert_eq!(validated(raw).as_deref(), Ok(kept), "{raw}");
        }
        for raw in [
            "/home/me/../other",
            "/home/me/..",
            "file:///home/me/../other",
            "file:///home/me/%2e%2e/other",
            "file:///home/me/.%2E/other",
            "file:///home/me/..%2Fother",
        ] {
            let refused = validated(raw).expect_err(raw);
            assert!(
                refused.contains("must not contain `..`"),
                "{raw}: {refused}"
            );
        }
        for (raw, why) in [
            ("relative/dir", "absolute path or a file:// URI"),
            ("~/projects", "absolute path or a file:// URI"),
            ("https://example.test/", "absolute path or a file:// URI"),
            ("file://server/share", "not a local path"),
        ] {
            let refused = validated(raw).expect_err(raw);
            assert!(refused.contains(why), "{raw}: {refused}");
        }
    }

    #[test]
    fn only_readable_directories_are_given_as_what_they_resolve_to() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::create_dir(root.join("a")).expect("a");
        std::fs::create_dir(root.join("elsewhere")).expect("elsewhere");
        std::fs::write(root.join("file"), "x").expect("file");
        std::os::unix::fs::symlink(root.join("elsewhere"), root.join("link")).expect("link");
        std::os::unix::fs::symlink(root.join("loop"), root.join("loop")).expect("loop");
        let uri = |name: &str| format!("file://{}/{name}", root.display());
        let configured: Vec<String> = ["a", "missing", "file", "link", "loop", "a"]
            .into_iter()
            .map(uri)
            .collect();
        let exposure = expose(&configured);
        assert_eq!(
            exposure.listed,
            [
                ExposedRoot {
                    uri: uri("a"),
                    name: "a".into()
                },
                ExposedRoot {
                    uri: uri("elsewhere"),
                    name: "link".into()
                },
            ]
        );
        let why: Vec<(&str, &str)> = exposure
            .withheld
            .iter()
            .map(|w| (w.uri.rsplit('/').next().unwrap_or(""), w.why.as_str()))
            .collect();
        assert_eq!(why[0], ("missing", "it does not exist"));
        assert_eq!(why[1], ("file", "it is not a directory"));
        assert_eq!(why[2].0, "loop");
        assert!(why[2].1.contains("symbolic links"), "{}", why[2].1);
        assert_eq!(why.len(), 3);
    }
}
