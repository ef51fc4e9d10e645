//! Watching a live session's roots (both revisions' client/roots, "Implementation Guidelines":
//! clients SHOULD "monitor for root changes"). A [`RootWatch`] watches, without recursion, the
//! nearest existing directory above each root, as configured and as resolved, so that a root
//! that appears, disappears, changes its permissions or is replaced (by a symbolic link
//! elsewhere, say) is seen. After each relevant event, and when the configured roots are
//! edited, it works out again what the server would be given (`roots::expose`, off the
//! runtime's workers) and, when that changed, sends [`ServerNotice::RootsChanged`]: the session
//! tells a legacy server with `notifications/roots/list_changed`.
//!
//! The watch is owned by the session's slot and ends with it (its task is aborted on drop,
//! which drops the OS watcher). It is bounded: at most two watched directories per root
//! (`roots::MAX_ROOTS` roots), events folded into one pending recheck. The OS watcher is
//! created only when there is a directory to watch, and what it watches is renewed at each
//! check.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use crate::connections::server_requests::{ServerNotice, SharedRoots};
use crate::fs_path;
use crate::roots::{ExposedRoot, expose};
use crate::running::notice_queue::NoticeSender;

/// The paths whose changes matter: each root as configured and as resolved.
type Interesting = Arc<RwLock<Vec<PathBuf>>>;

/// Watches one session's roots while it is alive.
#[derive(Debug)]
pub struct RootWatch {
    recheck: mpsc::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for RootWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl RootWatch {
    /// Starts watching `roots` (shared with the session's handler) for the server `server`;
    /// changes in what it would be given go to `notices`. Needs a tokio runtime.
    pub fn start(server: String, roots: SharedRoots, notices: NoticeSender<ServerNotice>) -> Self {
        let (recheck, rechecks) = mpsc::channel(1);
        let task = tokio::spawn(follow(server, roots, notices, recheck.clone(), rechecks));
        RootWatch { recheck, task }
    }

    /// The configured roots were edited: watch the new ones, and tell the server if what it
    /// would be given changed.
    pub fn reconfigured(&self) {
        // A full queue already holds a recheck, which reads the roots afresh.
        let _ = self.recheck.try_send(());
    }
}

/// The watch's task: (re)watches, works out what would be given, tells the session when that
/// changed, and waits for the next relevant event or edit.
async fn follow(
    server: String,
    roots: SharedRoots,
    notices: NoticeSender<ServerNotice>,
    recheck: mpsc::Sender<()>,
    mut rechecks: mpsc::Receiver<()>,
) {
    let interesting: Interesting = Arc::default();
    let mut watcher = Some(OsWatch::default());
    let mut given: Option<Vec<ExposedRoot>> = None;
    loop {
        let configured = roots.read().map(|r| r.clone()).unwrap_or_default();
        let (events, interest, label) = (recheck.clone(), interesting.clone(), server.clone());
        let mut os_watch = watcher.take().unwrap_or_default();
        let checked = tokio::task::spawn_blocking(move || {
            os_watch.watch(&label, &paths_of(&configured), events, interest);
            (os_watch, expose(&configured))
        })
        .await;
        let Ok((os_watch, exposure)) = checked else {
            tracing::warn!("watching the roots of `{server}` stopped: the check did not finish");
            return;
        };
        watcher = Some(os_watch);
        if given
            .as_ref()
            .is_some_and(|before| *before != exposure.listed)
        {
            tracing::info!(
                "the roots `{server}` may use changed: now {:?}",
                exposure.listed.iter().map(|r| &r.uri).collect::<Vec<_>>()
            );
            let _ = notices.send(ServerNotice::RootsChanged);
        }
        given = Some(exposure.listed);
        if rechecks.recv().await.is_none() {
            return;
        }
    }
}

/// Each configured root as a path, and as it resolves today.
fn paths_of(configured: &[String]) -> Vec<(PathBuf, Option<PathBuf>)> {
    configured
        .iter()
        .filter_map(|uri| fs_path::file_uri_path(uri).ok())
        .map(|path| {
            let resolved = fs_path::resolve(&path).ok().filter(|r| *r != path);
            (path, resolved)
        })
        .collect()
}

/// The OS watcher and the directories it watches; created when there is something to watch.
#[derive(Default)]
struct OsWatch {
    watcher: Option<RecommendedWatcher>,
    watched: BTreeSet<PathBuf>,
    /// The OS refused a watcher (e.g. too many inotify instances): said once.
    refused: bool,
}

impl OsWatch {
    /// Watches the nearest existing directory above each of `paths` (as configured and as
    /// resolved), dropping the watches no longer needed and renewing the others (a directory
    /// replaced since is another one). `server` names the server in log lines.
    fn watch(
        &mut self,
        server: &str,
        paths: &[(PathBuf, Option<PathBuf>)],
        events: mpsc::Sender<()>,
        interesting: Interesting,
    ) {
        let roots: Vec<PathBuf> = paths
            .iter()
            .flat_map(|(path, resolved)| std::iter::once(path.clone()).chain(resolved.clone()))
            .collect();
        let wanted: BTreeSet<PathBuf> = roots.iter().filter_map(|r| nearest_above(r)).collect();
        if let Ok(mut paths) = interesting.write() {
            *paths = roots;
        }
        if self.watcher.is_none() && !wanted.is_empty() && !self.refused {
            let relevant = interesting.clone();
            let handler = move |event: notify::Result<notify::Event>| {
                if matters(&event, &relevant) {
                    let _ = events.try_send(());
                }
            };
            match notify::recommended_watcher(handler) {
                Ok(watcher) => self.watcher = Some(watcher),
                Err(e) => {
                    self.refused = true;
                    tracing::warn!(
                        "cannot watch the roots of `{server}` for changes: {e}; they are still checked each time they are given"
                    );
                }
            }
        }
        let Some(watcher) = self.watcher.as_mut() else {
            return;
        };
        for dir in std::mem::take(&mut self.watched) {
            let _ = watcher.unwatch(&dir);
        }
        for dir in wanted {
            match watcher.watch(&dir, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.watched.insert(dir);
                }
                Err(e) => tracing::debug!("cannot watch {}: {e}", dir.display()),
            }
        }
    }
}

/// The nearest existing directory strictly above `path`.
fn nearest_above(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .find(|dir| dir.is_dir())
        .map(Path::to_path_buf)
}

/// Whether an event can change what a root is: one on a root or a directory above it (not one
/// inside a root, and not a mere read, such as the check listing a root). An error or an event
/// without paths (the OS dropped events) counts.
fn matters(event: &notify::Result<notify::Event>, interesting: &Interesting) -> bool {
    let Ok(event) = event else {
        return true;
    };
    if matches!(event.kind, EventKind::Access(_)) {
        return false;
    }
    if event.paths.is_empty() {
        return true;
    }
    let roots = interesting.read().map(|r| r.clone()).unwrap_or_default();
    event
        .paths
        .iter()
        .any(|changed| roots.iter().any(|root| root.starts_with(changed)))
}
