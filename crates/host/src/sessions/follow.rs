//! Follows changes that another process (the CLI) makes to the servers: a task that reads the
//! store's change counter (`store_changes`, moved on by triggers in the very transaction of
//! any change to a server, a policy rule or a trust setting, whichever process makes it) every
//! [`POLL`], and brings the live sessions in line with the registry when it moved
//! ([`Sessions::follow_registry`]). Reading it is one read of one row; a sync that finds
//! nothing to do (a rule changed, or a change this host made and applied itself) starts and
//! stops nothing.
//!
//! Started by `Host::start` in live mode and stopped by `Host::shutdown` (aborted on drop), it
//! polls every 500 ms, so an edit, a disable or a removal made by the CLI reaches the app's
//! sessions within about half a second. It reads the gateway's profile counter
//! (`gateway_profile_changes`) on the same tick and, when it moved, announces
//! [`EngineEvent::ClientProfilesChanged`] to the agents' sessions. While it runs, the registry
//! keeps the list of servers in memory (`store::registry::list_cache`), forgotten each time the
//! counter moves.

use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::live::Sessions;
use crate::store::registry::Registry;
use crate::vocabulary::events::EngineEvent;

/// How often the change counter is read (unless `HostOptions::store_poll` says otherwise).
pub const POLL: Duration = Duration::from_millis(500);

/// The running watcher; dropping it aborts it, [`StoreFollower::stop`] lets a sync under way
/// finish first.
#[derive(Debug)]
pub(crate) struct StoreFollower {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    /// Keeps the list of servers while the follower runs.
    registry: Registry,
}

impl StoreFollower {
    pub(super) fn start(sessions: Sessions, poll: Duration) -> Self {
        let (stop, stopped) = oneshot::channel();
        let registry = sessions.registry.clone();
        registry.keep_list(true);
        let task = tokio::spawn(follow(sessions, poll, stopped));
        StoreFollower {
            stop: Some(stop),
            task: Some(task),
            registry,
        }
    }

    /// Stops the watcher, after the sync it may be running.
    pub(crate) async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        self.registry.keep_list(false);
    }
}

impl Drop for StoreFollower {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
        self.registry.keep_list(false);
    }
}

async fn follow(sessions: Sessions, poll: Duration, mut stopped: oneshot::Receiver<()>) {
    let mut seen = None;
    let mut profiles_seen = None;
    let mut failing = false;
    loop {
        tokio::select! {
            () = tokio::time::sleep(poll) => {}
            _ = &mut stopped => return,
        }
        if let Ok(n) =
            sqlx::query_scalar::<_, i64>("SELECT n FROM gateway_profile_changes WHERE id = 1")
                .fetch_one(sessions.registry.pool())
                .await
            && profiles_seen.replace(n).is_some_and(|seen| seen != n)
        {
            sessions.events.publish(EngineEvent::ClientProfilesChanged);
        }
        let changes: i64 = match sqlx::query_scalar("SELECT n FROM store_changes WHERE id = 1")
            .fetch_one(sessions.registry.pool())
            .await
        {
            Ok(n) => {
                failing = false;
                n
            }
            Err(e) => {
                // Logged once per run of failures, not every tick.
                if !std::mem::replace(&mut failing, true) {
                    tracing::warn!("cannot read the store's change counter: {e}");
                }
                continue;
            }
        };
        if seen.replace(changes).is_some_and(|seen| seen == changes) {
            continue;
        }
        // The servers may have changed (here or in another process): read them afresh.
        sessions.registry.forget_cached();
        if let Err(e) = sessions.follow_registry().await {
            tracing::warn!("cannot bring the live sessions in line with the registry: {e}");
            // Tried again on the next tick.
            seen = None;
        }
    }
}

impl Sessions {
    /// Starts a watcher that calls [`Sessions::follow_registry`] whenever the store's change
    /// counter moves; it stops when the returned value is stopped or dropped.
    pub(crate) fn follow_store(&self, poll: Duration) -> StoreFollower {
        StoreFollower::start(self.clone(), poll)
    }
}
