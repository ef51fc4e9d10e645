//! The peer's way out to the transport: every message the peer sends goes through an
//! [`Outlet`], which tells the connection's [`Tap`] of it as it goes.

use tokio::sync::mpsc;
use tokio::sync::mpsc::error::{SendError, TrySendError};

use super::tap::{Direction, Tap};
use crate::transport::Outbound;

/// The transport's outbound channel with the connection's tap.
#[derive(Clone)]
pub(super) struct Outlet {
    sender: mpsc::Sender<Outbound>,
    tap: Option<Tap>,
}

impl Outlet {
    pub(super) fn new(sender: mpsc::Sender<Outbound>, tap: Option<Tap>) -> Self {
        Self { sender, tap }
    }

    /// Sends `message`, waiting for room; the tap hears of it once it is handed over.
    pub(super) async fn send(&self, message: Outbound) -> Result<(), SendError<()>> {
        let permit = self.sender.reserve().await.map_err(|_| SendError(()))?;
        Tap::tell(self.tap.as_ref(), Direction::Sent, &message.message);
        permit.send(message);
        Ok(())
    }

    /// Sends `message` if there is room now.
    pub(super) fn try_send(&self, message: Outbound) -> Result<(), TrySendError<()>> {
        let permit = self.sender.try_reserve().map_err(|e| match e {
            TrySendError::Full(()) => TrySendError::Full(()),
            TrySendError::Closed(()) => TrySendError::Closed(()),
        })?;
        Tap::tell(self.tap.as_ref(), Direction::Sent, &message.message);
        permit.send(message);
        Ok(())
    }

    /// The tap, for the inbound side.
    pub(super) fn tap(&self) -> Option<&Tap> {
        self.tap.as_ref()
    }
}
