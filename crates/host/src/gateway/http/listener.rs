//! The endpoint on one port: binds `127.0.0.1:PORT` (loopback only), serves `/mcp` and
//! `/mcp/c/TOKEN` ([`super::requests`]) and ends idle sessions, until stopped. Stopping answers
//! the sessions' running requests with an error saying Gatehouse is stopping, then closes the
//! connections, cutting them after a grace.

use std::net::Ipv4Addr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::auth::Tokens;
use super::requests::{self, Endpoint};
use super::sessions::{MAX_MESSAGE_BYTES, Sessions};
use crate::error::{HostError, Result};
use crate::host::Host;

/// How long stopping waits for sessions, then connections, to end.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// The endpoint, serving.
#[derive(Debug)]
pub struct Listener {
    endpoint: Arc<Endpoint>,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl Listener {
    /// Binds the port and serves it.
    pub async fn start(host: Arc<Host>, port: u16) -> Result<Listener> {
        let tcp = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .await
            .map_err(|source| HostError::Io {
                context: format!("cannot listen on 127.0.0.1:{port} for the gateway"),
                source,
            })?;
        let endpoint = Arc::new(Endpoint {
            port,
            tokens: Tokens::load(host.clone()).await,
            sessions: Arc::new(Sessions::new(host)),
        });
        let routes = get(requests::get)
            .post(requests::post)
            .delete(requests::delete);
        let app = Router::new()
            .route("/mcp", routes.clone())
            .route("/mcp/c/{token}", routes)
            .layer(DefaultBodyLimit::max(MAX_MESSAGE_BYTES))
            .with_state(endpoint.clone());
        let (stop, stopped) = watch::channel(false);
        // Each answer goes out at once: a call answered on an SSE stream writes its priming
        // event, then its result, and with Nagle's algorithm the second small write would wait
        // for the client's delayed acknowledgement of the first (tens of milliseconds a call).
        let tcp = tcp.tap_io(|stream| {
            if let Err(e) = stream.set_nodelay(true) {
                tracing::debug!("cannot set TCP_NODELAY on a gateway connection: {e}");
            }
        });
        let serving = {
            let mut stopped = stopped.clone();
            axum::serve(tcp, app).with_graceful_shutdown(async move {
                let _ = stopped.wait_for(|s| *s).await;
            })
        };
        let sweeping = {
            let endpoint = endpoint.clone();
            let mut stopped = stopped;
            async move {
                let every = endpoint.sessions.sweep_every();
                loop {
                    let stop = tokio::select! {
                        _ = stopped.wait_for(|s| *s) => true,
                        () = tokio::time::sleep(every) => false,
                    };
                    if stop {
                        break;
                    }
                    endpoint.sessions.sweep().await;
                }
            }
        };
        let task = tokio::spawn(async move {
            let (served, ()) = tokio::join!(serving, sweeping);
            if let Err(e) = served {
                tracing::warn!("the gateway's HTTP endpoint stopped: {e}");
            }
        });
        tracing::info!("the gateway serves http://127.0.0.1:{port}/mcp");
        Ok(Listener {
            endpoint,
            stop,
            task: Some(task),
        })
    }

    /// Stops serving.
    pub async fn stop(mut self) {
        self.endpoint.sessions.end_all(STOP_GRACE).await;
        let _ = self.stop.send(true);
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(STOP_GRACE, &mut task).await.is_err()
        {
            task.abort();
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}
