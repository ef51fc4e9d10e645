//! The engine's façade: one [`Host`] opens the store and offers the operations the desktop app
//! and the CLI share. In live mode (the app) it also keeps a connection to every enabled server.
//!
//! `Host::open` first runs the start-up sweep of the server process groups a host that is gone left
//! behind (`running::process_groups::sweep`; what it found is `Host::swept`). In live mode
//! `Host::start` starts the connection trail and the store follower, and `Host::shutdown` stops
//! them; `start_server`, `stop_server` and `restart_server` act on a live session.
//!
//! `Host::call_tool` runs a call on a live session's connection, which its slot holds as an
//! `Arc<Client>` while it is open and which never leaves the crate. A server without an open
//! connection is `HostError::NotConnected` (`not_connected`), and so is a call whose connection
//! ends under it: the session's end is signalled to its calls, and the runner closes the connection
//! once they let go of it, at most 5 s later.

mod agents_paused;
mod app_requests;
mod app_sites;
mod attached;
mod audit_log;
pub mod demo_server;
mod resource_subscriptions;
mod rules;
mod server_icon;
mod servers;
pub mod settings;
mod sign_in;
mod watching;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use gatehouse_mcp::CallOptions;
use tokio::sync::broadcast;

use crate::connections::connection::ServerConnection;
use crate::error::{HostError, Result};
use crate::oversight::approvals::{Answer, Approvals, PendingApproval};
use crate::oversight::audit::AuditLog;
use crate::oversight::gate::{CallOutcome, Gate, Target, ToolCall};
use crate::running::launch::Launcher;
use crate::running::process_groups::{self, GroupLog, SweepReport};
use crate::sessions::Sessions;
use crate::sessions::health::HealthChecks;
use crate::sessions::status::{ServerStatus, ToolInfo};
use crate::store::paths;
use crate::store::registry::Registry;
use crate::store::registry::model::ServerConfig;
use crate::store::registry::task_log::TaskRecord;
use crate::store::secrets::{KeyringStore, SecretStore};
use crate::store::storage::Store;
use crate::vocabulary::events::{EngineEvent, EventBus};

/// How to open the engine.
#[derive(Debug, Clone, Default)]
pub struct HostOptions {
    /// The data directory; `None` resolves it from the environment or the OS.
    pub data_dir: Option<PathBuf>,
    /// Keep live connections to enabled servers (the app); the CLI connects on demand instead.
    pub live_sessions: bool,
    /// Where secret values are kept; `None` uses the OS keyring ([`KeyringStore`]).
    pub secrets: Option<Arc<dyn SecretStore>>,
    /// How long a request waits for a person's answer; `None` reads
    /// `GATEHOUSE_APPROVAL_TIMEOUT` (seconds), else 5 minutes.
    pub approval_timeout: Option<std::time::Duration>,
    /// The shell whose login environment stdio servers get (the app, which a desktop launcher
    /// starts without the terminal's `PATH`: [`crate::running::login_env::user_shell`]); `None` gives
    /// them this process's environment (the CLI, started from a shell).
    pub login_shell: Option<PathBuf>,
    /// How live sessions are checked for health; `None` is every 30 s, answered within 10 s,
    /// restarted after 3 missed checks in a row ([`HealthChecks::default`]).
    pub health_checks: Option<HealthChecks>,
    /// The least time between two listings of a live server's tools, however often it says
    /// they changed; `None` is [`crate::sessions::relist_pace::RELIST_EVERY`] (1 s).
    pub relist_every: Option<std::time::Duration>,
    /// How often a live engine reads the store's change counter to follow what another process
    /// changed; `None` is 500 ms.
    pub store_poll: Option<std::time::Duration>,
    /// When a live engine applies the audit retention (daily) and what time it is then.
    pub settings_clock: Option<crate::settings::follow::SettingsClock>,
    /// The face renders MCP Apps views (the app): live sessions declare the UI extension to
    /// their servers, and [`Host::app_view`] and the other `app_*` calls serve the views.
    pub render_apps: bool,
}

/// The engine.
#[derive(Debug)]
pub struct Host {
    data_dir: PathBuf,
    store: Store,
    registry: Registry,
    audit: AuditLog,
    sessions: Sessions,
    events: EventBus,
    gate: Gate,
    live: bool,
    swept: SweepReport,
    /// In live mode, once started: the watcher that follows changes other processes make.
    follower: std::sync::Mutex<Option<crate::sessions::StoreFollower>>,
    /// How often the follower reads the store's change counter.
    store_poll: std::time::Duration,
    /// In live mode, once started: every change of a server's connection state, on record.
    trail: std::sync::Mutex<Option<crate::connections::connection_trail::ConnectionTrail>>,
    /// Each gateway client's requests in flight and per minute, across its sessions.
    gateway_limits: crate::oversight::client_limits::Limiter,
    /// The gateway clients attached now.
    gateway_presence: Arc<crate::oversight::client_presence::Presence>,
    /// The tasks (of the tasks extension) handed to the gateway's 2026-07-28 clients.
    gateway_tasks: crate::oversight::client_tasks::TaskHandles,
    /// Their input requests on their way through the gate.
    gateway_task_inputs: crate::oversight::task_input_slots::TaskInputSlots,
    /// What the gateway's HTTP endpoint does in this process (set by the engine's follower).
    http_serving: std::sync::Mutex<crate::vocabulary::http_serving::HttpServing>,
    /// In live mode, once started: the stored settings followed, the audit retention applied.
    settings_follow: crate::settings::follow::SettingsFollow,
    /// The servers' icons, checked and cached (`host/server_icon.rs`).
    icons: crate::icons::ServerIcons,
}

impl Host {
    /// Opens the data directory and its database, migrating it if needed.
    pub async fn open(options: HostOptions) -> Result<Host> {
        let data_dir = paths::data_dir(options.data_dir.as_deref())?;
        let store = Store::open(&data_dir).await?;
        let secrets = options.secrets.unwrap_or_else(|| Arc::new(KeyringStore));
        // Before anything starts: stop what a host that died left running.
        let swept = match process_groups::sweep(store.pool()).await {
            Ok(report) => report,
            Err(e) => {
                tracing::warn!("cannot check for servers left by a host that is gone: {e}");
                SweepReport::default()
            }
        };
        let launcher = Arc::new(Launcher::new(
            options.login_shell,
            Some(GroupLog::start(store.pool().clone())),
        ));
        let logs = crate::running::server_logs::ServerLogs::new(&data_dir);
        let audit = AuditLog::new(store.pool().clone()).with_keyring(secrets.clone());
        let registry = Registry::new(store.pool().clone(), secrets, logs, launcher);
        let events = EventBus::default();
        // The stored settings, unless the caller or the environment chose otherwise.
        let stored = crate::store::engine_settings::read(store.pool()).await?;
        let timeout = crate::settings::opening_timeout(options.approval_timeout, &stored)?;
        let approvals = Approvals::new(events.clone(), timeout);
        let gate = Gate::new(registry.clone(), audit.clone(), approvals);
        if let Err(e) = gate.grants().clear_gone().await {
            tracing::warn!("cannot clear the grants of processes that are gone: {e}");
        }
        let sessions = Sessions::new(
            events.clone(),
            registry.clone(),
            gate.clone(),
            crate::settings::opening_health(options.health_checks, &stored),
            options
                .relist_every
                .unwrap_or(crate::sessions::relist_pace::RELIST_EVERY),
            options.render_apps,
        );
        Ok(Host {
            data_dir,
            store,
            registry,
            audit,
            sessions,
            events,
            gate,
            live: options.live_sessions,
            swept,
            follower: std::sync::Mutex::default(),
            store_poll: options.store_poll.unwrap_or(crate::sessions::follow::POLL),
            trail: std::sync::Mutex::default(),
            gateway_limits: crate::oversight::client_limits::Limiter::default(),
            gateway_presence: Arc::default(),
            gateway_tasks: Default::default(),
            gateway_task_inputs: Default::default(),
            http_serving: std::sync::Mutex::default(),
            settings_follow: crate::settings::follow::SettingsFollow::new(options.settings_clock),
            icons: crate::icons::ServerIcons::new(),
        })
    }

    /// What the start-up sweep found: server groups left running by a host that is gone
    /// (killed), and rows of groups that had ended.
    pub fn swept(&self) -> &SweepReport {
        &self.swept
    }

    /// The policy's rules, trust settings and tool definition history.
    pub fn policy(&self) -> crate::oversight::policy::PolicyStore {
        crate::oversight::policy::PolicyStore::new(self.store.pool().clone())
    }

    /// The path every request to a server takes.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// Says whether a person answers approvals here (the app's window, a terminal). While
    /// nobody does, requests that need an answer are refused at once, and the host does not
    /// declare sampling or elicitation to the servers it connects to.
    pub fn set_attended(&self, attended: bool) {
        self.gate.approvals().set_attended(attended);
    }

    /// The approval queue, to follow and answer as requests come (clones share it).
    pub fn approvals(&self) -> Approvals {
        self.gate.approvals().clone()
    }

    /// The requests waiting for a person, oldest first.
    pub fn pending_approvals(&self) -> Vec<PendingApproval> {
        self.gate.approvals().pending()
    }

    /// Answers a waiting request (see [`Approvals::answer`]).
    pub fn answer_approval(&self, id: &str, answer: Answer) -> Result<()> {
        self.gate.approvals().answer(id, answer)
    }

    /// Opens a connection to the enabled server named (or with the id) `server`, whose
    /// requests the handler `answers` makes for its configuration answers.
    pub async fn connect(
        &self,
        server: &str,
        answers: impl FnOnce(&ServerConfig) -> Arc<dyn gatehouse_mcp::peer::Handler>,
    ) -> Result<ServerConnection> {
        ServerConnection::open(&self.registry, self.gate.clone(), server, answers).await
    }

    /// Whether this host keeps live connections (the app) rather than connecting on demand.
    pub(crate) fn is_live(&self) -> bool {
        self.live
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Each server's stderr, redacted: the last lines, new lines as they come, and the files
    /// `gatehouse logs` reads.
    pub fn logs(&self) -> &crate::running::server_logs::ServerLogs {
        self.registry.logs()
    }

    /// Each server's JSON-RPC messages, redacted, for the window's Traffic tab.
    pub fn traffic(&self) -> &crate::running::traffic::Traffic {
        self.registry.traffic()
    }

    /// Each gateway client's requests in flight and per minute.
    pub(crate) fn gateway_limits(&self) -> &crate::oversight::client_limits::Limiter {
        &self.gateway_limits
    }

    /// The tasks handed to the gateway's 2026-07-28 clients.
    pub(crate) fn gateway_tasks(&self) -> &crate::oversight::client_tasks::TaskHandles {
        &self.gateway_tasks
    }

    /// The input requests of those tasks on their way through the gate.
    pub(crate) fn gateway_task_inputs(
        &self,
    ) -> &crate::oversight::task_input_slots::TaskInputSlots {
        &self.gateway_task_inputs
    }

    /// The gateway clients attached to this engine now.
    pub fn gateway_presence(&self) -> &Arc<crate::oversight::client_presence::Presence> {
        &self.gateway_presence
    }

    /// What the gateway's HTTP endpoint does in this process.
    pub fn http_serving(&self) -> crate::vocabulary::http_serving::HttpServing {
        self.http_serving
            .lock()
            .map(|serving| serving.clone())
            .unwrap_or_default()
    }

    /// Records what the gateway's HTTP endpoint does now (the engine's follower alone calls it).
    pub(crate) fn set_http_serving(&self, now: crate::vocabulary::http_serving::HttpServing) {
        if let Ok(mut serving) = self.http_serving.lock() {
            *serving = now;
        }
    }

    /// The audit log, on the same database.
    pub fn audit(&self) -> &AuditLog {
        &self.audit
    }

    /// Engine events, such as status changes.
    pub fn subscribe(&self) -> broadcast::Receiver<EngineEvent> {
        self.events.subscribe()
    }

    /// In live mode, connects every enabled server, and from then on follows the changes
    /// other processes (the CLI) make to the servers: an edited server is restarted, a
    /// disabled or removed one stopped, within about half a second (the store is checked
    /// every 500 ms). Every change of a server's connection state from
    /// then on is recorded in the audit log ([`crate::connections::connection_trail`]).
    pub async fn start(&self) -> Result<()> {
        if self.live {
            {
                let mut trail = self
                    .trail
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if trail.is_none() {
                    *trail = Some(
                        crate::connections::connection_trail::ConnectionTrail::start(
                            &self.events,
                            self.registry.clone(),
                            self.audit.clone(),
                        ),
                    );
                }
            }
            self.sessions.follow_registry().await?;
            let mut follower = self
                .follower
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if follower.is_none() {
                *follower = Some(self.sessions.follow_store(self.store_poll));
            }
            self.settings_follow.start(crate::settings::follow::Parts {
                pool: self.store.pool().clone(),
                audit: self.audit.clone(),
                approvals: self.gate.approvals().clone(),
                sessions: self.sessions.clone(),
                poll: self.store_poll,
            });
        }
        Ok(())
    }

    /// In live mode, brings the live sessions in line with the registry now, as the watcher
    /// started by [`Host::start`] does when another process changes a server: starts new or
    /// edited enabled servers, stops disabled and removed ones. Overlapping calls run one after
    /// the other, so a change is applied once.
    pub async fn follow_changes(&self) -> Result<()> {
        if self.live {
            self.sessions.follow_registry().await?;
        }
        Ok(())
    }

    /// The tools of a connected server, from its live session.
    pub async fn tools(&self, id_or_name: &str) -> Result<Vec<ToolInfo>> {
        let view = self.server(id_or_name).await?;
        match (&view.status, self.sessions.tools(&view.config.id)) {
            (ServerStatus::Connected { .. } | ServerStatus::Degraded { .. }, Some(tools)) => {
                Ok(tools)
            }
            (ServerStatus::Failed { message }, _) => Err(HostError::Unsupported(format!(
                "`{}` is not connected: {message}",
                view.config.name
            ))),
            (ServerStatus::Disabled, _) => Err(HostError::Validation(format!(
                "`{}` is disabled; enable it to see its tools",
                view.config.name
            ))),
            (ServerStatus::Stopped, _) => Err(HostError::NotConnected(format!(
                "`{}` is stopped; start it to see its tools",
                view.config.name
            ))),
            (ServerStatus::Crashed { message, .. }, _) => Err(HostError::NotConnected(format!(
                "`{}` crashed repeatedly and was left stopped: {message}",
                view.config.name
            ))),
            (ServerStatus::Restarting { message, .. }, _) => Err(HostError::NotConnected(format!(
                "`{}` is restarting: {message}",
                view.config.name
            ))),
            (ServerStatus::Reconnecting { message, .. }, _) => Err(HostError::NotConnected(
                format!("`{}` is reconnecting: {message}", view.config.name),
            )),
            (ServerStatus::AuthRequired { message }, _) => Err(HostError::NotConnected(format!(
                "`{}` requires authorization ({message}); sign in (the app's Sign in, or \
                 `gatehouse auth login`), or add its credentials as a secret header",
                view.config.name
            ))),
            _ => Err(HostError::Unsupported(format!(
                "`{}` is still connecting",
                view.config.name
            ))),
        }
    }

    /// Calls a tool on the live session of the server with this id (or name), through the
    /// gate (see [`Gate::call_tool`]). A server without an open connection is
    /// [`HostError::NotConnected`]; a connection that ends during the call ends the call too,
    /// with the same error.
    pub async fn call_tool(
        &self,
        server_id: &str,
        call: ToolCall,
        options: CallOptions,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallOutcome> {
        let config = self.registry.get_kept(server_id).await?;
        self.call_tool_on(&config, call, options, cancel).await
    }

    /// [`Host::call_tool`] on a server whose configuration the caller has just read (the engine
    /// reads it once for an attached call and names the server in its reply from it).
    pub async fn call_tool_on(
        &self,
        config: &ServerConfig,
        call: ToolCall,
        options: CallOptions,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallOutcome> {
        let not_connected = |why: &str| HostError::NotConnected(format!("`{}` {why}", config.name));
        // Waited for while it connects (see `host::attached`).
        let live = self.live_session(config).await?;
        let mut ended = live.ended.clone();
        let connection_ended = AtomicBool::new(false);
        let give_up = async {
            tokio::select! {
                () = cancel => {}
                _ = ended.changed() => connection_ended.store(true, Ordering::Relaxed),
            }
        };
        let target = Target {
            server: &config.name,
            server_id: &config.id,
            client: &live.client,
        };
        let outcome = self.gate.call_tool(target, call, options, give_up).await;
        match outcome {
            Ok(CallOutcome::Cancelled) if connection_ended.load(Ordering::Relaxed) => {
                Err(not_connected("disconnected during the call"))
            }
            // The server died under the call: say which server and how it ended.
            Err(HostError::Connection(gatehouse_mcp::McpError::Closed { reason })) => {
                Err(not_connected(&format!("stopped during the call: {reason}")))
            }
            other => other,
        }
    }

    /// The server's logged tasks, newest first (whichever process started them).
    pub async fn tasks(&self, id_or_name: &str) -> Result<Vec<TaskRecord>> {
        let config = self.registry.get(id_or_name).await?;
        self.registry.tasks(&config.id).await
    }

    /// Stops every server and closes the database.
    pub async fn shutdown(&self) {
        self.settings_follow.stop();
        let follower = self
            .follower
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(follower) = follower {
            follower.stop().await;
        }
        // The follow-ups of the tasks handed to agents stop; the end of each task not on record
        // yet is recorded (`engine_stopped`).
        crate::oversight::task_ends::stop_all(&self.gateway_tasks, &self.audit).await;
        // A task's input requests still on their way through the gate hold the engine: ended.
        self.gateway_task_inputs.close_all();
        self.sessions.shutdown().await;
        let trail = self
            .trail
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(trail) = trail {
            trail.finish().await;
        }
        self.registry.launcher().flush().await;
        if let Err(e) = self.gate.grants().end_session().await {
            tracing::warn!("cannot end this session's grants: {e}");
        }
        if let Err(e) = self.audit.flush_checkpoint().await {
            tracing::warn!("cannot write the audit log's head checkpoint: {e}");
        }
        self.store.close().await;
    }
}
