//! Watching a server's change notifications, the same way whether the connection is the CLI's
//! own or the engine's live session (for a face attached over the control socket). A
//! 2026-07-28 server is asked with `subscriptions/listen` for every list change it advertises
//! and for the resources named, and the subscription is reopened with backoff when its stream
//! ends; an older server is subscribed to the resources with `resources/subscribe` and its list
//! changes arrive on their own, through the connection's handler, which offers every
//! notification to its [`Watchers`].
//!
//! Bounds: the watchers' channel holds [`WATCHERS`] notifications; a watcher that falls behind
//! is told how many it missed ([`WatchEvent::Dropped`]) instead of holding the server up. The
//! events go to the watcher through a bounded channel of its own; a watcher that stops reading
//! stops the watch.

use gatehouse_mcp::{Client, Era, Listener, ListenerEvent, NotificationFilter};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use crate::error::{HostError, Result};

/// How many notifications wait for the slowest watcher before it misses some.
pub const WATCHERS: usize = 1024;

/// A server's notification: its method and params.
pub type Notice = (String, Option<Value>);

/// The sending side of a connection's watchers: its handler offers every notification (but
/// log messages and progress) here; having no watcher is fine.
pub type Watchers = broadcast::Sender<Notice>;

/// A new, empty set of watchers.
pub fn watchers() -> Watchers {
    broadcast::channel(WATCHERS).0
}

/// What a watch reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "camelCase")]
pub enum WatchEvent {
    /// The watch is on: `what` says what it carries ("tool list, prompt list, file:///a", or
    /// "pushed notifications" for a server before 2026-07-28).
    Watching { what: String },
    /// A change notification.
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// The subscription ended (`reason`); it is reopened in `retry_in_ms`.
    #[serde(rename_all = "camelCase")]
    Lost { reason: String, retry_in_ms: u64 },
    /// `count` notifications came faster than the watcher took them and were missed.
    Dropped { count: u64 },
}

/// Whether a notification is a change a watcher is shown: log messages and progress are not.
fn shown(method: &str) -> bool {
    method != "notifications/message" && method != "notifications/progress"
}

/// Offers a notification to the watchers, if it is one they are shown.
pub fn offer(watchers: &Watchers, method: &str, params: Option<&Value>) {
    if shown(method) && watchers.receiver_count() > 0 {
        let _ = watchers.send((method.to_owned(), params.cloned()));
    }
}

/// Watches `client` (named `server`) for its change notifications and the updates of
/// `resources`, sending each to `events`, until the receiver of `events` is dropped (`Ok`),
/// the server refuses the subscription, or the connection ends (errors that say so).
pub async fn watch(
    client: &Client,
    server: &str,
    resources: &[String],
    mut pushed: broadcast::Receiver<Notice>,
    events: mpsc::Sender<WatchEvent>,
) -> Result<()> {
    let mut listener = match client.era() {
        Era::Modern => Some(Listener::new(NotificationFilter::all_lists(
            resources.to_vec(),
        ))),
        Era::Legacy => {
            for uri in resources {
                client.subscribe(uri).await?;
            }
            let what = "pushed notifications".to_owned();
            if events.send(WatchEvent::Watching { what }).await.is_err() {
                return Ok(());
            }
            None
        }
    };
    let modern = listener.is_some();
    loop {
        let event = tokio::select! {
            event = next_event(client, listener.as_mut()) => match event {
                ListenerEvent::Notification { method, params } => {
                    WatchEvent::Notification { method, params }
                }
                ListenerEvent::Opened(agreed) => WatchEvent::Watching { what: describe(&agreed) },
                ListenerEvent::Lost { reason, retry_in } => WatchEvent::Lost {
                    reason,
                    retry_in_ms: u64::try_from(retry_in.as_millis()).unwrap_or(u64::MAX),
                },
                ListenerEvent::Refused { reason } => {
                    return Err(HostError::Unsupported(format!(
                        "`{server}` takes no subscription: {reason}"
                    )));
                }
            },
            // A 2026-07-28 server sends its changes on subscription streams only, and this
            // watch has its own; what other streams of the connection (the engine's own
            // subscription) pass to the watchers would come twice.
            notice = pushed.recv(), if !modern => match notice {
                Ok((method, params)) => WatchEvent::Notification { method, params },
                Err(broadcast::error::RecvError::Lagged(count)) => WatchEvent::Dropped { count },
                Err(broadcast::error::RecvError::Closed) => {
                    return Err(HostError::NotConnected(format!(
                        "`{server}`: the connection ended"
                    )));
                }
            },
            reason = client.wait_closed() => {
                return Err(HostError::NotConnected(format!(
                    "`{server}`: the connection ended: {reason}"
                )));
            }
            () = events.closed() => return Ok(()),
        };
        if let WatchEvent::Notification { method, .. } = &event
            && !shown(method)
        {
            continue;
        }
        if events.send(event).await.is_err() {
            return Ok(());
        }
    }
}

async fn next_event(client: &Client, listener: Option<&mut Listener>) -> ListenerEvent {
    match listener {
        Some(listener) => listener.next(client).await,
        None => std::future::pending().await,
    }
}

/// What a subscription carries, in words.
fn describe(filter: &NotificationFilter) -> String {
    let mut parts = Vec::new();
    for (on, what) in [
        (filter.tools_list_changed, "tool list"),
        (filter.prompts_list_changed, "prompt list"),
        (filter.resources_list_changed, "resource list"),
    ] {
        if on {
            parts.push(what.to_owned());
        }
    }
    parts.extend(filter.resource_subscriptions.iter().cloned());
    if parts.is_empty() {
        "nothing the server agreed to".to_owned()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_messages_and_progress_are_not_offered_to_watchers() {
        let watchers = watchers();
        let mut watching = watchers.subscribe();
        offer(&watchers, "notifications/message", None);
        offer(&watchers, "notifications/progress", None);
        offer(&watchers, "notifications/tools/list_changed", None);
        assert_eq!(
            watching.try_recv().ok(),
            Some(("notifications/tools/list_changed".to_owned(), None))
        );
        assert!(watching.try_recv().is_err());
    }

    #[test]
    fn a_watcher_that_falls_behind_misses_the_oldest_and_is_told_how_many() {
        let watchers = watchers();
        let mut watching = watchers.subscribe();
        for n in 0..WATCHERS + 10 {
            offer(
                &watchers,
                "notifications/resources/updated",
                Some(&serde_json::json!({ "uri": format!("file:///{n}") })),
            );
        }
        assert!(matches!(
            watching.try_recv(),
            Err(broadcast::error::TryRecvError::Lagged(10))
        ));
    }
}
