//! The person's resource subscriptions from the window: each is counted with the agents' on the
//! engine's live session ([`Host::subscribe_shared`]), so the server is asked once and told to
//! unsubscribe only when nobody wants the resource any more. Its updates reach the window on the
//! channel the subscription was made with, coalesced (updates within [`COALESCE`] are one) so a
//! server that floods them costs the window one message per [`COALESCE`]. At most
//! [`MAX_SUBSCRIPTIONS`] at once. A window gone (its channel refuses a message) ends the
//! subscription.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gatehouse_host::gate::agent_notices::ServerNote;
use gatehouse_host::{ErrorCode, Host, Source};
use tauri::ipc::Channel;
use tokio::sync::{broadcast, oneshot};

use super::views::ResourceUpdate;
use crate::ipc_error::IpcError;

/// Updates of one resource that come within this long of each other reach the window as one.
pub const COALESCE: Duration = Duration::from_millis(250);

/// The most resources the window may be subscribed to at once.
pub const MAX_SUBSCRIPTIONS: usize = 64;

const UPDATED: &str = "notifications/resources/updated";

/// (server id, URI).
type Key = (String, String);

/// The window's subscriptions, each with what stops its forwarding.
#[derive(Default, Clone)]
pub struct PersonSubscriptions {
    active: Arc<Mutex<HashMap<Key, Forwarding>>>,
    made: Arc<AtomicU64>,
}

/// One subscription's forwarding: which it is (a resubscription makes another) and its stop.
struct Forwarding {
    number: u64,
    _stop: oneshot::Sender<()>,
}

impl PersonSubscriptions {
    /// Subscribes to `uri` of `server` (id or name) through the gate as the person's request,
    /// its updates sent to `updates`. Subscribing again to the same resource keeps the one
    /// subscription and sends its updates to the new channel.
    pub async fn subscribe(
        &self,
        host: &Arc<Host>,
        server: &str,
        uri: String,
        updates: Channel<ResourceUpdate>,
    ) -> Result<(), IpcError> {
        let connection = host.attached(server).await?;
        let key = (connection.server_id().to_owned(), uri);
        // Listened to before the server is asked: an update right after is not missed.
        let notes = host.server_notes();
        let again = self.lock().contains_key(&key);
        if !again {
            if self.lock().len() >= MAX_SUBSCRIPTIONS {
                return Err(IpcError {
                    code: ErrorCode::Validation,
                    message: format!(
                        "at most {MAX_SUBSCRIPTIONS} resources may be subscribed to at once; unsubscribe from one first"
                    ),
                });
            }
            host.subscribe_shared(&connection, &key.1, Source::User)
                .await?;
        }
        let (stop, stopped) = oneshot::channel();
        let number = self.made.fetch_add(1, Ordering::Relaxed);
        // A forwarder already there (subscribed again) stops when its sender is replaced.
        self.lock().insert(
            key.clone(),
            Forwarding {
                number,
                _stop: stop,
            },
        );
        let this = self.clone();
        let host = Arc::clone(host);
        tauri::async_runtime::spawn(async move {
            if !forward(&key, notes, stopped, &updates).await {
                // The window is gone: nobody hears the updates any more (unless it subscribed
                // again since, with another channel).
                let mine = {
                    let mut active = this.lock();
                    let mine = active.get(&key).is_some_and(|f| f.number == number);
                    if mine {
                        active.remove(&key);
                    }
                    mine
                };
                if mine {
                    host.release_subscriptions(vec![key]).await;
                }
            }
        });
        Ok(())
    }

    /// Ends the subscription to `uri` of `server`; the server is told when nobody else wants it.
    /// Unsubscribing from a resource not subscribed to does nothing.
    pub async fn unsubscribe(
        &self,
        host: &Host,
        server: &str,
        uri: String,
    ) -> Result<(), IpcError> {
        let server_id = host.server(server).await?.config.id;
        let key = (server_id, uri);
        // Dropping the sender stops the forwarder.
        if self.lock().remove(&key).is_some() {
            host.release_subscriptions(vec![key]).await;
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Forwarding>> {
        self.active.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What one note says of the resource `key`: an update of it (true), or nothing (false).
fn updates(key: &Key, note: &ServerNote) -> bool {
    note.server_id == key.0
        && note.method == UPDATED
        && note
            .params
            .as_ref()
            .and_then(|p| p.get("uri"))
            .and_then(serde_json::Value::as_str)
            == Some(key.1.as_str())
}

/// Forwards the updates of `key` until stopped (true) or the window refuses one (false).
async fn forward(
    key: &Key,
    mut notes: broadcast::Receiver<ServerNote>,
    mut stopped: oneshot::Receiver<()>,
    channel: &Channel<ResourceUpdate>,
) -> bool {
    loop {
        let (mut coalesced, mut missed) = (0u32, false);
        tokio::select! {
            _ = &mut stopped => return true,
            note = notes.recv() => match note {
                Ok(note) if updates(key, &note) => coalesced = 1,
                Ok(_) => continue,
                Err(broadcast::error::RecvError::Lagged(_)) => missed = true,
                Err(broadcast::error::RecvError::Closed) => return true,
            },
        }
        // The coalescing window (a pace, not a wait for some state): updates within it are one.
        let gathered = tokio::time::sleep(COALESCE);
        tokio::pin!(gathered);
        loop {
            tokio::select! {
                _ = &mut stopped => return true,
                () = &mut gathered => break,
                note = notes.recv() => match note {
                    Ok(note) if updates(key, &note) => coalesced = coalesced.saturating_add(1),
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(_)) => missed = true,
                    Err(broadcast::error::RecvError::Closed) => break,
                },
            }
        }
        let update = ResourceUpdate {
            uri: key.1.clone(),
            coalesced,
            missed,
        };
        if channel.send(update).is_err() {
            return false;
        }
    }
}
