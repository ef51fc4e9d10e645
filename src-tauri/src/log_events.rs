//! Servers' stderr for the window: the last lines of one server on request
//! ([`server_logs`]), and new lines as [`ServerLogEvent`]s, batched so that a chatty server
//! costs at most one event per server every [`BATCH_EVERY`].

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::Host;
use gatehouse_host::server_logs::{LogLine, ServerLogLine, ring};
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, State};
use tauri_specta::Event;
use tokio::sync::broadcast;

use crate::ipc_error::IpcError;

/// How long new lines are gathered before they are sent.
pub const BATCH_EVERY: Duration = Duration::from_millis(100);

/// The most lines of one server in one event; older ones of a larger batch are dropped and
/// counted (the window can read the last lines again).
pub const MAX_BATCH_LINES: usize = 2000;

/// New stderr lines of a server, oldest first, redacted of its secrets.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct ServerLogEvent {
    pub id: String,
    pub lines: Vec<LogLine>,
    /// Lines left out of this event (a batch past [`MAX_BATCH_LINES`], or a window too slow
    /// for the engine's queue): the view has a gap and may read the last lines again.
    pub missed: u32,
}

/// The last `lines` stderr lines of a server (at most 10 000), oldest first.
#[tauri::command]
#[specta::specta]
pub async fn server_logs(
    host: State<'_, Arc<Host>>,
    id: String,
    lines: u32,
) -> Result<Vec<LogLine>, IpcError> {
    let config = host.server(&id).await?.config;
    let n = usize::try_from(lines)
        .unwrap_or(usize::MAX)
        .min(ring::MAX_LINES);
    Ok(host.logs().last(&config.id, n))
}

#[derive(Default)]
struct Batch {
    lines: Vec<LogLine>,
    missed: u32,
}

impl Batch {
    fn push(&mut self, line: LogLine) {
        if self.lines.len() >= MAX_BATCH_LINES {
            self.lines.remove(0);
            self.missed = self.missed.saturating_add(1);
        }
        self.lines.push(line);
    }
}

/// Sends new stderr lines to the window, batched, until the engine goes away.
pub async fn forward(app: AppHandle, mut lines: broadcast::Receiver<ServerLogLine>) {
    let mut missed_unknown = 0u32;
    loop {
        let mut batches: HashMap<String, Batch> = HashMap::new();
        let mut add = |received: Result<ServerLogLine, broadcast::error::RecvError>,
                       batches: &mut HashMap<String, Batch>|
         -> bool {
            match received {
                Ok(ServerLogLine { server_id, line }) => {
                    batches.entry(server_id).or_default().push(line);
                    true
                }
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::debug!("{n} stderr lines were not sent to the window");
                    missed_unknown =
                        missed_unknown.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
                    true
                }
                Err(broadcast::error::RecvError::Closed) => false,
            }
        };
        if !add(lines.recv().await, &mut batches) {
            return;
        }
        let deadline = tokio::time::sleep(BATCH_EVERY);
        tokio::pin!(deadline);
        let open = loop {
            tokio::select! {
                () = &mut deadline => break true,
                received = lines.recv() => if !add(received, &mut batches) { break false },
            }
        };
        for (id, batch) in batches {
            let event = ServerLogEvent {
                id,
                lines: batch.lines,
                // Lines lost to a lag are not known by server: every view hears of them.
                missed: batch.missed.saturating_add(missed_unknown),
            };
            if let Err(e) = event.emit(&app) {
                tracing::warn!("cannot send stderr lines to the window: {e}");
            }
        }
        missed_unknown = 0;
        if !open {
            return;
        }
    }
}
