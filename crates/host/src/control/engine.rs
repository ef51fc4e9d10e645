//! The running engine's door: [`Engine::serve`] takes the held [`EngineLock`] and an opened
//! (and started) [`Host`] and serves the control socket until [`Engine::stop`] (or drop). Stopping
//! fails every attached request with `engine_stopping`, ends every connection, removes the
//! socket and `engine.json`, and releases the lock; the host's own shutdown (its servers) stays
//! with its owner, which calls it after. The engine also serves the gateway's HTTP endpoint while
//! the person has it on ([`HttpGateway`]), and stops it first.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::listener;
use super::lock::{EngineInfo, EngineLock};
use super::shared::Shared;
use crate::error::Result;
use crate::gateway::http::HttpGateway;
use crate::host::Host;

/// How long stopping waits for the connections to say goodbye before cutting them.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// The engine serving its control socket.
#[derive(Debug)]
pub struct Engine {
    lock: Option<EngineLock>,
    stop: watch::Sender<bool>,
    listener: Option<JoinHandle<()>>,
    http: Option<HttpGateway>,
    socket: PathBuf,
}

impl Engine {
    /// Binds the control socket in the data directory and serves it.
    pub async fn serve(lock: EngineLock, host: Arc<Host>) -> Result<Engine> {
        let info = lock.info().clone();
        let socket = info.socket.clone();
        let (stop, stopped) = watch::channel(false);
        let shared = Arc::new(Shared {
            host: host.clone(),
            info,
            faces: std::sync::Mutex::default(),
            stop: stopped,
        });
        let listener = listener::start(shared)?;
        Ok(Engine {
            lock: Some(lock),
            stop,
            listener: Some(listener),
            http: Some(HttpGateway::start(host)),
            socket,
        })
    }

    /// The engine's description (also in `engine.json`).
    pub fn info(&self) -> Option<&EngineInfo> {
        self.lock.as_ref().map(EngineLock::info)
    }

    /// Stops serving: attached requests fail with `engine_stopping`, connections end, the
    /// socket and `engine.json` are removed and the lock released.
    pub async fn stop(mut self) {
        if let Some(http) = self.http.take() {
            http.stop().await;
        }
        let _ = self.stop.send(true);
        if let Some(mut listener) = self.listener.take()
            && tokio::time::timeout(STOP_GRACE, &mut listener)
                .await
                .is_err()
        {
            tracing::warn!("the control socket's connections did not end in time; cut");
            listener.abort();
        }
        self.clean_up();
    }

    fn clean_up(&mut self) {
        // A named pipe (Windows) goes with its last handle; a Unix socket's file stays.
        #[cfg(unix)]
        let _ = std::fs::remove_file(&self.socket);
        self.lock.take();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(listener) = self.listener.take() {
            listener.abort();
        }
        self.clean_up();
    }
}
