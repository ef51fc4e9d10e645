//! What goes back to one face: its queue of messages, bounded by count
//! ([`super::protocol::OUTGOING_QUEUE`]); a full queue means the face does not read, and the
//! connection is ended. And the face as its requests know it.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::{Notify, mpsc};

use super::protocol::FaceKind;

/// The queue of messages to one face.
#[derive(Clone)]
pub(crate) struct Outbox {
    pub tx: mpsc::Sender<Value>,
    pub overflow: Arc<Notify>,
}

impl Outbox {
    /// Queues `message`; a full queue means the face does not read, and ends the connection.
    pub fn send(&self, message: Value) {
        if let Err(mpsc::error::TrySendError::Full(_)) = self.tx.try_send(message) {
            self.overflow.notify_one();
        }
    }

    /// Queues `message` once there is room (for a stream whose source can wait, such as a
    /// watch); `false` when the connection is gone.
    pub async fn deliver(&self, message: Value) -> bool {
        self.tx.send(message).await.is_ok()
    }
}

/// The face, as the requests it makes know it.
#[derive(Debug, Clone)]
pub(crate) struct Face {
    pub kind: FaceKind,
}
