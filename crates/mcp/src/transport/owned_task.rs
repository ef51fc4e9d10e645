//! A spawned task owned by whoever holds its handle: dropping the handle aborts the task, so a
//! transport dropped without `close()` (or a connect abandoned half-way) stops what it started.
//! Every transport holds its tasks so, and a `Client` dropped without `close()` stops them all.

use tokio::task::JoinHandle;

/// A task that is aborted when this handle is dropped.
#[derive(Debug)]
pub struct OwnedTask(Option<JoinHandle<()>>);

impl OwnedTask {
    /// Spawns `future` on the current runtime, owned by the returned handle.
    pub fn spawn(future: impl std::future::Future<Output = ()> + Send + 'static) -> Self {
        Self(Some(tokio::spawn(future)))
    }

    /// Stops the task now.
    pub fn abort(&self) {
        if let Some(task) = &self.0 {
            task.abort();
        }
    }

    /// Waits until the task ends on its own (dropped while waiting, the handle still aborts it).
    pub async fn wait(&mut self) {
        if let Some(task) = &mut self.0 {
            let _ = task.await;
            self.0 = None;
        }
    }

    /// Stops the task and waits until it is gone.
    pub async fn stop(mut self) {
        if let Some(task) = self.0.take() {
            task.abort();
            let _ = task.await;
        }
    }
}

impl Drop for OwnedTask {
    fn drop(&mut self) {
        self.abort();
    }
}
