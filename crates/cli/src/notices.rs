//! The handler of a CLI connection: the host's own answers (roots), with the server's
//! notifications passed to a command that shows them (`watch`). What needs a person (sampling,
//! elicitation) never reaches it: the gate puts it to the person at the terminal
//! ([`crate::terminal_approvals`]).
//!
//! The notifications wait for the command in a queue of [`NOTICE_QUEUE`]; a server that sends
//! faster than the terminal shows them loses the excess, and the command is told how many.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use gatehouse_host::ServerConfig;
use gatehouse_host::protocol::BoxFuture;
use gatehouse_host::protocol::Handler;
use gatehouse_host::protocol::RpcError;
use gatehouse_host::server_requests::HostHandler;
use serde_json::Value;

/// A server notification as a command receives it: method and params.
pub type Notice = (String, Option<Value>);

/// How many notifications wait for the command before the excess is dropped.
pub const NOTICE_QUEUE: usize = 1024;

/// The sending side of a command's notification queue.
#[derive(Clone)]
pub struct NoticeOutlet {
    queue: tokio::sync::mpsc::Sender<Notice>,
    dropped: Arc<AtomicU64>,
}

/// The command's side: the notifications, and how many were dropped.
pub struct NoticeInlet {
    queue: tokio::sync::mpsc::Receiver<Notice>,
    dropped: Arc<AtomicU64>,
}

/// A new notification queue of [`NOTICE_QUEUE`].
pub fn notice_queue() -> (NoticeOutlet, NoticeInlet) {
    let (queue, received) = tokio::sync::mpsc::channel(NOTICE_QUEUE);
    let dropped = Arc::new(AtomicU64::new(0));
    (
        NoticeOutlet {
            queue,
            dropped: Arc::clone(&dropped),
        },
        NoticeInlet {
            queue: received,
            dropped,
        },
    )
}

impl NoticeOutlet {
    /// Queues the notification, or counts it dropped when the queue is full.
    fn offer(&self, notice: Notice) {
        use tokio::sync::mpsc::error::TrySendError;
        if let Err(TrySendError::Full(_)) = self.queue.try_send(notice)
            && self.dropped.fetch_add(1, Ordering::Relaxed) == 0
        {
            tracing::warn!(
                "{NOTICE_QUEUE} notifications are waiting to be shown; dropping the excess"
            );
        }
    }
}

impl NoticeInlet {
    /// The next notification; `None` once the connection's handler is gone.
    pub async fn recv(&mut self) -> Option<Notice> {
        self.queue.recv().await
    }

    /// How many notifications were dropped since the last call.
    pub fn take_dropped(&self) -> u64 {
        self.dropped.swap(0, Ordering::Relaxed)
    }
}

/// The host's handler, with notifications forwarded when a command asks for them.
pub struct ForwardNotices {
    host: Arc<HostHandler>,
    notices: Option<NoticeOutlet>,
}

impl ForwardNotices {
    pub fn new(config: &ServerConfig) -> Self {
        Self {
            host: Arc::new(HostHandler::for_config(config)),
            notices: None,
        }
    }

    /// The same, passing every notification to `notices` instead of the host's handler.
    pub fn with_notices(mut self, notices: NoticeOutlet) -> Self {
        self.notices = Some(notices);
        self
    }
}

impl Handler for ForwardNotices {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        self.host.on_request(method, params)
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        match &self.notices {
            Some(notices) => notices.offer((method.to_owned(), params)),
            None => self.host.on_notification(method, params),
        }
    }
}
