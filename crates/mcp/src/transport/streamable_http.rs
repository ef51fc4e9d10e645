//! The Streamable HTTP transport (2025-11-25 basic/transports, "Streamable HTTP").
//!
//! Every outgoing message is its own POST; the answer is 202, a JSON body or an SSE stream.
//! After the handshake every request carries `MCP-Protocol-Version` and, when the server gave
//! one, `MCP-Session-Id`. A 404 on a session re-runs the handshake once and retries; however
//! many requests meet that 404 together, one of them re-initializes while the others, and any
//! request sent meanwhile, wait for the new session and go out with it. A response
//! stream that ends before the answer is resumed with GET and `Last-Event-ID` after the
//! server's `retry:` delay (SEP-1699 polling). A standalone GET stream carries server-initiated
//! messages; 405 means the server has none. A 404 on a GET starts a new session as well
//! ([`session_expiry`]). Closing sends DELETE for the session.
//!
//! In the 2026-07-28 era a request is cancelled by closing its response stream (2026-07-28
//! basic/patterns/cancellation, "Transport-Specific Cancellation"): the peer's
//! `notifications/cancelled` for a modern request still in flight aborts that request's POST
//! instead of being sent; a legacy request still gets the notification.
//!
//! Every POST of a message with a method carries `Mcp-Method`, and `Mcp-Name` for `tools/call`,
//! `prompts/get` and `resources/read` (2026-07-28 transports, "Standard Request Headers"; the
//! tasks extension adds the task id on `tasks/get`, `tasks/update` and `tasks/cancel`), encoded
//! per the header value rules (`header_value`); older servers ignore them. A modern message's
//! `MCP-Protocol-Version` is the version of the era the peer stamped on it (`Wire`), the same
//! one its `_meta` carries, and no session id is sent. A 4xx whose body is a JSON-RPC error is
//! handed on as that error, with the HTTP status kept beside it (`McpError::Rpc`'s
//! `http_status`). A modern response stream is never resumed with `Last-Event-ID`: one that
//! breaks before the answer is reported as `TransportFailure::StreamBroken`, so the peer may
//! send the request again.
//!
//! Its parts: [`post`] sends each message and receives its answer, [`listener`] keeps the
//! standalone GET stream, [`session`] re-initializes a forgotten session ([`session_expiry`] for
//! a 404 met on a GET), [`challenge`] answers an auth challenge, [`requests`] builds the HTTP
//! requests and reads their streams, and [`shared`] is the state they all hold.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use super::http_config::{HttpConfig, with_authorization};
use super::owned_task::OwnedTask;
use super::{BoxFuture, Inbound, Link, Outbound, Transport};
use crate::error::Result;
use challenge::access_token;
use listener::stop_listener;
use post::write_loop;
use shared::{Listener, SESSION_HEADER, Shared, get, with_version};

mod challenge;
mod listener;
mod post;
mod requests;
mod session;
mod session_expiry;
mod shared;

/// A Streamable HTTP connection.
pub struct StreamableHttpTransport {
    shared: Arc<Shared>,
    /// The writer owns every POST task; dropping it (with the transport) stops them all.
    writer: Option<OwnedTask>,
}

impl Drop for StreamableHttpTransport {
    fn drop(&mut self) {
        // Without this the peer's route task and the writer keep each other alive (each holds
        // the other's channel), and the GET stream reconnects for as long as the process runs.
        stop_listener(&self.shared);
    }
}

impl std::fmt::Debug for StreamableHttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamableHttpTransport")
            .field("url", &self.shared.config.url.as_str())
            .finish()
    }
}

impl StreamableHttpTransport {
    /// Prepares the connection; nothing is sent until the peer sends `initialize`.
    pub fn start(config: HttpConfig) -> Result<(Self, Link)> {
        let client = config.client()?;
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(64);
        let (in_tx, in_rx) = mpsc::channel::<Inbound>(256);
        let shared = Arc::new(Shared {
            client,
            config,
            session_id: Mutex::new(None),
            protocol_version: Mutex::new(None),
            initialize: Mutex::new(None),
            inbound: in_tx,
            reinit_counter: AtomicU64::new(0),
            reinit: tokio::sync::Mutex::new(()),
            listener: Mutex::new(Listener::default()),
            ready: tokio::sync::watch::channel(false).0,
        });
        let writer = OwnedTask::spawn(write_loop(shared.clone(), out_rx));
        Ok((
            Self {
                shared,
                writer: Some(writer),
            },
            Link {
                outbound: out_tx,
                inbound: in_rx,
            },
        ))
    }

    /// The session id the server assigned, if any.
    pub fn session_id(&self) -> Option<String> {
        get(&self.shared.session_id)
    }

    async fn shutdown(&mut self) -> Result<()> {
        if let Some(writer) = self.writer.take() {
            writer.stop().await;
        }
        stop_listener(&self.shared);
        if let Some(session) = get(&self.shared.session_id) {
            // 2025-11-25 "Session Management" 5: end the session; 405 means the server keeps it.
            let request = self
                .shared
                .client
                .delete(self.shared.config.url.clone())
                .header(SESSION_HEADER, session);
            let request = with_version(&self.shared, request);
            let token = access_token(&self.shared).await;
            let request =
                with_authorization(request, &self.shared.config, token.as_ref(), "DELETE");
            match tokio::time::timeout(self.shared.config.connect_timeout, request.send()).await {
                Ok(Ok(response)) => {
                    tracing::debug!("session DELETE answered {}", response.status())
                }
                Ok(Err(e)) => tracing::debug!("session DELETE failed: {e}"),
                Err(_) => tracing::debug!("session DELETE timed out"),
            }
        }
        let _ = self
            .shared
            .inbound
            .send(Inbound::Closed {
                reason: "the client closed the connection".into(),
            })
            .await;
        Ok(())
    }
}

impl Transport for StreamableHttpTransport {
    fn kind(&self) -> &'static str {
        "streamable-http"
    }

    fn diagnostics(&self) -> Vec<String> {
        Vec::new()
    }

    fn close(&mut self) -> BoxFuture<'_, Result<()>> {
        Box::pin(self.shutdown())
    }

    fn ready(&self) -> BoxFuture<'_, ()> {
        let mut ready = self.shared.ready.subscribe();
        Box::pin(async move {
            let _ = ready.wait_for(|r| *r).await;
        })
    }
}
