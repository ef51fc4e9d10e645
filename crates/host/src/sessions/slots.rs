//! The state of each enabled server's session ([`Slot`]): its status, tools, roots, open
//! connection ([`LiveClient`]) and the task that runs it, shared by [`super::Sessions`] and the
//! runners.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

use super::status::{ServerStatus, ToolInfo};
use crate::connections::server_requests::{ServerNotice, SharedRoots};
use crate::running::notice_queue::NoticeSender;
use crate::sessions::root_watch::RootWatch;

/// How often the task log is checked for tasks to follow.
pub(super) const TASK_TICK: Duration = Duration::from_millis(500);

pub(super) struct Slot {
    pub(super) fingerprint: String,
    /// The roots the server's handler answers with; edited in place on a roots-only change.
    pub(super) roots: SharedRoots,
    /// Tells the running connection about changes (a stale tool list).
    pub(super) notices: Option<NoticeSender<ServerNotice>>,
    /// Watches the roots while the server is enabled; tells the running connection when what
    /// it may be given changes, and is told of edits. Dropped with the slot.
    pub(super) roots_watch: Option<RootWatch>,
    pub(super) generation: u64,
    pub(super) status: ServerStatus,
    pub(super) tools: Vec<ToolInfo>,
    /// Until when the tool list is fresh, for servers that give caching hints.
    pub(super) tools_fresh_until: Option<tokio::time::Instant>,
    /// A stale tool list is being fetched again.
    pub(super) revalidating: bool,
    /// The connection, while it is open.
    pub(super) live: Option<LiveClient>,
    pub(super) stop: Option<oneshot::Sender<()>>,
    pub(super) task: Option<JoinHandle<()>>,
    /// How long stopping it may take before its task is abandoned.
    pub(super) stop_within: Duration,
}

pub(super) type Slots = Arc<Mutex<HashMap<String, Slot>>>;

/// An open session's connection, for the gate alone: the crate never hands it to callers.
#[derive(Clone)]
pub(crate) struct LiveClient {
    pub(crate) client: Arc<gatehouse_mcp::Client>,
    /// Changes (its sender is dropped) when the connection ends or its task stops, so that
    /// calls still running on it give up and let the task close it.
    pub(crate) ended: watch::Receiver<()>,
    /// Whoever watches the server's change notifications.
    pub(crate) watchers: crate::connections::watching::Watchers,
}

pub(super) fn lock(slots: &Slots) -> MutexGuard<'_, HashMap<String, Slot>> {
    slots.lock().unwrap_or_else(PoisonError::into_inner)
}
