//! How a request ends when it gets no result: the server's JSON-RPC error (with the HTTP status
//! it came with), a failure the transport reported out of band, an answer that carried the
//! request's id but was no valid response, or a long-lived request that ended without one.
//! Keeping these apart is what lets the peer re-issue a request only when the transport says
//! its stream broke, and the client fall back to HTTP+SSE only on a real HTTP status: a
//! server's own `-32000` error, whatever its `data` says, stays the server's error.

use crate::error::{McpError, RpcError};
use crate::transport::TransportFailure;

/// Why a request got no result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Failure {
    /// The server's JSON-RPC error, and the HTTP error status it came with, if any.
    #[error("{error}")]
    Server {
        error: RpcError,
        http_status: Option<u16>,
    },
    /// The transport could not deliver the request or its answer.
    #[error("{0}")]
    Transport(TransportFailure),
    /// The answer carried the request's id but was no valid response; `start` quotes it.
    #[error("malformed response ({problem}): {start}")]
    Malformed { problem: String, start: String },
    /// A long-lived request ended without its closing result.
    #[error("{0}")]
    Ended(String),
}

impl From<TransportFailure> for Failure {
    fn from(failure: TransportFailure) -> Self {
        match failure {
            // The server did answer, with an error; the status is kept beside it.
            TransportFailure::Refused { status, error } => Failure::Server {
                error,
                http_status: Some(status),
            },
            other => Failure::Transport(other),
        }
    }
}

impl Failure {
    /// The error a caller of `method` sees.
    pub fn into_error(self, method: &str) -> McpError {
        match self {
            Failure::Server { error, http_status } => {
                let mut error = McpError::from_rpc(method, error);
                if let McpError::Rpc {
                    http_status: slot, ..
                } = &mut error
                {
                    *slot = http_status;
                }
                error
            }
            Failure::Transport(failure) => McpError::RequestFailed {
                method: method.to_owned(),
                failure: Box::new(failure),
            },
            Failure::Malformed { problem, start } => McpError::MalformedResponse {
                method: method.to_owned(),
                problem,
                start,
            },
            Failure::Ended(message) => McpError::Transport { message },
        }
    }
}
