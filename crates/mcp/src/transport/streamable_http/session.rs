//! Session re-initialization (2025-11-25 basic/transports, "Session Management"): when the
//! server forgets the session, the stored handshake is run again, single-flight, so that however
//! many requests meet the 404 together, one new session is made.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::json;

use super::challenge::access_token;
use super::requests::send_post;
use super::shared::{Outgoing, SESSION_HEADER, Shared, answers, get, put};
use crate::http_body::bounded_body;
use crate::jsonrpc;
use crate::transport::Wire;
use crate::transport::sse::{SseItem, SseReader, StreamEnd, is_event_stream};

/// What to do once a new session is up: (re)start its standalone GET stream.
pub(super) type ThenListen = fn(&Arc<Shared>);

/// Replaces the expired session `stale`, unless another request already has: single-flight,
/// so that N requests meeting the 404 together make one new session, not N.
pub(super) async fn reinitialize_once(
    shared: &Arc<Shared>,
    stale: Option<&str>,
    then_listen: ThenListen,
) -> std::result::Result<(), String> {
    let _only_one = shared.reinit.lock().await;
    if get(&shared.session_id).as_deref() != stale {
        return Ok(());
    }
    reinitialize(shared, then_listen).await
}

/// Re-runs the stored handshake to get a new session; its messages are not delivered. The
/// caller holds `shared.reinit`. Once the session is up, `then_listen` starts its GET stream.
pub(super) async fn reinitialize(
    shared: &Arc<Shared>,
    then_listen: ThenListen,
) -> std::result::Result<(), String> {
    let mut init = get(&shared.initialize).ok_or("no handshake to repeat")?;
    let n = shared.reinit_counter.fetch_add(1, Ordering::Relaxed);
    let id = json!(format!("gatehouse-reinitialize-{n}"));
    init["id"] = id.clone();
    put(&shared.session_id, None);
    let token = access_token(shared).await;
    let response = send_post(shared, &init, &[], &Wire::Legacy, None, token.as_ref())
        .await
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("HTTP {}", response.status()));
    }
    let session = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let outgoing = Outgoing {
        method: Some("initialize".into()),
        id: serde_json::from_value(id).ok(),
        modern: false,
    };
    if is_event_stream(&response) {
        let mut end = StreamEnd::default();
        let mut reader = SseReader::new(response, shared.config.max_message_bytes, &mut end);
        while let Some(item) = reader.next().await {
            if matches!(item, SseItem::Message(m) if answers(&m, outgoing.id.as_ref())) {
                break;
            }
        }
    } else {
        bounded_body(response, shared.config.max_message_bytes).await?;
    }
    put(&shared.session_id, session.clone());
    let initialized = jsonrpc::notification("notifications/initialized", None);
    let response = send_post(
        shared,
        &initialized,
        &[],
        &Wire::Legacy,
        session.as_deref(),
        token.as_ref(),
    )
    .await
    .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!(
            "notifications/initialized: HTTP {}",
            response.status()
        ));
    }
    then_listen(shared);
    Ok(())
}
