//! A session the server forgot, met on a GET (2025-11-25 basic/transports, "Session
//! Management": a 404 to a request carrying `MCP-Session-Id` means the client MUST start a new
//! session). The POST side re-initializes and retries in `post`; this is the GET side, with
//! the same single-flight re-initialization:
//!
//! - a 404 on the standalone GET stream starts a new session, whose own GET stream then opens
//!   (the re-initialization starts it); a server that forgets each new session at once gets at
//!   most [`MAX_GET_RENEWALS`] (three) in a row, until a GET stream opens again;
//! - a 404 on a GET resuming a response stream starts a new session too, and fails the request
//!   whose answer went with the old one: it reached the server, so it may or may not have run,
//!   and it is not sent again.

use std::sync::Arc;

use super::session::{ThenListen, reinitialize_once};
use super::shared::{Outgoing, Shared, fail, lock_listener};
use crate::transport::TransportFailure;

/// How many new sessions in a row the standalone GET stream may start before one of its
/// streams opens.
pub(super) const MAX_GET_RENEWALS: u32 = 3;

/// Replaces the session `stale` the server answered the standalone GET stream's request with
/// 404. The new session's GET stream is a new listener task; the caller's ends.
pub(super) async fn renew_for_listener(shared: &Arc<Shared>, stale: &str, then_listen: ThenListen) {
    {
        let mut listener = lock_listener(shared);
        if listener.renewals >= MAX_GET_RENEWALS {
            tracing::warn!(
                "the server forgot {MAX_GET_RENEWALS} new sessions in a row on the GET stream; \
                 not starting another from it"
            );
            return;
        }
        listener.renewals += 1;
    }
    match reinitialize_once(shared, Some(stale), then_listen).await {
        Ok(()) => tracing::info!(
            "the server forgot the session (404 on the GET stream); started a new one"
        ),
        Err(e) => tracing::warn!(
            "the server forgot the session (404 on the GET stream), and starting a new one \
             failed: {e}"
        ),
    }
}

/// A GET stream opened: the count of renewals in a row starts again.
pub(super) fn stream_opened(shared: &Shared) {
    lock_listener(shared).renewals = 0;
}

/// Replaces the session `stale` the server answered a resumption GET with 404, and fails the
/// request whose answer was pending on it.
pub(super) async fn answer_lost(
    shared: &Arc<Shared>,
    outgoing: &Outgoing,
    stale: &str,
    then_listen: ThenListen,
) {
    let renewed = match reinitialize_once(shared, Some(stale), then_listen).await {
        Ok(()) => "a new session was started".to_owned(),
        Err(e) => format!("starting a new session failed ({e})"),
    };
    let method = outgoing.method.as_deref().unwrap_or("the request");
    let message = format!(
        "the server forgot the session (HTTP 404 on resuming the answer's stream); {renewed}; \
         `{method}` may or may not have run, so it was not sent again"
    );
    fail(shared, outgoing, TransportFailure::Unreachable { message }).await;
}
