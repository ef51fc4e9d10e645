//! The task that owns one server's connection: connects, lists the tools (if it offers any),
//! and then reacts to what happens (the connection ending, a list change pushed or delivered on
//! a subscription, a stale tool list, new roots, tasks to follow) until it is told to stop.
//! Listings the server calls for are paced ([`super::relist_pace`]).
//! While it is open the connection sits in the server's slot for the gate's tool calls; when it
//! ends they are told, and the connection is closed once they have let go of it.
//!
//! A stdio server that exits unexpectedly (during the handshake or later) is started again
//! with backoff, and left `Crashed` after a crash loop (see [`super::restarts`]). A server that
//! cannot be started at all (no such program, a missing secret), or that does not answer the
//! handshake, is `Failed`. An HTTP server that is lost (its connection closed, a network error
//! or a 5xx, when connecting or listing its tools) is `Reconnecting` and connected to again
//! with the same backoff, without end; a 401 is `AuthRequired` (nothing is tried until the
//! person acts); another 4xx or an answer it cannot use is `Failed`.
//!
//! An open connection is checked for health (see [`super::health`]): a server that stops
//! answering is shown `Degraded`, and after a few missed checks in a row its connection is
//! closed and it is restarted (stdio) or connected to again (HTTP) on the same backoff.
//!
//! Following the open connection is in [`super::serving`]; what the runner records in its slot
//! and announces is in [`super::publish`].
//!
//! The statuses it shows carry what to display: `Restarting` its `attempt`, the pause (`inMs`), the
//! `message` and the `lastStderr` lines; `Reconnecting` the same but the stderr lines; and
//! `AuthRequired` a `message`, left until the person reconnects or edits the server. An HTTP server
//! counts as lost also when its stream is cut or it misses three health checks. A program not
//! found, a missing secret or a handshake timeout is `Failed`, never restarted. A `Connected`
//! status carries the era and what the server offers (`Offer`); a server that declares no tools is
//! connected without `tools/list`. Calls on a connection that ended have at most 5 s
//! (`CALLS_LET_GO`) to let go of it.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{oneshot, watch};

use super::health::HealthChecks;
use super::restarts::{Next, Restarts};
use super::slots::{LiveClient, Slots};
use super::status::ServerStatus;
use crate::connections::connect::open_client_with;
use crate::connections::server_requests::Declared;
use crate::connections::server_requests::{HostHandler, ServerNotice, SharedRoots};
use crate::connections::watching::Watchers;
use crate::error::HostError;
use crate::oversight::gate::Gate;
use crate::oversight::gate::from_server::AuditedHandler;
use crate::running::notice_queue::{NoticeReceiver, NoticeSender};
use crate::store::registry::Registry;
use crate::store::registry::model::{ServerConfig, ServerSpec};
use crate::vocabulary::events::EventBus;
use gatehouse_mcp::McpError;

/// How long calls still running when the connection ends may hold it before it is dropped
/// unclosed (which kills a stdio server): they are told to give up, and a cancelled call
/// waits at most 2 s for its cancellation to go out.
const CALLS_LET_GO: Duration = Duration::from_secs(5);

/// How many of a crashed server's last stderr lines its status shows.
const CRASH_STDERR_LINES: usize = 20;

/// How one connection ended.
pub(super) enum Ended {
    /// The task was told to stop.
    Stopped,
    /// The server exited, or its connection closed under it.
    Exited {
        message: String,
        last_stderr: Vec<String>,
    },
    /// It stopped answering health checks; its connection was closed to start it again.
    Unresponsive {
        message: String,
        last_stderr: Vec<String>,
    },
    /// The HTTP server wants authorization (a 401): trying again without it would not help.
    AuthRequired(String),
    /// Something that starting it again would not mend.
    Failed(String),
}

/// The task that owns one server's connection.
pub(super) struct Runner {
    pub(super) id: String,
    pub(super) generation: u64,
    pub(super) slots: Slots,
    pub(super) events: EventBus,
    pub(super) registry: Registry,
    pub(super) gate: Gate,
    pub(super) health: tokio::sync::watch::Receiver<HealthChecks>,
    pub(super) relist_every: Duration,
    pub(super) render_apps: bool,
    /// Whoever watches the server's change notifications, across its restarts.
    pub(super) watchers: Watchers,
}

/// What a connection task receives: its roots, its notice channel and its stop signal.
pub(super) struct Channels {
    pub(super) roots: SharedRoots,
    pub(super) notices_tx: NoticeSender<ServerNotice>,
    pub(super) notices: NoticeReceiver<ServerNotice>,
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
        let host_handler: Arc<dyn gatehouse_mcp::peer::Handler> = Arc::new(
            HostHandler::new(config.name.clone(), roots, Some(notices_tx))
                .with_watchers(self.watchers.clone()),
        );
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
        let http = matches!(config.spec, ServerSpec::Http { .. });
        let mut restarts = Restarts::default();
        loop {
            let began = tokio::time::Instant::now();
            let (message, last_stderr) = match self
                .connection(&config, handler.clone(), &mut notices, &mut stop)
                .await
            {
                Ended::Stopped => return,
                Ended::Failed(message) => return self.set(ServerStatus::Failed { message }),
                Ended::AuthRequired(message) => {
                    tracing::info!("{} requires authorization: {message}", config.name);
                    return self.set(ServerStatus::AuthRequired { message });
                }
                Ended::Exited { message, .. } | Ended::Unresponsive { message, .. } if http => {
                    let (attempt, pause) =
                        restarts.lost(tokio::time::Instant::now().duration_since(began));
                    tracing::info!(
                        "{} was lost ({message}); connecting again in {pause:?}",
                        config.name
                    );
                    let status = ServerStatus::Reconnecting {
                        attempt,
                        in_ms: millis(pause),
                        message,
                    };
                    if !self.retry_after(status, pause, &mut stop).await {
                        return;
                    }
                    continue;
                }
                Ended::Exited {
                    message,
                    last_stderr,
                }
                | Ended::Unresponsive {
                    message,
                    last_stderr,
                } => (message, last_stderr),
            };
            let now = tokio::time::Instant::now();
            match restarts.exited(now.duration_since(began), now) {
                Next::GiveUp { exits } => {
                    tracing::warn!(
                        "{} exited {exits} times within a minute; leaving it stopped: {message}",
                        config.name
                    );
                    return self.set(ServerStatus::Crashed {
                        message,
                        exits,
                        last_stderr,
                    });
                }
                Next::Restart { attempt, pause } => {
                    tracing::info!(
                        "{} exited ({message}); starting it again in {pause:?}",
                        config.name
                    );
                    let status = ServerStatus::Restarting {
                        attempt,
                        in_ms: millis(pause),
                        message,
                        last_stderr,
                    };
                    if !self.retry_after(status, pause, &mut stop).await {
                        return;
                    }
                }
            }
        }
    }

    /// Shows `status` (reconnecting or restarting), waits out the pause before the next
    /// attempt, then shows the server connecting; false if told to stop meanwhile.
    async fn retry_after(
        &self,
        status: ServerStatus,
        pause: Duration,
        stop: &mut oneshot::Receiver<()>,
    ) -> bool {
        self.set(status);
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            _ = stop => return false,
        }
        self.set(ServerStatus::Connecting);
        true
    }

    /// Opens one connection and follows it until it ends.
    async fn connection(
        &self,
        config: &ServerConfig,
        handler: Arc<AuditedHandler>,
        notices: &mut NoticeReceiver<ServerNotice>,
        stop: &mut oneshot::Receiver<()>,
    ) -> Ended {
        let declared = Declared {
            attended: self.gate.approvals().attended(),
            apps: self.render_apps,
        };
        let client = tokio::select! {
            client = open_client_with(config, &self.registry, handler, declared) => client,
            _ = &mut *stop => return Ended::Stopped,
        };
        let client = match client {
            Ok(client) => Arc::new(client),
            // The server exited during the handshake; its last stderr line is in the message.
            Err(HostError::Connection(e @ McpError::Closed { .. })) => {
                return Ended::Exited {
                    message: e.to_string(),
                    last_stderr: Vec::new(),
                };
            }
            // 2025-11-25 basic/authorization, "Authorization Flow Steps": a 401 asks for
            // authorization, which no retry without it would get.
            Err(HostError::Connection(e)) if needs_authorization(&e) => {
                return Ended::AuthRequired(e.to_string());
            }
            // An HTTP server down, unreachable or failing for now (2025-11-25
            // basic/transports, Streamable HTTP): worth another try.
            Err(HostError::Connection(e)) if lost_for_now(&e) => {
                return Ended::Exited {
                    message: e.to_string(),
                    last_stderr: Vec::new(),
                };
            }
            Err(e) => return Ended::Failed(e.to_string()),
        };
        let (ended, ended_rx) = watch::channel(());
        self.set_live(Some(LiveClient {
            client: client.clone(),
            ended: ended_rx,
            watchers: self.watchers.clone(),
        }));
        let outcome = self.serve(&client, config, notices, stop).await;
        let outcome = match outcome {
            Ended::Exited { message, .. } => Ended::Exited {
                message,
                last_stderr: last_lines(client.diagnostics()),
            },
            Ended::Unresponsive { message, .. } => Ended::Unresponsive {
                message,
                last_stderr: last_lines(client.diagnostics()),
            },
            other => other,
        };
        self.set_live(None);
        drop(ended);
        close(client, &self.id).await;
        outcome
    }
}

/// Whether a failure to reach an HTTP server may pass: a network error, a response stream cut
/// short, or a 5xx status. A 4xx (the request itself is refused) will not.
pub(super) fn lost_for_now(e: &McpError) -> bool {
    use gatehouse_mcp::transport::TransportFailure;
    match e {
        McpError::RequestFailed { failure, .. } => match &**failure {
            TransportFailure::Unreachable { .. } | TransportFailure::StreamBroken { .. } => true,
            TransportFailure::Status { status, .. } | TransportFailure::Refused { status, .. } => {
                *status >= 500
            }
        },
        _ => false,
    }
}

/// Whether the server refused the request for want of authorization (HTTP 401).
fn needs_authorization(e: &McpError) -> bool {
    matches!(e, McpError::RequestFailed { failure, .. } if failure.http_status() == Some(401))
}

/// The last [`CRASH_STDERR_LINES`] of a server's stderr.
fn last_lines(mut lines: Vec<String>) -> Vec<String> {
    let extra = lines.len().saturating_sub(CRASH_STDERR_LINES);
    lines.drain(..extra);
    lines
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

/// A pause in whole milliseconds, as statuses show it.
fn millis(pause: Duration) -> u64 {
    u64::try_from(pause.as_millis()).unwrap_or(u64::MAX)
}
