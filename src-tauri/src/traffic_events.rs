//! A server's JSON-RPC traffic for the window's Traffic tab: the messages after a sequence
//! number on request ([`server_traffic`]), and new ones as [`ServerTrafficEvent`]s, batched:
//! at most one event per server every [`BATCH_EVERY`], each at most [`MAX_BATCH_ENTRIES`]
//! messages and [`MAX_BATCH_BYTES`]. A server that sends faster than that is followed from
//! its engine-side buffer, whose oldest messages go first; the skipped ones are counted in
//! `missed`. The messages were redacted of secrets in the engine.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::Host;
use gatehouse_host::traffic::{Traffic, TrafficEntry, TrafficPage, ring};
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, State};
use tauri_specta::Event;

use crate::ipc_error::IpcError;

/// How long new messages are gathered before they are sent.
pub const BATCH_EVERY: Duration = Duration::from_millis(150);

/// The most messages of one server in one event.
pub const MAX_BATCH_ENTRIES: usize = 500;

/// The most bytes of messages of one server in one event (past its first message).
pub const MAX_BATCH_BYTES: usize = 512 * 1024;

/// The most bytes one [`server_traffic`] answer holds (past its first message).
pub const MAX_PAGE_BYTES: usize = 8 * 1024 * 1024;

/// New messages of a server, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
pub struct ServerTrafficEvent {
    pub id: String,
    pub entries: Vec<TrafficEntry>,
    /// Messages between the last event and this one that are not in it (the server sent
    /// faster than the window is sent to); the view may read them with `server_traffic`.
    pub missed: u64,
    /// The engine's count of messages it dropped for this server.
    pub dropped: u64,
}

/// A server's messages after `after` (a sequence number; 0 for all kept), at most `limit`
/// (and 2,000) of them, oldest first.
#[tauri::command]
#[specta::specta]
pub async fn server_traffic(
    host: State<'_, Arc<Host>>,
    id: String,
    after: u64,
    limit: u32,
) -> Result<TrafficPage, IpcError> {
    let config = host.server(&id).await?.config;
    let limit = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .min(ring::MAX_MESSAGES);
    Ok(host
        .traffic()
        .after(&config.id, after, limit, MAX_PAGE_BYTES))
}

/// The next event of one server after `sent`, and whether more is waiting.
fn next_batch(traffic: &Traffic, id: &str, sent: u64) -> Option<(ServerTrafficEvent, bool)> {
    let TrafficPage {
        entries,
        dropped,
        last_seq,
    } = traffic.after(id, sent, MAX_BATCH_ENTRIES, MAX_BATCH_BYTES);
    let first = entries.first()?.seq;
    let last = entries.last()?.seq;
    let event = ServerTrafficEvent {
        id: id.to_owned(),
        entries,
        missed: first.saturating_sub(sent + 1),
        dropped,
    };
    Some((event, last < last_seq))
}

/// Sends new messages to the window, batched, for as long as the app runs.
pub async fn forward(app: AppHandle, traffic: Traffic) {
    let mut sent: HashMap<String, u64> = HashMap::new();
    let mut behind: HashSet<String> = HashSet::new();
    loop {
        let mut servers = if behind.is_empty() {
            traffic.changed().await
        } else {
            std::mem::take(&mut behind)
        };
        // The batching pace itself (not a wait for some state): what arrives meanwhile joins
        // this batch, so the window gets at most one event per server per BATCH_EVERY.
        tokio::time::sleep(BATCH_EVERY).await;
        servers.extend(traffic.take_changed());
        for id in servers {
            let since = sent.get(&id).copied().unwrap_or(0);
            let Some((event, more)) = next_batch(&traffic, &id, since) else {
                continue;
            };
            if let Some(last) = event.entries.last() {
                sent.insert(id.clone(), last.seq);
            }
            if more {
                behind.insert(id);
            }
            if let Err(e) = event.emit(&app) {
                tracing::warn!("cannot send traffic to the window: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gatehouse_host::traffic::TrafficDirection;

    fn entry(n: usize) -> TrafficEntry {
        TrafficEntry {
            seq: 0,
            time: String::new(),
            direction: TrafficDirection::Received,
            method: Some("notifications/x".into()),
            id: None,
            latency_ms: None,
            size: 2,
            message: format!("{n:>8}"),
            truncated: false,
        }
    }

    #[test]
    fn a_batch_is_bounded_and_says_what_it_skipped() {
        let traffic = Traffic::default();
        for n in 0..(ring::MAX_MESSAGES + 700) {
            traffic.record("s", entry(n));
        }
        let (event, more) = next_batch(&traffic, "s", 0).expect("a batch");
        assert_eq!(event.entries.len(), MAX_BATCH_ENTRIES);
        assert!(more, "the rest waits for the next batch");
        assert_eq!(event.dropped, 700, "the engine's buffer dropped the oldest");
        assert_eq!(event.missed, 700, "and this batch says it starts past them");
        let last = event.entries.last().map_or(0, |e| e.seq);
        let (next, _) = next_batch(&traffic, "s", last).expect("the next batch");
        assert_eq!(next.missed, 0, "a reader that keeps up misses nothing");
        assert_eq!(next.entries[0].seq, last + 1);
        assert!(next_batch(&traffic, "s", traffic.after("s", 0, 0, 0).last_seq).is_none());
    }
}
