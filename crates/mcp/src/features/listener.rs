//! A subscription kept open (2026-07-28 basic/patterns/subscriptions, "Cancellation": a stream
//! that ends without a result is an unexpected disconnect, which the client may take as a
//! trigger to reconnect): [`Listener`] reopens it with exponential backoff whenever it ends, and
//! stops trying only when the server refuses subscriptions altogether.

use std::time::Duration;

use serde_json::Value;

use super::subscriptions::{NotificationFilter, Subscription, SubscriptionEvent};
use crate::client::Client;
use crate::error::McpError;
use crate::jsonrpc::codes;

/// Whether an error means the server will never take the subscription (so retrying is futile).
fn is_refusal(error: &McpError) -> bool {
    match error {
        McpError::NotSupported { .. } => true,
        McpError::Rpc { error, .. } => error.code == codes::METHOD_NOT_FOUND,
        _ => false,
    }
}

/// What a [`Listener`] reports.
#[derive(Debug, Clone, PartialEq)]
pub enum ListenerEvent {
    /// A subscription is open (again): anything may have changed while it was not, so lists
    /// should be fetched anew.
    Opened(NotificationFilter),
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// The subscription ended or could not be opened; it is tried again after `retry_in`.
    Lost { reason: String, retry_in: Duration },
    /// The server will not take the subscription; the listener stays idle from now on.
    Refused { reason: String },
}

/// Keeps one subscription open: reopens it with exponential backoff (0.5 s doubling to 30 s)
/// whenever its stream ends. A subscription that stayed open for a while resets the backoff.
#[derive(Debug)]
pub struct Listener {
    wanted: NotificationFilter,
    current: Option<(Subscription, tokio::time::Instant)>,
    retry_at: Option<tokio::time::Instant>,
    delay: Duration,
    refused: bool,
}

const FIRST_DELAY: Duration = Duration::from_millis(500);
const MAX_DELAY: Duration = Duration::from_secs(30);
/// How long a subscription must last for its loss to count as fresh trouble.
const STABLE: Duration = Duration::from_secs(10);

impl Listener {
    pub fn new(wanted: NotificationFilter) -> Self {
        Self {
            wanted,
            current: None,
            retry_at: None,
            delay: FIRST_DELAY,
            refused: false,
        }
    }

    /// The next event. Cancel-safe between events: a dropped call loses no notification, though
    /// a subscription being opened is abandoned and opened again on the next call.
    pub async fn next(&mut self, client: &Client) -> ListenerEvent {
        if self.refused {
            return std::future::pending().await;
        }
        if let Some((subscription, since)) = self.current.as_mut() {
            return match subscription.next().await {
                SubscriptionEvent::Notification { method, params } => {
                    ListenerEvent::Notification { method, params }
                }
                SubscriptionEvent::Ended { reason, .. } => {
                    if since.elapsed() >= STABLE {
                        self.delay = FIRST_DELAY;
                    }
                    self.current = None;
                    self.lost(reason)
                }
            };
        }
        if let Some(at) = self.retry_at {
            tokio::time::sleep_until(at).await;
        }
        match client.listen(&self.wanted).await {
            Ok(subscription) => {
                self.retry_at = None;
                let agreed = subscription.acknowledged().clone();
                self.current = Some((subscription, tokio::time::Instant::now()));
                ListenerEvent::Opened(agreed)
            }
            Err(e) if is_refusal(&e) => {
                self.refused = true;
                ListenerEvent::Refused {
                    reason: e.to_string(),
                }
            }
            Err(e) => self.lost(e.to_string()),
        }
    }

    fn lost(&mut self, reason: String) -> ListenerEvent {
        let retry_in = self.delay;
        self.retry_at = Some(tokio::time::Instant::now() + retry_in);
        self.delay = (self.delay * 2).min(MAX_DELAY);
        ListenerEvent::Lost { reason, retry_in }
    }
}
