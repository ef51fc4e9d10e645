//! The standalone GET stream for server-initiated messages (2025-11-25 basic/transports,
//! "Listening for Messages from the Server"): started after the handshake, reopened while the
//! server offers it, stopped for good when the transport closes; 405 means the server has none.

use std::sync::Arc;

use reqwest::StatusCode;

use super::requests::{get_stream, read_stream};
use super::session_expiry;
use super::shared::{MarkReady, Outgoing, Shared, get, lock_listener};
use crate::transport::owned_task::OwnedTask;
use crate::transport::sse::{StreamEnd, is_event_stream};

/// Stops the standalone GET stream for good (the transport is closing or dropped).
pub(super) fn stop_listener(shared: &Shared) {
    let mut listener = lock_listener(shared);
    listener.stopped = true;
    listener.task = None;
}

/// (Re)starts the standalone GET stream, unless the transport is going away.
pub(super) fn start_listener(shared: &Arc<Shared>) {
    let mut listener = lock_listener(shared);
    if !listener.stopped {
        // Replacing the previous task aborts it.
        listener.task = Some(OwnedTask::spawn(listen(shared.clone())));
    }
}

/// The standalone GET stream for server-initiated messages, reopened while the server offers it.
pub(super) async fn listen(shared: Arc<Shared>) {
    let _ready = MarkReady {
        shared: &shared,
        armed: true,
    };
    let mut end = StreamEnd::default();
    let mut failures = 0u32;
    loop {
        let session = get(&shared.session_id);
        let response = get_stream(&shared, end.last_event_id.as_deref()).await;
        shared.ready.send_replace(true);
        let response = match response {
            Ok(response) => response,
            Err(e) => {
                tracing::debug!("GET stream failed: {e}");
                failures += 1;
                if failures > shared.config.max_reconnects {
                    return;
                }
                tokio::time::sleep(shared.config.default_retry * failures).await;
                continue;
            }
        };
        if response.status() == StatusCode::METHOD_NOT_ALLOWED {
            tracing::debug!("the server offers no GET stream (405)");
            return;
        }
        if let (StatusCode::NOT_FOUND, Some(stale)) = (response.status(), &session) {
            return session_expiry::renew_for_listener(&shared, stale, start_listener).await;
        }
        if !response.status().is_success() || !is_event_stream(&response) {
            tracing::debug!("GET stream refused: HTTP {}", response.status());
            return;
        }
        failures = 0;
        session_expiry::stream_opened(&shared);
        let none = Outgoing {
            method: None,
            id: None,
            modern: false,
        };
        read_stream(&shared, response, &none, &mut end).await;
        if shared.inbound.is_closed() {
            return;
        }
        tokio::time::sleep(end.retry.unwrap_or(shared.config.default_retry)).await;
    }
}
