//! Typed engine events, broadcast to whoever listens: the desktop app forwards them to the webview,
//! the CLI may print them. They are a server's status changes, `TasksChanged` when a server's tasks
//! in the task log changed, the approval queue's changes, and the agents paused or resumed.

use tokio::sync::broadcast;

use crate::vocabulary::approval::PendingApproval;
use crate::vocabulary::status::ServerStatus;

/// Something that happened in the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum EngineEvent {
    /// A server's connection status changed.
    ServerStatus { id: String, status: ServerStatus },
    /// The task log of a server changed (a task started, moved on or ended).
    TasksChanged { id: String },
    /// A request now waits for a person's answer.
    ApprovalAsked(Box<PendingApproval>),
    /// The number of requests waiting for an answer changed.
    ApprovalsChanged { pending: usize },
    /// The request `id` was answered (`answer` says how, in a few words): whoever else shows
    /// it stops asking, as the first answer wins.
    ApprovalAnswered { id: String, answer: String },
    /// The request `id` was withdrawn by its requester before an answer (a server cancelled
    /// its request): whoever shows it stops asking.
    ApprovalWithdrawn { id: String, reason: String },
    /// A gateway client's profile, or the default profile, changed (in any process): each
    /// agent's session reads its profile again and tells the agent when its lists changed.
    ClientProfilesChanged,
    /// The person paused (`true`) or resumed (`false`) every agent: the window's switch and
    /// the tray show it.
    AgentsPaused { paused: bool },
}

/// The sending side; cloning shares the channel.
#[derive(Debug, Clone)]
pub struct EventBus {
    sender: broadcast::Sender<EngineEvent>,
}

impl Default for EventBus {
    fn default() -> Self {
        let (sender, _) = broadcast::channel(256);
        Self { sender }
    }
}

impl EventBus {
    /// Publishes an event; having no listener is fine.
    pub fn publish(&self, event: EngineEvent) {
        let _ = self.sender.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<EngineEvent> {
        self.sender.subscribe()
    }
}
