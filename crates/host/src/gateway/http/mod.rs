//! The gateway's Streamable HTTP endpoint, `http://127.0.0.1:PORT/mcp` (2025-11-25
//! basic/transports): [`HttpGateway`] follows the person's setting ([`settings`]) and starts or
//! stops the [`listener`] on its port; [`auth`] admits loopback requests with a client's token,
//! [`requests`] serves POST, GET and DELETE (answering as [`answers`] says), [`sessions`] runs
//! one gateway session per `Mcp-Session-Id`, [`streams`] holds each session's resumable SSE
//! streams (GET and POST); [`stateless`] serves the 2026-07-28 requests, which name no session.

mod answers;
mod auth;
mod listener;
mod param_check;
mod requests;
mod sessions;
pub mod settings;
mod stateless;
mod streams;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::host::Host;
use listener::Listener;
use settings::HttpServing;

/// How often the setting is read.
const FOLLOW_EVERY: Duration = Duration::from_millis(500);
/// How long after a port could not be bound it is tried again.
const RETRY_BIND: Duration = Duration::from_secs(5);

/// Serves the endpoint while the setting says so, until stopped (or dropped).
#[derive(Debug)]
pub struct HttpGateway {
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl HttpGateway {
    /// Follows the setting, serving the endpoint when it is on.
    pub fn start(host: Arc<Host>) -> HttpGateway {
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(follow(host, stopped));
        HttpGateway {
            stop,
            task: Some(task),
        }
    }

    /// Stops the endpoint, answering running requests with an error saying so.
    pub async fn stop(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for HttpGateway {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

async fn follow(host: Arc<Host>, mut stopped: watch::Receiver<bool>) {
    let mut serving: Option<(u16, Listener)> = None;
    let mut failed: Option<(u16, tokio::time::Instant)> = None;
    loop {
        let wanted = match host.gateway_http().await {
            Ok(settings) => settings.enabled.then_some(settings.port),
            Err(e) => {
                tracing::warn!("cannot read the gateway's HTTP setting: {e}");
                serving.as_ref().map(|(port, _)| *port)
            }
        };
        if serving.as_ref().map(|(port, _)| *port) != wanted {
            if let Some((_, listener)) = serving.take() {
                listener.stop().await;
            }
            let retry =
                failed.is_none_or(|(port, at)| Some(port) != wanted || at.elapsed() >= RETRY_BIND);
            if let Some(port) = wanted
                && retry
            {
                match Listener::start(host.clone(), port).await {
                    Ok(listener) => {
                        failed = None;
                        serving = Some((port, listener));
                        host.set_http_serving(HttpServing::Listening { port });
                    }
                    Err(e) => {
                        tracing::warn!("{e}");
                        failed = Some((port, tokio::time::Instant::now()));
                        host.set_http_serving(HttpServing::Failed {
                            port,
                            error: e.to_string(),
                        });
                    }
                }
            }
        }
        if wanted.is_none() {
            failed = None;
            host.set_http_serving(HttpServing::Off);
        }
        tokio::select! {
            _ = stopped.wait_for(|s| *s) => break,
            () = tokio::time::sleep(FOLLOW_EVERY) => {}
        }
    }
    if let Some((_, listener)) = serving {
        listener.stop().await;
    }
    host.set_http_serving(HttpServing::Off);
}
