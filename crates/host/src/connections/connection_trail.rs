//! The connection trail: every change of a live server's connection state (connecting,
//! connected with its era and protocol version, degraded, reconnecting, restarting with how the
//! server ended, crashed, failed, stopped, disabled) written to the audit log as a `connection`
//! row, from the engine's status events. `Host::start` starts it.
//!
//! A new tool list on a connected server is not a change of state, and is not recorded. If the
//! trail falls behind the event bus (it holds 256 events), a row says how many events it
//! missed. Stopping the trail ([`ConnectionTrail::finish`]) first records what is still queued,
//! so the servers' last states at shutdown are on record.

use std::collections::HashMap;

use serde_json::{Value, json};
use tokio::sync::{broadcast, oneshot};
use tokio::task::JoinHandle;

use crate::oversight::audit::{AuditEvent, AuditKind, AuditLog};
use crate::store::registry::Registry;
use crate::vocabulary::events::{EngineEvent, EventBus};
use crate::vocabulary::status::ServerStatus;

/// The task that records the trail; dropping it stops the task.
#[derive(Debug)]
pub struct ConnectionTrail {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl ConnectionTrail {
    /// Starts recording the status events published on `events` from now on.
    pub fn start(events: &EventBus, registry: Registry, audit: AuditLog) -> Self {
        let (stop, stopped) = oneshot::channel();
        let receiver = events.subscribe();
        let task = tokio::spawn(record(receiver, stopped, registry, audit));
        ConnectionTrail {
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Records what is still queued, then stops.
    pub async fn finish(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for ConnectionTrail {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

async fn record(
    mut receiver: broadcast::Receiver<EngineEvent>,
    mut stopped: oneshot::Receiver<()>,
    registry: Registry,
    audit: AuditLog,
) {
    let mut trail = Trail {
        last: HashMap::new(),
        registry,
        audit,
    };
    loop {
        tokio::select! {
            received = receiver.recv() => match received {
                Ok(event) => trail.note(event).await,
                Err(broadcast::error::RecvError::Lagged(missed)) => trail.missed(missed).await,
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = &mut stopped => break,
        }
    }
    // Stopping: what was published before the stop is still recorded.
    loop {
        match receiver.try_recv() {
            Ok(event) => trail.note(event).await,
            Err(broadcast::error::TryRecvError::Lagged(missed)) => trail.missed(missed).await,
            Err(_) => return,
        }
    }
}

struct Trail {
    /// Each server's last recorded state (its status without what is not a state).
    last: HashMap<String, Value>,
    registry: Registry,
    audit: AuditLog,
}

impl Trail {
    async fn note(&mut self, event: EngineEvent) {
        let EngineEvent::ServerStatus { id, status } = event else {
            return;
        };
        let state = state_of(&status);
        if self.last.get(&id) == Some(&state) {
            return;
        }
        self.last.insert(id.clone(), state.clone());
        let server = match self.registry.get(&id).await {
            Ok(config) => config.name,
            // Removed meanwhile: its id still names it.
            Err(_) => id,
        };
        let error_type = matches!(
            status,
            ServerStatus::Failed { .. } | ServerStatus::Crashed { .. }
        )
        .then(|| "connection".to_owned());
        self.append(AuditEvent {
            kind: AuditKind::Connection,
            server: Some(server),
            error_type,
            detail: state,
            ..AuditEvent::default()
        })
        .await;
    }

    async fn missed(&mut self, missed: u64) {
        self.append(AuditEvent {
            kind: AuditKind::Connection,
            detail: json!({ "missed": missed, "reason": "the connection trail fell behind" }),
            ..AuditEvent::default()
        })
        .await;
    }

    async fn append(&self, event: AuditEvent) {
        if let Err(e) = self.audit.append(event).await {
            tracing::warn!("cannot record a connection state in the audit log: {e}");
        }
    }
}

/// A status as recorded: everything but the tool count and offers of a connected server,
/// which change without the connection changing.
fn state_of(status: &ServerStatus) -> Value {
    let mut value = serde_json::to_value(status).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.remove("toolCount");
        map.remove("offers");
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connected_servers_tool_count_is_not_a_change_of_state() {
        let connected = |tool_count| ServerStatus::Connected {
            protocol_version: "2025-11-25".into(),
            era: "legacy".into(),
            server_name: "everything".into(),
            server_version: "1".into(),
            tool_count,
            offers: Vec::new(),
        };
        assert_eq!(state_of(&connected(3)), state_of(&connected(17)));
        assert_eq!(state_of(&connected(3))["state"], "connected");
        assert_eq!(state_of(&connected(3))["era"], "legacy");
        assert_ne!(state_of(&connected(3)), state_of(&ServerStatus::Connecting));
    }
}
