//! A modern agent's `subscriptions/listen` streams (2026-07-28 basic/patterns/subscriptions):
//! each is the open request that asked, with the notifications it opted in to. The gateway
//! acknowledges first (`notifications/subscriptions/acknowledged`, with what it honours), then
//! tells each stream only the list changes and resource updates it asked for, every message
//! tagged with the stream's `subscriptionId` (the JSON-RPC id of its request). The resources a
//! stream asks to hear of are subscribed on their servers as `resources/subscribe` is. A stream ends
//! when the agent cancels it (`notifications/cancelled`, or over HTTP closing the response),
//! or gracefully with a completion result when the gateway stops. At most [`MAX_STREAMS`] per
//! connection, and [`MAX_URIS`] resources per stream.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use gatehouse_mcp::NotificationFilter;
use gatehouse_mcp::era::META_SUBSCRIPTION_ID;
use serde_json::{Value, json};

use super::changes::List;
use super::modern::{Refusal, code};
use super::notices::Notices;
use super::profiles::Served;
use crate::host::Host;

/// Streams one connection may hold open at once.
pub const MAX_STREAMS: usize = 16;
/// Resources one stream may ask to hear of.
pub const MAX_URIS: usize = 256;

const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// The open streams of one connection.
#[derive(Debug, Default)]
pub struct Listeners {
    open: Mutex<HashMap<String, (Value, NotificationFilter)>>,
}

/// Opens the stream request `id` asks for: each resource it names is subscribed as
/// `resources/subscribe` would be (through the gate, on its server, within the agent's bound),
/// and only those subscribed are acknowledged ("Notification types the server does not support
/// are omitted"). The acknowledgement, or the error response.
pub async fn open(
    host: &Host,
    client: &str,
    served: &Served,
    notices: &Notices,
    listeners: &Listeners,
    id: &Value,
    params: &Value,
) -> Value {
    let opened = match wanted(params) {
        Ok(mut filter) => {
            let mut kept = Vec::new();
            for uri in std::mem::take(&mut filter.resource_subscriptions) {
                let asked = json!({ "uri": uri });
                match notices.subscribe(host, client, served, &asked).await {
                    Ok(_) => kept.push(uri),
                    Err(e) => tracing::debug!("a listen stream of `{client}` left out {uri}: {e}"),
                }
            }
            filter.resource_subscriptions = kept;
            listeners.open(id, filter)
        }
        Err(refused) => Err(refused),
    };
    opened.unwrap_or_else(|refused| json!({ "jsonrpc": "2.0", "id": id, "error": refused.error() }))
}

/// What a `subscriptions/listen` request asks for, checked.
pub fn wanted(params: &Value) -> Result<NotificationFilter, Refusal> {
    let asked = params.get("notifications").cloned().unwrap_or(json!({}));
    let filter: NotificationFilter = serde_json::from_value(asked).map_err(|e| Refusal {
        code: code::INVALID_PARAMS,
        message: format!("Invalid params: `notifications` is not a notification filter: {e}"),
        data: None,
    })?;
    if filter.resource_subscriptions.len() > MAX_URIS {
        return Err(Refusal {
            code: code::INVALID_PARAMS,
            message: format!("Invalid params: at most {MAX_URIS} resources per subscription"),
            data: None,
        });
    }
    Ok(filter)
}

impl Listeners {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Value, NotificationFilter)>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens stream `id` honouring `filter`; its acknowledgement, or why it was refused.
    pub fn open(&self, id: &Value, filter: NotificationFilter) -> Result<Value, Refusal> {
        let mut open = self.lock();
        if open.len() >= MAX_STREAMS && !open.contains_key(&id.to_string()) {
            return Err(Refusal {
                code: code::INVALID_PARAMS,
                message: format!(
                    "at most {MAX_STREAMS} subscriptions/listen streams at once: cancel one"
                ),
                data: None,
            });
        }
        let ack = tagged(id, ACKNOWLEDGED, json!({ "notifications": filter }));
        open.insert(id.to_string(), (id.clone(), filter));
        Ok(ack)
    }

    /// Ends stream `id` (the agent cancelled it); whether it was open.
    pub fn cancel(&self, id: &Value) -> bool {
        self.lock().remove(&id.to_string()).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// The notifications telling the streams that asked that `list` changed.
    pub fn changed(&self, list: List) -> Vec<Value> {
        let notice = list.notification();
        let method = notice["method"].as_str().unwrap_or_default();
        self.lock()
            .values()
            .filter(|(_, filter)| match list {
                List::Tools => filter.tools_list_changed,
                List::Prompts => filter.prompts_list_changed,
                List::Resources => filter.resources_list_changed,
            })
            .map(|(id, _)| tagged(id, method, json!({})))
            .collect()
    }

    /// The notifications telling the streams that asked of its resource about `updated`
    /// (a `notifications/resources/updated`); nothing for any other notification.
    pub fn updated(&self, updated: &Value) -> Vec<Value> {
        if updated["method"] != "notifications/resources/updated" {
            return Vec::new();
        }
        let Some(uri) = updated.pointer("/params/uri").and_then(Value::as_str) else {
            return Vec::new();
        };
        self.lock()
            .values()
            .filter(|(_, filter)| filter.resource_subscriptions.iter().any(|u| u == uri))
            .map(|(id, _)| tagged(id, "notifications/resources/updated", json!({ "uri": uri })))
            .collect()
    }

    /// Ends every stream gracefully: each request's completion result ("Graceful Closure").
    pub fn close_all(&self) -> Vec<Value> {
        self.lock()
            .drain()
            .map(|(_, (id, _))| {
                json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "result": { "resultType": "complete", "_meta": { META_SUBSCRIPTION_ID: id } },
                })
            })
            .collect()
    }
}

/// A notification on stream `id`.
fn tagged(id: &Value, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({ META_SUBSCRIPTION_ID: id });
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_hears_only_what_it_asked_for_tagged_with_its_id() {
        let listeners = Listeners::default();
        let tools = wanted(&json!({ "notifications": { "toolsListChanged": true } }))
            .expect("as the test wrote it");
        let ack = listeners
            .open(&json!(7), tools)
            .expect("as the test wrote it");
        assert_eq!(ack["method"], ACKNOWLEDGED);
        assert_eq!(ack["params"]["_meta"][META_SUBSCRIPTION_ID], 7);
        assert_eq!(
            ack["params"]["notifications"],
            json!({ "toolsListChanged": true })
        );
        let uris = wanted(&json!({ "notifications": { "resourceSubscriptions": ["a://x"] } }));
        listeners
            .open(&json!("r"), uris.expect("as the test wrote it"))
            .expect("as the test wrote it");

        let told = listeners.changed(List::Tools);
        assert_eq!(told.len(), 1);
        assert_eq!(told[0]["method"], "notifications/tools/list_changed");
        assert_eq!(told[0]["params"]["_meta"][META_SUBSCRIPTION_ID], 7);
        assert!(listeners.changed(List::Prompts).is_empty());

        let updated =
            json!({ "method": "notifications/resources/updated", "params": { "uri": "a://x" } });
        let told = listeners.updated(&updated);
        assert_eq!(told.len(), 1);
        assert_eq!(told[0]["params"]["_meta"][META_SUBSCRIPTION_ID], "r");
        let log = json!({ "method": "notifications/message", "params": { "uri": "a://x" } });
        assert!(
            listeners.updated(&log).is_empty(),
            "log messages are request-scoped"
        );

        assert!(listeners.cancel(&json!(7)));
        assert!(listeners.changed(List::Tools).is_empty());
        let closed = listeners.close_all();
        assert_eq!(closed[0]["id"], "r");
        assert!(listeners.is_empty());
    }

    #[test]
    fn a_garbled_filter_or_too_many_streams_is_refused() {
        for params in [
            json!({ "notifications": { "toolsListChanged": "yes" } }),
            json!({ "notifications": { "resourceSubscriptions": "a://x" } }),
            json!({ "notifications": { "resourceSubscriptions": vec!["u"; MAX_URIS + 1] } }),
        ] {
            assert_eq!(
                wanted(&params).expect_err("refused").code,
                code::INVALID_PARAMS,
                "{params}"
            );
        }
        let listeners = Listeners::default();
        for id in 0..MAX_STREAMS {
            listeners
                .open(&json!(id), NotificationFilter::default())
                .expect("as the test wrote it");
        }
        let refused = listeners.open(&json!("one more"), NotificationFilter::default());
        assert!(refused.expect_err("refused").message.contains("at most"));
    }
}
