//! What the engine's connections share: the host, the engine's description, the faces attached
//! and the stop signal.

use std::collections::BTreeMap;
use std::sync::Arc;

use tokio::sync::watch;

use super::lock::EngineInfo;
use super::protocol::FaceInfo;
use crate::host::Host;

/// What every connection shares.
#[derive(Debug)]
pub(crate) struct Shared {
    pub host: Arc<Host>,
    pub info: EngineInfo,
    pub faces: std::sync::Mutex<BTreeMap<u64, FaceInfo>>,
    pub stop: watch::Receiver<bool>,
}

impl Shared {
    pub fn stopping(&self) -> bool {
        *self.stop.borrow()
    }

    pub fn faces(&self) -> Vec<FaceInfo> {
        self.faces
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .cloned()
            .collect()
    }
}
