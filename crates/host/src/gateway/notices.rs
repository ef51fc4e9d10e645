//! What one agent is told of its servers besides its answers: their log messages at the level it
//! set (`logging/setLevel`; 2025-11-25 server/utilities/logging), each named by its server in
//! `logger`; the updates of the resources it subscribed to (`resources/subscribe`, routed to the
//! resource's server and decided by the gate as a read; 2025-11-25 server/resources,
//! "Subscriptions"); and which of its lists a server said changed. Its subscriptions end when it
//! leaves, and a server is told to unsubscribe when no other agent still wants the resource.
//!
//! The level filters at the gateway: the servers are not asked to change theirs, since agents
//! share them. Until an agent sets a level, it is given every message, as a server would.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use serde_json::{Value, json};

use super::changes::List;
use super::profiles::Served;
use super::resources;
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::gate::Source;
use crate::oversight::gate::agent_notices::ServerNote;

/// The log levels, least severe first (RFC 5424 as 2025-11-25 server/utilities/logging names them).
pub(super) const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// What a server's notification means for the agent.
#[derive(Debug, PartialEq)]
pub enum Told {
    /// Sent to the agent as it is.
    Send(Value),
    /// One of its lists changed (`None`: any may have).
    Changed(Option<List>),
    Nothing,
}

/// The most resources one agent may be subscribed to at once (a template admits endless URIs).
pub const MAX_SUBSCRIPTIONS: usize = 1024;

/// One agent's log level and resource subscriptions.
#[derive(Debug, Default)]
pub struct Notices {
    level: Mutex<Option<usize>>,
    /// (server id, URI) the agent subscribed to.
    subscribed: Mutex<HashSet<(String, String)>>,
}

impl Notices {
    /// Whether the agent is subscribed to `key` already; an error when it is not and has no
    /// room for another subscription ([`MAX_SUBSCRIPTIONS`]).
    fn already(&self, key: &(String, String)) -> Result<bool> {
        let subscribed = self
            .subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if subscribed.contains(key) {
            return Ok(true);
        }
        if subscribed.len() >= MAX_SUBSCRIPTIONS {
            return Err(HostError::Validation(format!(
                "at most {MAX_SUBSCRIPTIONS} resources may be subscribed to at once; unsubscribe from one first"
            )));
        }
        Ok(false)
    }

    /// `logging/setLevel`.
    pub fn set_level(&self, params: &Value) -> Result<Value> {
        let asked = params.get("level").and_then(Value::as_str).unwrap_or("");
        let level = LEVELS.iter().position(|l| *l == asked).ok_or_else(|| {
            HostError::Validation(format!(
                "`{asked}` is not a log level: one of {}",
                LEVELS.join(", ")
            ))
        })?;
        *self.level.lock().unwrap_or_else(PoisonError::into_inner) = Some(level);
        Ok(json!({}))
    }

    /// What the agent is told of a server's notification.
    pub fn told(&self, note: &ServerNote) -> Told {
        let params = note.params.clone().unwrap_or_else(|| json!({}));
        match note.method.as_str() {
            "notifications/message" => {
                let level = params
                    .get("level")
                    .and_then(Value::as_str)
                    .unwrap_or("info");
                let rank = LEVELS.iter().position(|l| *l == level).unwrap_or(1);
                let floor = *self.level.lock().unwrap_or_else(PoisonError::into_inner);
                if floor.is_some_and(|floor| rank < floor) {
                    return Told::Nothing;
                }
                let mut params = params;
                let logger = match params.get("logger").and_then(Value::as_str) {
                    Some(logger) => format!("{}/{logger}", note.server),
                    None => note.server.clone(),
                };
                params["logger"] = json!(logger);
                Told::Send(notification(&note.method, params))
            }
            "notifications/resources/updated" => {
                let uri = params.get("uri").and_then(Value::as_str).unwrap_or("");
                let key = (note.server_id.clone(), uri.to_owned());
                let mine = self
                    .subscribed
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .contains(&key);
                if mine {
                    Told::Send(notification(&note.method, params))
                } else {
                    Told::Nothing
                }
            }
            "notifications/prompts/list_changed" => Told::Changed(Some(List::Prompts)),
            "notifications/resources/list_changed" => Told::Changed(Some(List::Resources)),
            _ => Told::Nothing,
        }
    }

    /// `resources/subscribe`: through the gate, on the resource's server; the server is asked
    /// only by the first agent that wants the resource.
    pub async fn subscribe(
        &self,
        host: &Host,
        client: &str,
        served: &Served,
        params: &Value,
    ) -> Result<Value> {
        let uri = uri(params)?;
        let connection =
            resources::shown_owner(host, client, served, "resources/subscribe", uri).await?;
        let key = (connection.server_id().to_owned(), uri.to_owned());
        if self.already(&key)? {
            return Ok(json!({}));
        }
        host.subscribe_shared(&connection, uri, Source::Gateway)
            .await?;
        self.subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key);
        Ok(json!({}))
    }

    /// `resources/unsubscribe`.
    pub async fn unsubscribe(&self, host: &Host, params: &Value) -> Result<Value> {
        let uri = uri(params)?;
        let mine: Vec<(String, String)> = {
            let mut subscribed = self
                .subscribed
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let mine = subscribed
                .iter()
                .filter(|(_, u)| u == uri)
                .cloned()
                .collect();
            subscribed.retain(|(_, u)| u != uri);
            mine
        };
        host.release_subscriptions(mine).await;
        Ok(json!({}))
    }

    /// The agent left: its subscriptions end (the servers told, as [`Host::release_subscriptions`] does).
    pub async fn leave(&self, host: &Host) {
        let mine: Vec<(String, String)> = self
            .subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .collect();
        host.release_subscriptions(mine).await;
    }
}

fn uri(params: &Value) -> Result<&str> {
    params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| HostError::Validation("`uri` is missing".to_owned()))
}

fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_subscribes_to_at_most_so_many_resources() {
        let notices = Notices::default();
        let key = |n: usize| {
            (
                "id-e".to_owned(),
                format!("demo://resource/dynamic/text/{n}"),
            )
        };
        notices
            .subscribed
            .lock()
            .expect("lock")
            .extend((0..MAX_SUBSCRIPTIONS).map(key));
        assert!(notices.already(&key(0)).expect("one it has"));
        let refused = notices
            .already(&key(MAX_SUBSCRIPTIONS))
            .expect_err("no room for another");
        assert!(refused.to_string().contains("at most 1024"), "{refused}");
        notices.subscribed.lock().expect("lock").remove(&key(0));
        assert!(
            !notices
                .already(&key(MAX_SUBSCRIPTIONS))
                .expect("room again")
        );
    }

    fn log(level: &str) -> ServerNote {
        ServerNote {
            server_id: "id-e".into(),
            server: "e".into(),
            method: "notifications/message".into(),
            params: Some(json!({ "level": level, "data": "d", "logger": "core" })),
        }
    }

    #[test]
    fn log_messages_name_their_server_and_pass_the_agents_level() {
        let notices = Notices::default();
        let Told::Send(sent) = notices.told(&log("debug")) else {
            panic!("every message before a level is set");
        };
        assert_eq!(sent["params"]["logger"], "e/core");
        notices
            .set_level(&json!({ "level": "warning" }))
            .expect("a level");
        assert_eq!(notices.told(&log("info")), Told::Nothing);
        assert!(matches!(notices.told(&log("error")), Told::Send(_)));
        assert!(notices.set_level(&json!({ "level": "loud" })).is_err());
    }

    #[test]
    fn updates_reach_only_the_agent_subscribed_to_them() {
        let notices = Notices::default();
        let update = ServerNote {
            server_id: "id-e".into(),
            server: "e".into(),
            method: "notifications/resources/updated".into(),
            params: Some(json!({ "uri": "demo://r/1" })),
        };
        assert_eq!(notices.told(&update), Told::Nothing);
        notices
            .subscribed
            .lock()
            .expect("lock")
            .insert(("id-e".into(), "demo://r/1".into()));
        assert!(matches!(notices.told(&update), Told::Send(_)));
        let elsewhere = ServerNote {
            server_id: "id-f".into(),
            ..update
        };
        assert_eq!(
            notices.told(&elsewhere),
            Told::Nothing,
            "same URI, other server"
        );
    }
}
