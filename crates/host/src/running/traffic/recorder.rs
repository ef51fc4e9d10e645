//! The tap on one server's connection ([`gatehouse_mcp::peer::MessageTap`]): each message
//! classified (request, notification, response), a response given its request's method and
//! latency by matching ids, written redacted and kept in the server's ring.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use gatehouse_mcp::peer::{Direction, MessageTap, Tap};
use serde_json::Value;

use super::buffers::{MAX_MESSAGE_BYTES, Traffic};
use super::entry::{TrafficDirection, TrafficEntry};
use super::redacted;
use crate::running::server_logs::clock;
use crate::vocabulary::redact::KnownSecrets;

/// Requests awaiting their response, per direction; past this the oldest are forgotten (a
/// response to one then has no method or latency).
pub const MAX_AWAITED: usize = 256;

/// Requests of one direction awaiting their response: id (as JSON text), method, when.
#[derive(Default)]
struct Awaited(VecDeque<(String, String, Instant)>);

impl Awaited {
    fn push(&mut self, id: String, method: String) {
        if self.0.len() >= MAX_AWAITED {
            self.0.pop_front();
        }
        self.0.push_back((id, method, Instant::now()));
    }

    fn take(&mut self, id: &str) -> Option<(String, Instant)> {
        let at = self.0.iter().position(|(awaited, _, _)| awaited == id)?;
        self.0.remove(at).map(|(_, method, when)| (method, when))
    }
}

/// Records one server's messages into [`Traffic`].
pub struct ServerTraffic {
    server_id: String,
    secrets: KnownSecrets,
    traffic: Traffic,
    /// Requests sent (awaiting the server's response) and received (awaiting ours).
    awaited: Mutex<(Awaited, Awaited)>,
}

impl ServerTraffic {
    pub fn new(server_id: &str, secrets: KnownSecrets, traffic: Traffic) -> Self {
        Self {
            server_id: server_id.to_owned(),
            secrets,
            traffic,
            awaited: Mutex::default(),
        }
    }

    /// The method, id and latency of a message, noting a request for its response.
    fn classify(
        &self,
        direction: Direction,
        message: &Value,
    ) -> (Option<String>, Option<String>, Option<f64>) {
        let Value::Object(fields) = message else {
            return match message {
                Value::Array(items) => (Some(format!("batch of {}", items.len())), None, None),
                _ => (None, None, None),
            };
        };
        let id = fields
            .get("id")
            .filter(|id| !id.is_null())
            .map(Value::to_string);
        let mut awaited = self.awaited.lock().unwrap_or_else(PoisonError::into_inner);
        let (sent, received) = &mut *awaited;
        if let Some(method) = fields.get("method").and_then(Value::as_str) {
            if let Some(id) = &id {
                let mine = match direction {
                    Direction::Sent => sent,
                    Direction::Received => received,
                };
                mine.push(id.clone(), method.to_owned());
            }
            return (Some(method.to_owned()), id, None);
        }
        let Some(id) = id else {
            return (None, None, None);
        };
        let theirs = match direction {
            Direction::Sent => received,
            Direction::Received => sent,
        };
        match theirs.take(&id) {
            Some((method, when)) => (
                Some(method),
                Some(id),
                Some(when.elapsed().as_secs_f64() * 1000.0),
            ),
            None => (None, Some(id), None),
        }
    }
}

impl MessageTap for ServerTraffic {
    fn message(&self, direction: Direction, message: &Value) {
        let (method, id, latency_ms) = self.classify(direction, message);
        let (text, size, truncated) = redacted::write(message, &self.secrets, MAX_MESSAGE_BYTES);
        let entry = TrafficEntry {
            seq: 0,
            time: clock::now(),
            direction: match direction {
                Direction::Sent => TrafficDirection::Sent,
                Direction::Received => TrafficDirection::Received,
            },
            method: method.map(|m| self.secrets.scrub(&m)),
            id: id.map(|i| self.secrets.scrub(&i)),
            latency_ms,
            size: u64::try_from(size).unwrap_or(u64::MAX),
            message: text,
            truncated,
        };
        self.traffic.record(&self.server_id, entry);
    }
}

impl Traffic {
    /// A tap that records one server's connection, hiding `secrets` (its secret values).
    pub fn tap(&self, server_id: &str, secrets: KnownSecrets) -> Tap {
        Tap(Arc::new(ServerTraffic::new(
            server_id,
            secrets,
            self.clone(),
        )))
    }
}
