//! Transports move JSON-RPC messages between the peer and a server. Each one hands the peer a
//! [`Link`] (messages out, messages in) and keeps a [`Transport`] handle for shutdown, so that
//! Streamable HTTP and legacy SSE can slot in beside stdio without the peer knowing which it has.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::error::Result;

pub mod header_value;
pub mod http_config;
pub mod legacy_sse;
pub mod lines;
pub mod owned_task;
pub mod sse;
pub mod stdio;
pub mod streamable_http;

/// What a transport delivers to the peer.
#[derive(Debug)]
pub enum Inbound {
    /// One JSON value received from the server.
    Message(Value),
    /// The connection ended; no more messages follow.
    Closed { reason: String },
}

/// One message to send, with HTTP headers that only HTTP transports use (the 2026-07-28
/// `Mcp-Param-*` headers mirrored from tool arguments).
#[derive(Debug, Clone, PartialEq)]
pub struct Outbound {
    pub message: Value,
    pub headers: Vec<(String, String)>,
}

impl From<Value> for Outbound {
    fn from(message: Value) -> Self {
        Self {
            message,
            headers: Vec::new(),
        }
    }
}

/// The peer's side of a transport.
#[derive(Debug)]
pub struct Link {
    pub outbound: mpsc::Sender<Outbound>,
    pub inbound: mpsc::Receiver<Inbound>,
}

/// A boxed future, for object-safe async methods.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

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
