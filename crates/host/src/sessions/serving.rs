//! A runner following its open connection ([`Runner`]'s `serve`): the connection ending, list
//! changes pushed or delivered on a subscription, stale tool lists (relisted at the pace
//! [`super::relist_pace`] allows), new roots, tasks to follow and health checks, until it is
//! told to stop.

use super::health::{self, Check};
use super::relist_pace::RelistPace;
use super::runner::{Ended, Runner, lost_for_now};
use super::slots::TASK_TICK;
use super::status::{Offer, ServerStatus, ToolInfo};
use super::task_follow;
use crate::connections::server_requests::ServerNotice;
use crate::running::notice_queue::NoticeReceiver;
use crate::store::registry::model::ServerConfig;
use crate::vocabulary::events::EngineEvent;
use gatehouse_mcp::McpError;
use gatehouse_mcp::{Listener, ListenerEvent, NotificationFilter};
use tokio::sync::oneshot;

/// Ticks `every`, the first one `every` from now.
fn ticks_every(every: std::time::Duration) -> tokio::time::Interval {
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks
}

impl Runner {
    /// Follows the open connection until it ends or the task is told to stop.
    pub(super) async fn serve(
        &self,
        client: &gatehouse_mcp::Client,
        config: &ServerConfig,
        notices: &mut NoticeReceiver<ServerNotice>,
        stop: &mut oneshot::Receiver<()>,
    ) -> Ended {
        if let Err(ended) = self.refresh_tools(client, stop, false).await {
            return ended;
        }
        let mut pace = RelistPace::new(self.relist_every);
        pace.listed();
        let modern = client.era() == gatehouse_mcp::Era::Modern;
        let mut listener = Listener::new(NotificationFilter::all_lists(Vec::new()));
        let mut first_subscription = true;
        let mut tasks = task_follow::TaskFollower::default();
        let mut task_ticks = tokio::time::interval(TASK_TICK);
        task_ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut checks_changed = self.health.clone();
        let mut checks = *checks_changed.borrow_and_update();
        let mut health_ticks = ticks_every(checks.every);
        let mut misses = 0u32;
        loop {
            tokio::select! {
                Ok(()) = checks_changed.changed() => {
                    checks = *checks_changed.borrow_and_update();
                    health_ticks = ticks_every(checks.every);
                }
                _ = health_ticks.tick() => {
                    let in_flight = client.peer().calls_in_flight();
                    let found = tokio::select! {
                        found = health::check(client, &checks) => found,
                        _ = &mut *stop => return Ended::Stopped,
                    };
                    match found {
                        Check::Answered => {
                            if std::mem::take(&mut misses) > 0 {
                                tracing::info!("{} answers its health checks again", self.id);
                                self.set_keeping_tools(|tools| {
                                    ServerStatus::connected(client, tools)
                                });
                            }
                        }
                        Check::Closed(e) => {
                            return Ended::Exited {
                                message: format!("connection lost: {e}"),
                                last_stderr: Vec::new(),
                            };
                        }
                        // A server that handles one request at a time answers the check only
                        // after the calls before it, which have timeouts of their own: a miss
                        // then says nothing about its health.
                        Check::Missed(reason) if in_flight > 0 => {
                            tracing::debug!(
                                "{}: health check missed with {in_flight} requests in flight; \
                                 not counted: {reason}",
                                self.id
                            );
                        }
                        Check::Missed(reason) => {
                            misses = misses.saturating_add(1);
                            tracing::warn!(
                                "{}: health check missed ({misses} in a row): {reason}",
                                self.id
                            );
                            if misses >= checks.misses_before_restart {
                                return Ended::Unresponsive {
                                    message: format!(
                                        "it missed {misses} health checks in a row (last: {reason})"
                                    ),
                                    last_stderr: Vec::new(),
                                };
                            }
                            self.set_keeping_tools(|_| ServerStatus::Degraded {
                                reason: reason.clone(),
                                misses,
                            });
                        }
                    }
                }
                _ = task_ticks.tick() => {
                    if tasks.tick(client, &self.registry, config).await {
                        self.events.publish(EngineEvent::TasksChanged { id: self.id.clone() });
                    }
                }
                event = listener.next(client), if modern => match event {
                    // Whatever changed while no subscription was open went unannounced.
                    ListenerEvent::Opened(_) if !std::mem::take(&mut first_subscription) => {
                        client.peer().cache().clear();
                        if pace.ask() && let Err(ended) = self.relist(client, stop, &mut pace).await {
                            return ended;
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
                    return Ended::Exited {
                        message: format!("connection lost: {reason}"),
                        last_stderr: Vec::new(),
                    };
                }
                () = pace.due() => {
                    if let Err(ended) = self.relist(client, stop, &mut pace).await {
                        return ended;
                    }
                }
                Some(notice) = notices.recv() => match notice {
                    ServerNotice::ToolsChanged | ServerNotice::ToolsStale => {
                        if notice == ServerNotice::ToolsChanged {
                            pace.announce();
                        }
                        if pace.ask() && let Err(ended) = self.relist(client, stop, &mut pace).await {
                            return ended;
                        }
                    }
                    // 2026-07-28 removed this notification (changelog, item 5; client/roots,
                    // "Listing Roots": a server gets the roots inside an InputRequiredResult
                    // while it handles a request), so a modern server is told nothing: each
                    // input request is answered with the roots as they are then.
                    ServerNotice::RootsChanged if modern => {}
                    // 2025-11-25 client/roots, "Root List Changes": a client that declares
                    // listChanged (Gatehouse does) MUST send this when the roots change.
                    ServerNotice::RootsChanged => {
                        if let Err(e) = client.peer().notify("notifications/roots/list_changed", None).await {
                            tracing::debug!("telling {} about new roots failed: {e}", self.id);
                        }
                    }
                },
                _ = &mut *stop => return Ended::Stopped,
            }
        }
    }

    /// Lists the tools and records the connected status; how the connection ended if listing
    /// failed or the task was told to stop. A server that did not declare `tools` is connected
    /// with none and is not asked (2025-11-25 basic/lifecycle, "Operation"). `announced`: the
    /// server said its tools changed, so the status is announced even if the list is the same.
    pub(super) async fn refresh_tools(
        &self,
        client: &gatehouse_mcp::Client,
        stop: &mut oneshot::Receiver<()>,
        announced: bool,
    ) -> Result<(), Ended> {
        if !client.server_declares(Offer::Tools.capability()) {
            self.set(ServerStatus::connected(client, 0));
            return Ok(());
        }
        let listed = tokio::select! {
            listed = client.list_tools() => listed,
            _ = stop => return Err(Ended::Stopped),
        };
        match listed {
            Ok(page) => {
                if let Err(e) = self.gate.tools_listed(&self.id, &page.items).await {
                    tracing::warn!("cannot keep the tool definitions of {}: {e}", self.id);
                }
                let tools: Vec<ToolInfo> = page.items.iter().map(ToolInfo::from).collect();
                let status = ServerStatus::connected(client, tools.len());
                let fresh_until = client.peer().cache().fresh_until("tools/list");
                self.set_tools(status, tools, fresh_until, announced);
                Ok(())
            }
            Err(e) if matches!(e, McpError::Closed { .. }) || lost_for_now(&e) => {
                Err(Ended::Exited {
                    message: format!("listing tools failed: {e}"),
                    last_stderr: Vec::new(),
                })
            }
            Err(e) => Err(Ended::Failed(format!("listing tools failed: {e}"))),
        }
    }

    /// Lists the tools again, and notes when for the pace of the next listing.
    pub(super) async fn relist(
        &self,
        client: &gatehouse_mcp::Client,
        stop: &mut oneshot::Receiver<()>,
        pace: &mut RelistPace,
    ) -> Result<(), Ended> {
        let announced = pace.announced();
        let listed = self.refresh_tools(client, stop, announced).await;
        pace.listed();
        listed
    }
}
