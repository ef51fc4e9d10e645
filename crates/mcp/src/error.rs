//! The error type of the protocol client. Variants exist where a caller branches on them.

use std::time::Duration;

/// A JSON-RPC error object as sent by a server.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (code {})", self.message, self.code)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The server process could not be started.
    #[error("could not start `{command}`: {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
    /// The connection ended; pending and new requests fail with this.
    #[error("connection closed: {reason}")]
    Closed { reason: String },
    /// No response arrived in time. The request was cancelled on the server.
    #[error("`{method}` timed out after {timeout:?}")]
    Timeout { method: String, timeout: Duration },
    /// The server answered with a JSON-RPC error.
    #[error("server error for `{method}`: {error}")]
    Rpc {
        method: String,
        error: Box<RpcError>,
    },
    /// The server answered with a protocol version this client does not speak.
    #[error(
        "server answered with protocol version `{version}`, which this client does not support (supported: {supported})"
    )]
    UnsupportedVersion { version: String, supported: String },
    /// A response did not have the shape the spec requires.
    #[error("invalid response to `{method}`: {message}")]
    InvalidResponse { method: String, message: String },
    /// The server did not declare the capability a request needs, so the request was not sent
    /// (2025-11-25 basic/lifecycle: "Only use capabilities that were successfully negotiated").
    #[error(
        "the server does not support {feature}: it did not declare the `{capability}` capability"
    )]
    NotSupported { feature: String, capability: String },
    /// The transport failed: an HTTP error, an unreachable server, a broken stream.
    #[error("{message}")]
    Transport { message: String },
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

impl McpError {
    /// The HTTP status behind a failed request, when the transport reported one.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            McpError::Rpc { error, .. } if error.code == crate::jsonrpc::codes::TRANSPORT_ERROR => {
                error
                    .data
                    .as_ref()
                    .and_then(|d| d.get("httpStatus"))
                    .and_then(serde_json::Value::as_u64)
                    .and_then(|s| u16::try_from(s).ok())
            }
            _ => None,
        }
    }
}

pub type Result<T, E = McpError> = std::result::Result<T, E>;
