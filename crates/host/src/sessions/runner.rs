//! The task that owns one server's connection: connects, lists the tools (if it offers any),
//! and then reacts to what happens (the connection ending, a list change pushed or delivered on
//! a subscription, a stale tool list, new roots, tasks to follow) until it is told to stop.

use std::sync::Arc;

use gatehouse_mcp::{Listener, ListenerEvent, NotificationFilter};
use tokio::sync::{mpsc, oneshot};

use super::status::{Offer, ServerStatus, ToolInfo};
use super::{Slots, TASK_TICK, lock, task_follow};
use crate::connect::open_client_with;
use crate::events::{EngineEvent, EventBus};
use crate::gate::Gate;
use crate::gate::from_server::AuditedHandler;
use crate::registry::Registry;
use crate::registry::model::ServerConfig;
use crate::server_requests::{HostHandler, ServerNotice, SharedRoots};

/// The task that owns one server's connection.
pub(super) struct Runner {
    pub(super) id: String,
    pub(super) generation: u64,
    pub(super) slots: Slots,
    pub(super) events: EventBus,
    pub(super) registry: Registry,
    pub(super) gate: Gate,
}

/// What a connection task receives: its roots, its notice channel and its stop signal.
pub(super) struct Channels {
    pub(super) roots: SharedRoots,
    pub(super) notices_tx: mpsc::UnboundedSender<ServerNotice>,
    pub(super) notices: mpsc::UnboundedReceiver<ServerNotice>,
    pub(super) stop: oneshot::Receiver<()>,
}

impl Runner {
    pub(super) async fn run(self, config: ServerConfig, channels: Channels) {
        let Channels {
            roots,
            notices_tx,
            mut notices,
            mut stop,
        } = channels;
        let host_handler: Arc<dyn gatehouse_mcp::peer::Handler> = Arc::new(HostHandler::new(
            config.name.clone(),
            roots,
            Some(notices_tx),
        ));
        // The server's requests pass the gate's record on their way to the host's answers.
        if let Err(e) = self.gate.learn_secrets(&config.id).await {
            tracing::warn!(
                "cannot read the secrets of {} to keep them out of the audit log: {e}",
                config.name
            );
        }
        let handler = Arc::new(AuditedHandler::new(
            host_handler,
            self.gate.audit().clone(),
            config.name.clone(),
        ));
        let client = tokio::select! {
            client = open_client_with(&config, &self.registry, handler) => client,
            _ = &mut stop => return,
        };
        let client = match client {
            Ok(client) => client,
            Err(e) => {
                return self.set(ServerStatus::Failed {
                    message: e.to_string(),
                });
            }
        };
        if !self.refresh_tools(&client, &mut stop).await {
            return close(client, &self.id).await;
        }
        let modern = client.era() == gatehouse_mcp::Era::Modern;
        let mut listener = Listener::new(NotificationFilter::all_lists(Vec::new()));
        let mut first_subscription = true;
        let mut tasks = task_follow::TaskFollower::default();
        let mut task_ticks = tokio::time::interval(TASK_TICK);
        task_ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = task_ticks.tick() => {
                    if tasks.tick(&client, &self.registry, &config).await {
                        self.events.publish(EngineEvent::TasksChanged { id: self.id.clone() });
                    }
                }
                event = listener.next(&client), if modern => match event {
                    // Whatever changed while no subscription was open went unannounced.
                    ListenerEvent::Opened(_) if !std::mem::take(&mut first_subscription) => {
                        client.peer().cache().clear();
                        if !self.refresh_tools(&client, &mut stop).await {
                            break;
                        }
                    }
                    ListenerEvent::Opened(agreed) => {
                        tracing::debug!("{} sends change notifications: {agreed:?}", self.id);
                    }
                    ListenerEvent::Notification { method, params } => {
                        client.peer().handler().on_notification(&method, params);
                    }
                    ListenerEvent::Lost { reason, retry_in } => {
                        tracing::info!("{}: subscription lost ({reason}); reopening in {retry_in:?}", self.id);
                    }
                    ListenerEvent::Refused { reason } => {
                        tracing::info!("{} takes no subscription: {reason}", self.id);
                    }
                },
                reason = client.wait_closed() => {
                    let message = format!("connection lost: {reason}");
                    self.set(ServerStatus::Failed { message });
                    break;
                }
                Some(notice) = notices.recv() => match notice {
                    ServerNotice::ToolsChanged | ServerNotice::ToolsStale => {
                        if !self.refresh_tools(&client, &mut stop).await {
                            break;
                        }
                    }
                    // 2026-07-28 removed this notification (changelog, item 5): a modern server
                    // asks for roots in its input requests, answered from the shared roots.
                    ServerNotice::RootsChanged if modern => {}
                    // 2025-11-25 client/roots: a client that declares listChanged sends this.
                    ServerNotice::RootsChanged => {
                        if let Err(e) = client.peer().notify("notifications/roots/list_changed", None).await {
                            tracing::debug!("telling {} about new roots failed: {e}", self.id);
                        }
                    }
                },
                _ = &mut stop => break,
            }
        }
        close(client, &self.id).await;
    }

    /// Lists the tools and records the connected status; false if listing failed or the task
    /// was told to stop (the status then says so). A server that did not declare `tools` is
    /// connected with none and is not asked (2025-11-25 basic/lifecycle, "Operation").
    async fn refresh_tools(
        &self,
        client: &gatehouse_mcp::Client,
        stop: &mut oneshot::Receiver<()>,
    ) -> bool {
        if !client.server_declares(Offer::Tools.capability()) {
            self.set(ServerStatus::connected(client, 0));
            return true;
        }
        let listed = tokio::select! {
            listed = client.list_tools() => listed,
            _ = stop => return false,
        };
        match listed {
            Ok(page) => {
                let tools: Vec<ToolInfo> = page.items.iter().map(ToolInfo::from).collect();
                let status = ServerStatus::connected(client, tools.len());
                let fresh_until = client.peer().cache().fresh_until("tools/list");
                self.set_tools(status, tools, fresh_until);
                true
            }
            Err(e) => {
                let message = format!("listing tools failed: {e}");
                self.set(ServerStatus::Failed { message });
                false
            }
        }
    }

    /// Records a status without tools if this task is still the server's current one, and
    /// announces it.
    fn set(&self, status: ServerStatus) {
        self.set_tools(status, Vec::new(), None);
    }

    /// Records a status and tool list if this task is still the server's current one, and
    /// announces a change (an unchanged list fetched again is not news).
    fn set_tools(
        &self,
        status: ServerStatus,
        tools: Vec<ToolInfo>,
        fresh_until: Option<tokio::time::Instant>,
    ) {
        {
            let mut slots = lock(&self.slots);
            let Some(slot) = slots
                .get_mut(&self.id)
                .filter(|s| s.generation == self.generation)
            else {
                return;
            };
            slot.revalidating = false;
            slot.tools_fresh_until = fresh_until;
            if slot.status == status && slot.tools == tools {
                return;
            }
            slot.status = status.clone();
            slot.tools = tools;
        }
        self.events.publish(EngineEvent::ServerStatus {
            id: self.id.clone(),
            status,
        });
    }
}

async fn close(client: gatehouse_mcp::Client, id: &str) {
    if let Err(e) = client.close().await {
        tracing::warn!("stopping server {id}: {e}");
    }
}
