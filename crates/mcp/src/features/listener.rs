//! A subscription kept open (2026-07-28 basic/patterns/subscriptions, "Cancellation": a stream
//! that ends without a result is an unexpected disconnect, which the client may take as a
//! trigger to reconnect): [`Listener`] reopens it with exponential backoff whenever it ends (0.5 s
//! doubling to 30 s, reset after a subscription that stayed open 10 s), and stops trying only
//! when the server refuses subscriptions altogether. It says `Opened` each time a subscription
//! opens, so that lists are fetched anew.
//!
//! It is cancel-safe, so it can sit in a `select!` loop: a subscription being opened stays
//! pending (`PendingSubscription`) across dropped calls.

use std::time::Duration;

use serde_json::Value;

use super::subscriptions::{
    NotificationFilter, PendingSubscription, Subscription, SubscriptionEvent,
};
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
    state: State,
    retry_at: Option<tokio::time::Instant>,
    delay: Duration,
}

#[derive(Debug)]
enum State {
    /// No subscription: one is opened on the next call (after `retry_at`).
    Closed,
    /// Sent, waiting for its acknowledgement.
    Opening(PendingSubscription),
    /// Open since the instant given.
    Open(Subscription, tokio::time::Instant),
    /// The server will never take it.
    Refused,
}

const FIRST_DELAY: Duration = Duration::from_millis(500);
const MAX_DELAY: Duration = Duration::from_secs(30);
/// How long a subscription must last for its loss to count as fresh trouble.
const STABLE: Duration = Duration::from_secs(10);

impl Listener {
    pub fn new(wanted: NotificationFilter) -> Self {
        Self {
            wanted,
            state: State::Closed,
            retry_at: None,
            delay: FIRST_DELAY,
        }
    }

    /// The next event. Cancel-safe: a dropped call loses no notification, and a subscription
    /// being opened stays pending for the next call.
    pub async fn next(&mut self, client: &Client) -> ListenerEvent {
        loop {
            match &mut self.state {
                State::Refused => return std::future::pending().await,
                State::Open(subscription, since) => {
                    return match subscription.next().await {
                        SubscriptionEvent::Notification { method, params } => {
                            ListenerEvent::Notification { method, params }
                        }
                        SubscriptionEvent::Ended { reason, .. } => {
                            if since.elapsed() >= STABLE {
                                self.delay = FIRST_DELAY;
                            }
                            self.state = State::Closed;
                            self.lost(reason)
                        }
                    };
                }
                State::Opening(pending) => {
                    let acknowledged = pending.acknowledged().await;
                    let State::Opening(pending) = std::mem::replace(&mut self.state, State::Closed)
                    else {
                        continue;
                    };
                    match acknowledged.and_then(|_| pending.into_subscription()) {
                        Ok(subscription) => {
                            self.retry_at = None;
                            let agreed = subscription.acknowledged().clone();
                            self.state = State::Open(subscription, tokio::time::Instant::now());
                            return ListenerEvent::Opened(agreed);
                        }
                        Err(e) => return self.failed(&e),
                    }
                }
                State::Closed => {
                    if let Some(at) = self.retry_at {
                        tokio::time::sleep_until(at).await;
                    }
                    match client.open_subscription(&self.wanted).await {
                        Ok(pending) => self.state = State::Opening(pending),
                        Err(e) => return self.failed(&e),
                    }
                }
            }
        }
    }

    /// A subscription could not be opened: refused for good, or lost for now.
    fn failed(&mut self, error: &McpError) -> ListenerEvent {
        if is_refusal(error) {
            self.state = State::Refused;
            ListenerEvent::Refused {
                reason: error.to_string(),
            }
        } else {
            self.lost(error.to_string())
        }
    }

    fn lost(&mut self, reason: String) -> ListenerEvent {
        let retry_in = self.delay;
        self.retry_at = Some(tokio::time::Instant::now() + retry_in);
        self.delay = (self.delay * 2).min(MAX_DELAY);
        ListenerEvent::Lost { reason, retry_in }
    }
}
