//! `subscriptions/listen` (2026-07-28 basic/patterns/subscriptions): one long-lived request
//! that carries the change notifications the client opted in to. The client asks only for what
//! the server advertises (`tools.listChanged`, `prompts.listChanged`, `resources.listChanged`,
//! `resources.subscribe`), waits for `notifications/subscriptions/acknowledged`, and then reads
//! notifications routed to it by subscription id. [`super::listener::Listener`] keeps one open.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::client::Client;
use crate::era::Era;
use crate::error::{McpError, Result};
use crate::peer::stream::{OpenRequest, StreamItem};

const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// Notifications kept from before the acknowledgement, which a server must not send at all.
const MAX_EARLY: usize = 64;

/// Which notifications a subscription carries ("Notification Filter").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationFilter {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tools_list_changed: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prompts_list_changed: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resources_list_changed: bool,
    /// Resource URIs to receive `notifications/resources/updated` for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_subscriptions: Vec<String>,
}

impl NotificationFilter {
    /// Every list change, and updates of the given resources.
    pub fn all_lists(resources: Vec<String>) -> Self {
        Self {
            tools_list_changed: true,
            prompts_list_changed: true,
            resources_list_changed: true,
            resource_subscriptions: resources,
        }
    }

    /// Whether the filter asks for nothing.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// An open subscription.
#[derive(Debug)]
pub struct Subscription {
    request: OpenRequest,
    acknowledged: NotificationFilter,
    /// Notifications that came before the acknowledgement (a server should not send any).
    early: Vec<(String, Option<Value>)>,
}

/// What a subscription delivers.
#[derive(Debug, Clone, PartialEq)]
pub enum SubscriptionEvent {
    /// A change notification.
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// The subscription ended: `graceful` if the server closed it with a result (it is shutting
    /// down, say), otherwise the stream broke.
    Ended { graceful: bool, reason: String },
}

impl Subscription {
    /// What the server agreed to send.
    pub fn acknowledged(&self) -> &NotificationFilter {
        &self.acknowledged
    }

    /// The next notification or the end. Cancel-safe.
    pub async fn next(&mut self) -> SubscriptionEvent {
        if !self.early.is_empty() {
            let (method, params) = self.early.remove(0);
            return SubscriptionEvent::Notification { method, params };
        }
        match self.request.next().await {
            StreamItem::Notification { method, params } => {
                SubscriptionEvent::Notification { method, params }
            }
            StreamItem::Ended(Ok(_)) => SubscriptionEvent::Ended {
                graceful: true,
                reason: "the server closed the subscription".into(),
            },
            StreamItem::Ended(Err(error)) => SubscriptionEvent::Ended {
                graceful: false,
                reason: error.to_string(),
            },
        }
    }
}

impl Client {
    /// The part of `wanted` that the server advertises.
    pub fn supported_notifications(&self, wanted: &NotificationFilter) -> NotificationFilter {
        NotificationFilter {
            tools_list_changed: wanted.tools_list_changed
                && self.server_declares("tools.listChanged"),
            prompts_list_changed: wanted.prompts_list_changed
                && self.server_declares("prompts.listChanged"),
            resources_list_changed: wanted.resources_list_changed
                && self.server_declares("resources.listChanged"),
            resource_subscriptions: if self.server_declares("resources.subscribe") {
                wanted.resource_subscriptions.clone()
            } else {
                Vec::new()
            },
        }
    }

    /// Opens a subscription for what `wanted` asks and the server advertises, and waits for the
    /// server to acknowledge it. Fails with [`McpError::NotSupported`] when that is nothing, or
    /// when the connection is not in the 2026-07-28 era (older servers push notifications
    /// without being asked).
    pub async fn listen(&self, wanted: &NotificationFilter) -> Result<Subscription> {
        let mut pending = self.open_subscription(wanted).await?;
        pending.acknowledged().await?;
        pending.into_subscription()
    }

    /// Sends `subscriptions/listen` for what `wanted` asks and the server advertises, without
    /// waiting for the acknowledgement (see [`PendingSubscription::acknowledged`]).
    pub async fn open_subscription(
        &self,
        wanted: &NotificationFilter,
    ) -> Result<PendingSubscription> {
        if self.era() != Era::Modern {
            return Err(McpError::NotSupported {
                feature: "subscriptions/listen (a 2026-07-28 feature)".into(),
                capability: "listChanged".into(),
            });
        }
        let filter = self.supported_notifications(wanted);
        if filter.is_empty() {
            return Err(McpError::NotSupported {
                feature: "change notifications".into(),
                capability: "listChanged".into(),
            });
        }
        let params = json!({ "notifications": filter });
        let request = self
            .peer()
            .open("subscriptions/listen", Some(params))
            .await?;
        Ok(PendingSubscription {
            request,
            asked: filter,
            acknowledged: None,
            early: Vec::new(),
            timeout: self.request_timeout(),
            deadline: tokio::time::Instant::now() + self.request_timeout(),
        })
    }
}

/// A subscription sent but not yet acknowledged. Dropping it cancels the request.
#[derive(Debug)]
pub struct PendingSubscription {
    request: OpenRequest,
    asked: NotificationFilter,
    acknowledged: Option<NotificationFilter>,
    early: Vec<(String, Option<Value>)>,
    timeout: std::time::Duration,
    deadline: tokio::time::Instant,
}

impl PendingSubscription {
    /// Waits for `notifications/subscriptions/acknowledged` (the server must send it first) and
    /// returns what the server agreed to; fails if the request ends or the client's request
    /// timeout passes first. Cancel-safe: a dropped call loses nothing and can be made again.
    pub async fn acknowledged(&mut self) -> Result<NotificationFilter> {
        if let Some(agreed) = &self.acknowledged {
            return Ok(agreed.clone());
        }
        loop {
            let item = tokio::select! {
                item = self.request.next() => item,
                () = tokio::time::sleep_until(self.deadline) => {
                    return Err(McpError::Timeout {
                        method: "subscriptions/listen".into(),
                        timeout: self.timeout,
                    });
                }
            };
            match item {
                StreamItem::Notification { method, params } if method == ACKNOWLEDGED => {
                    let agreed = params
                        .as_ref()
                        .and_then(|p| p.get("notifications"))
                        .cloned()
                        .unwrap_or_else(|| json!({}));
                    let agreed =
                        serde_json::from_value::<NotificationFilter>(agreed).map_err(|e| {
                            McpError::InvalidResponse {
                                method: ACKNOWLEDGED.into(),
                                message: e.to_string(),
                            }
                        })?;
                    if agreed != self.asked {
                        tracing::debug!("the server agreed to {agreed:?} of {:?}", self.asked);
                    }
                    self.acknowledged = Some(agreed.clone());
                    return Ok(agreed);
                }
                // The server must acknowledge first; what it sends before is kept, within a bound.
                StreamItem::Notification { method, params } if self.early.len() < MAX_EARLY => {
                    self.early.push((method, params));
                }
                StreamItem::Notification { method, .. } => {
                    tracing::warn!(
                        "dropping `{method}`: sent on a subscription not yet acknowledged"
                    );
                }
                StreamItem::Ended(Ok(_)) => {
                    return Err(McpError::InvalidResponse {
                        method: "subscriptions/listen".into(),
                        message: "the server ended the subscription before acknowledging it".into(),
                    });
                }
                StreamItem::Ended(Err(error)) => {
                    return Err(error.into_error("subscriptions/listen"));
                }
            }
        }
    }

    /// The open subscription, once acknowledged.
    pub fn into_subscription(self) -> Result<Subscription> {
        let Some(acknowledged) = self.acknowledged else {
            return Err(McpError::InvalidResponse {
                method: "subscriptions/listen".into(),
                message: "the subscription has not been acknowledged".into(),
            });
        };
        Ok(Subscription {
            request: self.request,
            acknowledged,
            early: self.early,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_serialises_only_what_it_asks_for() {
        let filter = NotificationFilter {
            tools_list_changed: true,
            resource_subscriptions: vec!["file:///a".into()],
            ..NotificationFilter::default()
        };
        assert_eq!(
            serde_json::to_value(&filter).ok(),
            Some(json!({"toolsListChanged": true, "resourceSubscriptions": ["file:///a"]}))
        );
        assert!(NotificationFilter::default().is_empty());
        let agreed: NotificationFilter =
            serde_json::from_value(json!({"toolsListChanged": true, "somethingNew": 1}))
                .unwrap_or_default();
        assert!(agreed.tools_list_changed && !agreed.prompts_list_changed);
    }
}
