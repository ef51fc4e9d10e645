//! The error shape that crosses IPC: `{code, message}`, where `code` is the engine's typed
//! [`ErrorCode`] (generated into the UI's bindings) and `message` is fit to show a person.

use gatehouse_host::{ErrorCode, HostError};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct IpcError {
    pub code: ErrorCode,
    pub message: String,
}

impl From<HostError> for IpcError {
    fn from(error: HostError) -> Self {
        Self {
            code: error.code(),
            message: error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_error_crosses_ipc_with_its_typed_code() {
        let error = IpcError::from(HostError::DuplicateName("everything".into()));
        assert_eq!(error.code, ErrorCode::DuplicateName);
        assert_eq!(
            serde_json::to_value(&error).expect("an IpcError serialises"),
            serde_json::json!({
                "code": "duplicate_name",
                "message": "a server named `everything` already exists",
            })
        );
    }
}
