//! The task that owns one server's connection: connects, lists the tools (if it offers any),
//! and then reacts to what happens (the connection ending, a list change pushed or delivered on
//! a subscription, a stale tool list, new roots, tasks to follow) until it is told to stop.
//! While it is open the connection sits in the server's slot for the gate's tool calls; when it
//! ends they are told, and the connection is closed once they have let go of it.

use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::{Listener, ListenerEvent, NotificationFilter};
use tokio::sync::{mpsc, oneshot, watch};

use super::status::{Offer, ServerStatus, ToolInfo};
use super::{LiveClient, Slots, TASK_TICK, lock, task_follow};
use crate::connect::open_client_with;
use crate::events::{EngineEvent, EventBus};
use crate::gate::Gate;
use crate::gate::from_server::AuditedHandler;
use crate::registry::Registry;
use crate::registry::model::ServerConfig;
use crate::server_requests::{HostHandler, ServerNotice, SharedRoots};

/// How long calls still running when the connection ends may hold it before it is dropped
/// unclosed (which kills a stdio server): they are told to give up, and a cancelled call
/// waits at most 2 s for its cancellation to go out.
const CALLS_LET_GO: Duration = Duration::from_secs(5);

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
            self.gate.clone(),
            &config.name,
            &config.id,
        ));
        let client = tokio::select! {
            client = open_client_with(&config, &self.registry, handler, self.gate.approvals().attended()) => client,
            _ = &mut stop => return,
        };
        let client = match client {
            Ok(client) => Arc::new(client),
            Err(e) => {
                return self.set(ServerStatus::Failed {
                    message: e.to_string(),
                });
            }
        };
        let (ended, ended_rx) = watch::channel(());
        self.set_live(Some(LiveClient {
            client: client.clone(),
            ended: ended_rx,
        }));
        self.serve(&client, &config, &mut notices, &mut stop).await;
        self.set_live(None);
        drop(ended);
        close(client, &self.id).await;
    }

    /// Follows the open connection until it ends or the task is told to stop.
    async fn serve(
        &self,
        client: &gatehouse_mcp::Client,
        config: &ServerConfig,
        notices: &mut mpsc::UnboundedReceiver<ServerNotice>,
        stop: &mut oneshot::Receiver<()>,
    ) {
        if !self.refresh_tools(client, stop).await {
            return;
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
                    if tasks.tick(client, &self.registry, config).await {
                        self.events.publish(EngineEvent::TasksChanged { id: self.id.clone() });
                    }
                }
                event = listener.next(client), if modern => match event {
                    // Whatever changed while no subscription was open went unannounced.
                    ListenerEvent::Opened(_) if !std::mem::take(&mut first_subscription) => {
                        client.peer().cache().clear();
                        if !self.refresh_tools(client, stop).await {
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
                        if !self.refresh_tools(client, stop).await {
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
                _ = &mut *stop => break,
            }
        }
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
                if let Err(e) = self.gate.tools_listed(&self.id, &page.items).await {
                    tracing::warn!("cannot keep the tool definitions of {}: {e}", self.id);
                }
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

    /// Puts the connection in the slot, or takes it out, if this task is still the server's
    /// current one.
    fn set_live(&self, live: Option<LiveClient>) {
        if let Some(slot) = lock(&self.slots)
            .get_mut(&self.id)
            .filter(|s| s.generation == self.generation)
        {
            slot.live = live;
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

/// Closes the connection once the calls still running on it have let go of it, or drops it
/// after [`CALLS_LET_GO`].
async fn close(mut client: Arc<gatehouse_mcp::Client>, id: &str) {
    let deadline = tokio::time::Instant::now() + CALLS_LET_GO;
    let client = loop {
        match Arc::try_unwrap(client) {
            Ok(client) => break client,
            Err(shared) if tokio::time::Instant::now() < deadline => {
                client = shared;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(_) => {
                tracing::warn!("server {id}: calls still hold the connection; dropping it");
                return;
            }
        }
    };
    if let Err(e) = client.close().await {
        tracing::warn!("stopping server {id}: {e}");
    }
}
