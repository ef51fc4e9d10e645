//! The glob side of path rules. A glob's fixed start (the directories before its first wildcard)
//! is normalised like the values it is matched with ([`crate::fs_path::lexical`]), so
//! `/home/u//projects/**` and `./docs/**` mean what they say; and where that start is reached
//! through a symbolic link on this machine (`~/projects` → `/data/projects`), the glob is also
//! taken at the link's target ([`at_resolved_start`]), so a value that resolves into the target
//! is inside it.

use std::path::Path;

use crate::fs_path;

/// What makes a glob segment a pattern rather than a name (`\` escapes, so it ends the fixed
/// start too).
const GLOB_SYNTAX: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];

/// `glob` split into its fixed start (a path, without a trailing `/` unless it is the root)
/// and the rest (from the first segment with glob syntax), if any.
fn split(glob: &str) -> (&str, Option<&str>) {
    let mut end = 0;
    for (at, segment) in segment_starts(glob) {
        if segment.contains(GLOB_SYNTAX) {
            let start = glob[..at].trim_end_matches('/');
            let start = if start.is_empty() && glob.starts_with('/') {
                "/"
            } else {
                start
            };
            return (start, Some(&glob[at..]));
        }
        end = at + segment.len();
    }
    (&glob[..end], None)
}

/// Each `/`-separated segment of `text` with the byte offset where it starts.
fn segment_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split('/').map(move |segment| {
        let start = at;
        at += segment.len() + 1;
        (start, segment)
    })
}

fn join(start: &str, rest: Option<&str>) -> String {
    match rest {
        None => start.to_owned(),
        Some(rest) if start.is_empty() => rest.to_owned(),
        Some(rest) if start.ends_with('/') => format!("{start}{rest}"),
        Some(rest) => format!("{start}/{rest}"),
    }
}

/// `glob` (with `~/` already expanded) with its fixed start normalised: an absolute start
/// lexically, a relative one without leading `./`. Anything else is left as written (a URL
/// glob keeps its `//`).
pub(super) fn normalised(glob: &str) -> String {
    let (start, rest) = split(glob);
    if start.starts_with('/') {
        if let Ok(normal) = fs_path::lexical(Path::new(start))
            && let Some(normal) = normal.to_str()
        {
            return join(&globset::escape(normal), rest);
        }
    } else if start.starts_with("./") || start == "." {
        let mut stripped = start;
        while let Some(after) = stripped.strip_prefix("./") {
            stripped = after.trim_start_matches('/');
        }
        let stripped = if stripped == "." { "" } else { stripped };
        return join(stripped, rest);
    }
    glob.to_owned()
}

/// `glob` (normalised) taken at the resolved target of its fixed start, when that start is an
/// absolute path reached through a symbolic link; `None` when it is not (or cannot be
/// resolved). Does filesystem I/O.
pub(super) fn at_resolved_start(glob: &str) -> Option<String> {
    let (start, rest) = split(glob);
    if !start.starts_with('/') || start == "/" {
        return None;
    }
    let resolved = fs_path::resolve(Path::new(start)).ok()?;
    let resolved = resolved.to_str()?;
    (resolved != start).then(|| join(&globset::escape(resolved), rest))
}

#[cfg(unix)]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_globs_fixed_start_is_normalised_and_the_rest_kept() {
        for (glob, want) in [
            ("/home/u/projects/**", "/home/u/projects/**"),
            ("/home//u/./projects/**", "/home/u/projects/**"),
            ("/home/u/x/../projects/*.txt", "/home/u/projects/*.txt"),
            ("/home/u/projects/", "/home/u/projects"),
            ("/**", "/**"),
            ("/", "/"),
            ("./docs/**", "docs/**"),
            ("././docs", "docs"),
            ("**/.ssh/**", "**/.ssh/**"),
            ("https://example.com/**", "https://example.com/**"),
            ("prod-*", "prod-*"),
            ("/a/b[c]/**", "/a/b[c]/**"),
        ] {
            assert_eq!(normalised(glob), want, "{glob}");
        }
    }

    #[test]
    fn a_start_reached_through_a_link_is_also_taken_at_its_target() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::create_dir(root.join("data")).expect("data");
        std::os::unix::fs::symlink(root.join("data"), root.join("projects")).expect("link");
        let root = root.display().to_string();
        assert_eq!(
            at_resolved_start(&format!("{root}/projects/**")),
            Some(format!("{root}/data/**"))
        );
        assert_eq!(at_resolved_start(&format!("{root}/data/**")), None);
        assert_eq!(at_resolved_start("docs/**"), None);
        assert_eq!(at_resolved_start("/**"), None);
    }
}
