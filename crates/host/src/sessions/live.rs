//! [`Sessions`]: the live connections of the enabled servers, following the registry (see the
//! folder's header).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;

use super::health;
use super::runner::{Channels, Runner};
use super::slots::{LiveClient, Slot, Slots, lock};
use super::status::{ServerStatus, ToolInfo};
use crate::connections::server_requests::{ServerNotice, SharedRoots};
use crate::oversight::gate::Gate;
use crate::running::notice_queue::notice_queue;
use crate::sessions::root_watch::RootWatch;
use crate::store::registry::Registry;
use crate::store::registry::model::ServerConfig;
use crate::vocabulary::events::{EngineEvent, EventBus};

/// How long stopping one server may take beyond its two stop waits before its task is
/// abandoned (which kills what is left of it): the calls on it letting go of the connection
/// (at most `runner::CALLS_LET_GO`) and the SIGKILL.
const STOP_SLACK: Duration = Duration::from_secs(7);

/// The live connections of the enabled servers.
#[derive(Clone)]
pub struct Sessions {
    slots: Slots,
    pub(super) events: EventBus,
    pub(super) registry: Registry,
    /// The gate, whose audit log records the servers' requests to the host.
    gate: Gate,
    next_generation: Arc<std::sync::atomic::AtomicU64>,
    /// How open connections are checked; a change re-arms every runner's checks.
    health: Arc<tokio::sync::watch::Sender<health::HealthChecks>>,
    /// The least time between two listings of a server's tools.
    relist_every: Duration,
    /// Views of MCP Apps are rendered: the UI extension is declared.
    render_apps: bool,
    /// Held by every change to the set of running sessions that follows the registry: a sync,
    /// and an edit this host makes from writing the registry to applying it.
    serial: Arc<tokio::sync::Mutex<()>>,
}

/// Proof that the holder runs alone among the changes that follow the registry (see
/// [`Sessions::serial`]).
pub(crate) struct Serial<'a>(#[allow(dead_code)] tokio::sync::MutexGuard<'a, ()>);

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sessions")
            .field("servers", &lock(&self.slots).len())
            .finish()
    }
}

/// What identifies a config version: a change means the connection must restart.
fn fingerprint(config: &ServerConfig) -> String {
    format!("{}|{}", config.updated_at, config.enabled)
}

impl Sessions {
    pub fn new(
        events: EventBus,
        registry: Registry,
        gate: Gate,
        health: health::HealthChecks,
        relist_every: Duration,
        render_apps: bool,
    ) -> Self {
        Self {
            health: Arc::new(tokio::sync::watch::Sender::new(health)),
            relist_every,
            render_apps,
            slots: Slots::default(),
            events,
            registry,
            gate,
            next_generation: Arc::default(),
            serial: Arc::default(),
        }
    }

    /// How open connections are checked now.
    pub(crate) fn health_checks(&self) -> health::HealthChecks {
        *self.health.borrow()
    }

    /// Checks open connections this way from now on: each runner's next check is `every` after
    /// the change.
    pub(crate) fn set_health_checks(&self, checks: health::HealthChecks) {
        self.health.send_if_modified(|now| {
            let changed = *now != checks;
            *now = checks;
            changed
        });
    }

    /// Waits until no other sync or edit runs, and keeps them waiting until the returned
    /// guard is dropped.
    pub(crate) async fn serial(&self) -> Serial<'_> {
        Serial(self.serial.lock().await)
    }

    /// Makes the live state match the registry as it is now (read once no other sync or edit
    /// runs, so never older than what a running session was started from).
    pub async fn follow_registry(&self) -> crate::error::Result<()> {
        let serial = self.serial().await;
        let configs = self.registry.list().await?;
        self.sync_held(&serial, &configs).await;
        Ok(())
    }

    /// Makes the live state match `configs` (starts new or changed enabled servers, stops
    /// disabled and removed ones), for a caller that holds the serial guard.
    pub(crate) async fn sync_held(&self, serial: &Serial<'_>, configs: &[ServerConfig]) {
        let gone: Vec<String> = {
            let slots = lock(&self.slots);
            slots
                .keys()
                .filter(|id| !configs.iter().any(|c| &c.id == *id))
                .cloned()
                .collect()
        };
        for id in gone {
            self.remove_held(serial, &id).await;
        }
        for config in configs {
            let current = lock(&self.slots)
                .get(&config.id)
                .map(|s| s.fingerprint.clone());
            if current.as_deref() != Some(fingerprint(config).as_str()) {
                self.restart_held(serial, config).await;
            }
        }
    }

    /// Stops any running connection for this server and starts it again if enabled, for a
    /// caller that holds the serial guard.
    pub(crate) async fn restart_held(&self, _serial: &Serial<'_>, config: &ServerConfig) {
        self.stop_task(&config.id).await;
        let generation = self
            .next_generation
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let status = if config.enabled {
            ServerStatus::Connecting
        } else {
            ServerStatus::Disabled
        };
        let roots: SharedRoots = Arc::new(std::sync::RwLock::new(config.roots.clone()));
        let (notices_tx, notices_rx) = notice_queue();
        let (stop, task) = if config.enabled {
            let (stop_tx, stop_rx) = oneshot::channel();
            let runner = Runner {
                id: config.id.clone(),
                generation,
                slots: self.slots.clone(),
                events: self.events.clone(),
                registry: self.registry.clone(),
                gate: self.gate.clone(),
                health: self.health.subscribe(),
                relist_every: self.relist_every,
                render_apps: self.render_apps,
                watchers: crate::connections::watching::watchers(),
            };
            (
                Some(stop_tx),
                Some(tokio::spawn(runner.run(
                    config.clone(),
                    Channels {
                        roots: roots.clone(),
                        notices_tx: notices_tx.clone(),
                        notices: notices_rx,
                        stop: stop_rx,
                    },
                ))),
            )
        } else {
            (None, None)
        };
        let roots_watch = config
            .enabled
            .then(|| RootWatch::start(config.name.clone(), roots.clone(), notices_tx.clone()));
        lock(&self.slots).insert(
            config.id.clone(),
            Slot {
                fingerprint: fingerprint(config),
                roots,
                roots_watch,
                notices: config.enabled.then_some(notices_tx),
                generation,
                status: status.clone(),
                tools: Vec::new(),
                tools_fresh_until: None,
                revalidating: false,
                live: None,
                stop,
                task,
                stop_within: {
                    let grace = config.spec.stop_grace();
                    grace.stdin() + grace.term() + STOP_SLACK
                },
            },
        );
        self.events.publish(EngineEvent::ServerStatus {
            id: config.id.clone(),
            status,
        });
    }

    /// Applies new roots to a running connection and, when that changes what it may be given,
    /// tells the server (`notifications/roots/list_changed`), without restarting it.
    pub fn update_roots(&self, config: &ServerConfig) {
        let mut slots = lock(&self.slots);
        let Some(slot) = slots.get_mut(&config.id) else {
            return;
        };
        slot.fingerprint = fingerprint(config);
        if let Ok(mut roots) = slot.roots.write() {
            roots.clone_from(&config.roots);
        }
        if let Some(watch) = &slot.roots_watch {
            watch.reconfigured();
        }
    }

    /// Stops a server's connection and forgets it, for a caller that holds the serial guard.
    pub(crate) async fn remove_held(&self, _serial: &Serial<'_>, id: &str) {
        self.stop_task(id).await;
        lock(&self.slots).remove(id);
    }

    /// The server's status; `None` if it is not tracked.
    pub fn status(&self, id: &str) -> Option<ServerStatus> {
        lock(&self.slots).get(id).map(|s| s.status.clone())
    }

    /// The open connection of the server's session, if it has one.
    pub(crate) fn live(&self, id: &str) -> Option<LiveClient> {
        lock(&self.slots).get(id)?.live.clone()
    }

    /// The tools of a connected server. A list past its freshness is returned as it is and
    /// fetched again in the background; a change is announced as a status event.
    pub fn tools(&self, id: &str) -> Option<Vec<ToolInfo>> {
        let mut slots = lock(&self.slots);
        let slot = slots.get_mut(id)?;
        let stale = slot
            .tools_fresh_until
            .is_some_and(|until| tokio::time::Instant::now() >= until);
        if stale
            && !slot.revalidating
            && let Some(notices) = &slot.notices
        {
            slot.revalidating = notices.send(ServerNotice::ToolsStale).is_ok();
        }
        Some(slot.tools.clone())
    }

    /// Stops a server's connection by hand and shows it `Stopped`; it stays stopped until
    /// started again (`restart`), whatever `sync` sees.
    pub async fn stop(&self, id: &str) {
        self.stop_task(id).await;
        let stopped = {
            let mut slots = lock(&self.slots);
            match slots.get_mut(id) {
                Some(slot) if slot.status != ServerStatus::Disabled => {
                    slot.status = ServerStatus::Stopped;
                    slot.tools.clear();
                    slot.live = None;
                    true
                }
                _ => false,
            }
        };
        if stopped {
            self.events.publish(EngineEvent::ServerStatus {
                id: id.to_owned(),
                status: ServerStatus::Stopped,
            });
        }
    }

    /// Stops every server, in parallel: this takes as long as the slowest server's stop, at
    /// most its two stop waits and [`STOP_SLACK`].
    pub async fn shutdown(&self) {
        let ids: Vec<String> = lock(&self.slots).keys().cloned().collect();
        let mut stops = tokio::task::JoinSet::new();
        for id in ids {
            let sessions = self.clone();
            stops.spawn(async move { sessions.stop_task(&id).await });
        }
        while stops.join_next().await.is_some() {}
    }

    async fn stop_task(&self, id: &str) {
        let (stop, task, within) = match lock(&self.slots).get_mut(id) {
            Some(slot) => {
                // The roots are watched only while the session runs.
                slot.roots_watch = None;
                (slot.stop.take(), slot.task.take(), slot.stop_within)
            }
            None => return,
        };
        if let Some(stop) = stop {
            let _ = stop.send(());
        }
        if let Some(mut task) = task
            && tokio::time::timeout(within, &mut task).await.is_err()
        {
            tracing::warn!("server {id} did not stop within {within:?}; abandoning it");
            task.abort();
        }
    }
}
