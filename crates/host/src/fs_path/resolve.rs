//! Resolving an absolute path as the kernel would: component by component, each symbolic link
//! replaced by its target (a relative target from the link's directory), `..` taken from the
//! directory actually reached (so `link/..` is the parent of the link's target, not of the
//! link). Where a component does not exist (a file not written yet), the rest is appended as
//! it stands, each `..` removing the name before it, and later components are still looked up
//! (so `new/../link` follows `link`). At most [`MAX_LINKS`] links are followed, as on Linux;
//! more is a loop.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use super::escape::{Escape, MAX_LINKS, MAX_PATH_BYTES};

/// One step still to take.
enum Step {
    Parent,
    Name(OsString),
}

/// `path` (absolute) with every symbolic link along it followed; see the module's header.
pub fn resolve(path: &Path) -> Result<PathBuf, Escape> {
    if !path.has_root() {
        return Err(Escape::Unresolvable("the path is not absolute".into()));
    }
    if path.as_os_str().len() > MAX_PATH_BYTES {
        return Err(Escape::TooLong);
    }
    let mut resolved = PathBuf::new();
    let mut pending = VecDeque::new();
    start(path, &mut resolved, &mut pending);
    let mut links = 0usize;
    while let Some(step) = pending.pop_front() {
        let name = match step {
            Step::Parent => {
                resolved.pop();
                continue;
            }
            Step::Name(name) => name,
        };
        resolved.push(&name);
        let metadata = match std::fs::symlink_metadata(&resolved) {
            Ok(metadata) => metadata,
            // Not there (yet), or under something that is not a directory, or out of reach:
            // what follows is appended as it stands.
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::NotFound | ErrorKind::NotADirectory | ErrorKind::PermissionDenied
                ) =>
            {
                continue;
            }
            Err(e) => return Err(Escape::Unresolvable(e.to_string())),
        };
        if !metadata.file_type().is_symlink() {
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return Err(Escape::LinkLoop);
        }
        let target =
            std::fs::read_link(&resolved).map_err(|e| Escape::Unresolvable(e.to_string()))?;
        resolved.pop();
        let mut spliced = VecDeque::new();
        if target.has_root() {
            resolved = PathBuf::new();
            start(&target, &mut resolved, &mut spliced);
        } else {
            steps(&target, &mut spliced);
        }
        spliced.extend(pending);
        pending = spliced;
        if resolved.as_os_str().len() + pending.len() > MAX_LINKS * MAX_PATH_BYTES {
            return Err(Escape::TooLong);
        }
    }
    Ok(resolved)
}

/// Sets `resolved` to the root of `path` (with its prefix, on Windows) and queues the rest.
fn start(path: &Path, resolved: &mut PathBuf, pending: &mut VecDeque<Step>) {
    for component in path.components() {
        if let Component::Prefix(_) | Component::RootDir = component {
            resolved.push(component.as_os_str());
        }
    }
    steps(path, pending);
}

/// Queues the names and `..` of `path` (`.` is no step; the root was taken by [`start`]).
fn steps(path: &Path, pending: &mut VecDeque<Step>) {
    for component in path.components() {
        match component {
            Component::ParentDir => pending.push_back(Step::Parent),
            Component::Normal(name) => pending.push_back(Step::Name(name.to_owned())),
            Component::Prefix(_) | Component::RootDir | Component::CurDir => {}
        }
    }
}
