//! Transports move JSON-RPC messages between the peer and a server. Each one hands the peer a
//! [`Link`] (messages out, messages in) and keeps a [`Transport`] handle for shutdown, so that
//! Streamable HTTP and legacy SSE can slot in beside stdio without the peer knowing which it has.
//! An HTTP transport authorizes through the [`HttpAuthorizer`](crate::http_auth::HttpAuthorizer)
//! interface, never through the `auth` folder itself.
//!
//! Per-message HTTP headers and the era travel with the message on the link ([`Outbound`]). A
//! request the transport could not deliver comes back out of band ([`Inbound::Failed`] with a
//! [`TransportFailure`]), never as a made-up JSON-RPC error; text that is not JSON comes back as
//! [`Inbound::Unparsable`]. Every transport holds the tasks it spawns as an `OwnedTask`
//! ([`owned_task`]).

use serde_json::Value;
use tokio::sync::mpsc;

use crate::error::Result;
pub use crate::error::TransportFailure;
pub use crate::future::BoxFuture;
use crate::jsonrpc::RequestId;

mod child_guard;
mod command_path;
mod group_members;
pub mod header_value;
pub mod http_config;
pub mod legacy_sse;
pub mod lines;
pub mod owned_task;
pub mod sse;
pub mod stderr;
pub mod stdio;
pub mod streamable_http;
pub mod watchdog;

/// What a transport delivers to the peer.
#[derive(Debug)]
pub enum Inbound {
    /// One JSON value received from the server.
    Message(Value),
    /// One JSON value the server sent on the response stream of the client's request
    /// `request` (Streamable HTTP), so related to it ([`crate::peer::origin`]).
    Related { message: Value, request: RequestId },
    /// Text from the server that is not JSON (a line cut short, a body that does not parse),
    /// at most [`UNPARSABLE_KEEP`] bytes of it. `id` is the request it answers when the
    /// transport knows (an HTTP response); otherwise the peer looks for an id in the text.
    Unparsable {
        text: String,
        problem: String,
        id: Option<RequestId>,
    },
    /// The transport could not deliver request `id` or its answer. This travels beside the
    /// server's messages, never as a JSON-RPC error a server could imitate.
    Failed {
        id: RequestId,
        failure: TransportFailure,
    },
    /// The connection ended; no more messages follow.
    Closed { reason: String },
}

/// How much of an unparsable message is handed to the peer: enough to find the id near its
/// start and to quote it, without holding a huge line twice.
pub const UNPARSABLE_KEEP: usize = 64 * 1024;

/// The start of `bytes` as text, at most [`UNPARSABLE_KEEP`] bytes of it.
pub(crate) fn unparsable_text(bytes: &[u8]) -> String {
    let kept = &bytes[..bytes.len().min(UNPARSABLE_KEEP)];
    String::from_utf8_lossy(kept).into_owned()
}

/// The era a message is sent in, as the peer was told it: never read back from the message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Wire {
    /// 2024-11-05 … 2025-11-25: sessions, resumable streams, `notifications/cancelled`.
    #[default]
    Legacy,
    /// 2026-07-28: no sessions, no resumption; HTTP mirrors `version` in
    /// `MCP-Protocol-Version` and cancels by closing the response stream.
    Modern { version: String },
}

impl Wire {
    pub fn is_modern(&self) -> bool {
        matches!(self, Wire::Modern { .. })
    }
}

/// One message to send, with HTTP headers that only HTTP transports use (the 2026-07-28
/// `Mcp-Param-*` headers mirrored from tool arguments), and the era it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct Outbound {
    pub message: Value,
    pub headers: Vec<(String, String)>,
    pub wire: Wire,
}

impl From<Value> for Outbound {
    /// A message of the legacy era with no extra headers.
    fn from(message: Value) -> Self {
        Self {
            message,
            headers: Vec::new(),
            wire: Wire::Legacy,
        }
    }
}

/// The peer's side of a transport.
#[derive(Debug)]
pub struct Link {
    pub outbound: mpsc::Sender<Outbound>,
    pub inbound: mpsc::Receiver<Inbound>,
}

/// The owner's side of a transport: what kind it is and how to shut it down.
pub trait Transport: Send + Sync + 'static {
    /// A short name for status displays: `stdio`, `streamable-http`, `sse`.
    fn kind(&self) -> &'static str;
    /// Recent diagnostic output (a stdio server's stderr), oldest first.
    fn diagnostics(&self) -> Vec<String>;
    /// Shuts the connection down and releases its resources.
    fn close(&mut self) -> BoxFuture<'_, Result<()>>;
    /// Resolves once the transport has settled after the handshake (for Streamable HTTP, the
    /// standalone GET stream is open or known to be unavailable).
    fn ready(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}
