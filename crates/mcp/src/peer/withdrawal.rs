//! The server's withdrawal of one of its own requests (its `notifications/cancelled`), as the
//! handler answering that request sees it.

use tokio::sync::oneshot;

/// The server's withdrawal of one of its requests, as the handler answering it sees it.
#[derive(Debug)]
pub struct Withdrawal(pub(super) Option<oneshot::Receiver<String>>);

impl Withdrawal {
    /// A withdrawal that never comes (for a request answered outside a connection).
    pub fn never() -> Self {
        Self(None)
    }

    /// Completes, with the server's reason, once the server withdraws the request; never
    /// otherwise.
    pub async fn withdrawn(self) -> String {
        match self.0 {
            Some(receiver) => match receiver.await {
                Ok(reason) => reason,
                // The route let go of it: the request was not withdrawn.
                Err(_) => std::future::pending().await,
            },
            None => std::future::pending().await,
        }
    }
}
