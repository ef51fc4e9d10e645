//! A look at every JSON-RPC message of one connection as it passes the peer, the one place all
//! of them go through whatever the transport and era: each message the peer sends, each one a
//! transport delivers (text that is not JSON as a string). The host records them for the app's
//! Traffic tab ([`MessageTap`], given in `ClientOptions::tap`). A tap is called on the peer's
//! own task, so it must be quick and must not block.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From this client to the server.
    Sent,
    /// From the server to this client.
    Received,
}

/// What is told of each message.
pub trait MessageTap: Send + Sync + 'static {
    fn message(&self, direction: Direction, message: &Value);
}

/// A shared tap, as the client's options carry it.
#[derive(Clone)]
pub struct Tap(pub Arc<dyn MessageTap>);

impl fmt::Debug for Tap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tap")
    }
}

impl Tap {
    /// Tells `tap`, if there is one, of `message`.
    pub(crate) fn tell(tap: Option<&Tap>, direction: Direction, message: &Value) {
        if let Some(tap) = tap {
            tap.0.message(direction, message);
        }
    }
}
