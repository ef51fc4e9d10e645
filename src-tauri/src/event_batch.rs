//! The engine's state events gathered for the window between two sends: a server's statuses
//! coalesced to its last (in the order servers first changed), a server's task changes to one,
//! the approval queue's and the agents' pause state to their last value. A burst (a hundred
//! servers starting, a flapping server, a storm of questions) reaches the window as one send per
//! pace ([`crate::events::PACE`]) carrying only what it still needs to know.

use gatehouse_host::{EngineEvent, ServerStatus};

use crate::approval_notice::NoticeInput;

/// What happened since the last send.
#[derive(Debug, Default)]
pub struct EventBatch {
    pub statuses: Vec<(String, ServerStatus)>,
    pub tasks: Vec<String>,
    /// The last count of waiting requests, if the queue changed.
    pub approvals: Option<usize>,
    pub paused: Option<bool>,
}

impl EventBatch {
    /// Takes `event` in; what the desktop notifications must hear of now (they are not paced)
    /// is returned.
    pub fn add(&mut self, event: EngineEvent) -> Option<NoticeInput> {
        match event {
            EngineEvent::ServerStatus { id, status } => {
                match self.statuses.iter_mut().find(|(known, _)| *known == id) {
                    Some((_, last)) => *last = status,
                    None => self.statuses.push((id, status)),
                }
                None
            }
            EngineEvent::TasksChanged { id } => {
                if !self.tasks.contains(&id) {
                    self.tasks.push(id);
                }
                None
            }
            EngineEvent::ApprovalsChanged { pending } => {
                self.approvals = Some(pending);
                None
            }
            EngineEvent::ApprovalAsked(pending) => Some(NoticeInput::Asked(pending)),
            // The window follows the queue through `ApprovalsChanged`, which a withdrawal sends
            // too: the withdrawn request leaves the dialog and the Approvals page. Likewise an
            // answer given elsewhere (the CLI's `approvals answer`). Its notification goes.
            EngineEvent::ApprovalWithdrawn { id, .. }
            | EngineEvent::ApprovalAnswered { id, .. } => Some(NoticeInput::Gone(id)),
            EngineEvent::AgentsPaused { paused } => {
                self.paused = Some(paused);
                None
            }
            // The agents' sessions follow profiles; the window reads them when it shows them.
            EngineEvent::ClientProfilesChanged => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.statuses.is_empty()
            && self.tasks.is_empty()
            && self.approvals.is_none()
            && self.paused.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(id: &str, status: ServerStatus) -> EngineEvent {
        EngineEvent::ServerStatus {
            id: id.to_owned(),
            status,
        }
    }

    #[test]
    fn a_servers_statuses_coalesce_to_its_last_in_first_changed_order() {
        let mut batch = EventBatch::default();
        assert!(batch.is_empty());
        for event in [
            status("b", ServerStatus::Connecting),
            status("a", ServerStatus::Connecting),
            status(
                "b",
                ServerStatus::Failed {
                    message: "gone".into(),
                },
            ),
            status("b", ServerStatus::Stopped),
        ] {
            assert!(batch.add(event).is_none());
        }
        assert_eq!(
            batch.statuses,
            [
                ("b".to_owned(), ServerStatus::Stopped),
                ("a".to_owned(), ServerStatus::Connecting)
            ]
        );
    }

    #[test]
    fn tasks_queue_and_pause_keep_what_the_window_still_needs() {
        let mut batch = EventBatch::default();
        for event in [
            EngineEvent::TasksChanged { id: "a".into() },
            EngineEvent::TasksChanged { id: "a".into() },
            EngineEvent::TasksChanged { id: "b".into() },
            EngineEvent::ApprovalsChanged { pending: 3 },
            EngineEvent::ApprovalsChanged { pending: 1 },
            EngineEvent::AgentsPaused { paused: true },
            EngineEvent::AgentsPaused { paused: false },
            EngineEvent::ClientProfilesChanged,
        ] {
            assert!(batch.add(event).is_none());
        }
        assert_eq!(batch.tasks, ["a", "b"]);
        assert_eq!(batch.approvals, Some(1));
        assert_eq!(batch.paused, Some(false));
    }
}
