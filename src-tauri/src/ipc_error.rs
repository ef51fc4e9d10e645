//! The error shape that crosses IPC: `{code, message}`, with the engine's stable codes.

use gatehouse_host::HostError;
use serde::Serialize;

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct IpcError {
    pub code: String,
    pub message: String,
}

impl From<HostError> for IpcError {
    fn from(error: HostError) -> Self {
        Self {
            code: error.code().to_owned(),
            message: error.to_string(),
        }
    }
}
