//! The error types of the protocol client: [`McpError`] (variants exist where a caller branches
//! on them), the server's JSON-RPC [`RpcError`] and the transport's [`TransportFailure`].

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
    /// The program of a stdio server is not in any directory of the `PATH` it gets; `searched`
    /// lists them, in order.
    #[error("`{command}` was not found; looked in {}", describe_dirs(.searched))]
    CommandNotFound {
        command: String,
        searched: Vec<String>,
    },
    /// The connection ended; pending and new requests fail with this.
    #[error("connection closed: {reason}")]
    Closed { reason: String },
    /// No response arrived in time. The request was cancelled on the server.
    #[error("`{method}` timed out after {timeout:?}")]
    Timeout { method: String, timeout: Duration },
    /// The server answered with a JSON-RPC error; `http_status` is the HTTP error status it
    /// came with, if any (a 4xx that a JSON-RPC error explains).
    #[error("server error for `{method}`: {error}")]
    Rpc {
        method: String,
        error: Box<RpcError>,
        http_status: Option<u16>,
    },
    /// The transport could not deliver the request or its answer: an HTTP error, an
    /// unreachable server, a response stream that broke before the answer.
    #[error("`{method}` failed: {failure}")]
    RequestFailed {
        method: String,
        failure: Box<TransportFailure>,
    },
    /// The server answered with a message that carries the request's id but is no valid
    /// response (an error whose code is not a number, neither result nor error, a line cut
    /// short). `start` quotes the beginning of it.
    #[error("malformed response to `{method}` ({problem}): {start}")]
    MalformedResponse {
        method: String,
        problem: String,
        start: String,
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
    /// The server needs the user to complete URL-mode elicitations (`-32042`) before the request
    /// can succeed (2025-11-25 client/elicitation, "URL Elicitation Required Error").
    #[error("`{method}` needs you to complete a step in your browser first: {}", describe_urls(.elicitations))]
    UrlElicitationRequired {
        method: String,
        elicitations: Vec<UrlElicitation>,
    },
    /// The resource does not exist: `-32602` in the 2026-07-28 era, `-32002` before it
    /// (2026-07-28 server/resources, "Error Handling").
    #[error("resource not found: {uri} ({message})")]
    ResourceNotFound { uri: String, message: String },
    /// A tool call that ran as a task (tasks extension) was cancelled before it finished.
    #[error("task {task_id} was cancelled{}", if .message.is_empty() { String::new() } else { format!(": {}", .message) })]
    TaskCancelled { task_id: String, message: String },
    /// The call's arguments cannot be sent as the tool's definition requires, so it was not
    /// sent (an integer mirrored into an `Mcp-Param-*` header outside the safe range).
    #[error("cannot call `{tool}`: {message}")]
    InvalidArguments { tool: String, message: String },
    /// The transport failed: an HTTP error, an unreachable server, a broken stream.
    #[error("{message}")]
    Transport { message: String },
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

/// One URL-mode elicitation the server asks the user to complete.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UrlElicitation {
    #[serde(default)]
    pub elicitation_id: String,
    pub url: String,
    #[serde(default)]
    pub message: String,
}

fn describe_dirs(dirs: &[String]) -> String {
    if dirs.is_empty() {
        "no directory (the PATH is empty); give the program's full path".to_owned()
    } else {
        format!(
            "{} (add its directory to the server's PATH, or give its full path)",
            dirs.join(", ")
        )
    }
}

fn describe_urls(elicitations: &[UrlElicitation]) -> String {
    elicitations
        .iter()
        .map(|e| {
            if e.message.is_empty() {
                e.url.clone()
            } else {
                format!("{} ({})", e.url, e.message)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The code of a URL elicitation required error.
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// `HeaderMismatch` (2026-07-28 transports/streamable-http, "Server Validation"): the mirrored
/// headers do not match the body.
pub const HEADER_MISMATCH: i64 = -32020;

impl McpError {
    /// The error for a JSON-RPC error answer to `method`.
    pub fn from_rpc(method: &str, error: RpcError) -> McpError {
        if error.code == URL_ELICITATION_REQUIRED {
            let elicitations = error
                .data
                .as_ref()
                .and_then(|d| d.get("elicitations"))
                .and_then(|e| serde_json::from_value::<Vec<UrlElicitation>>(e.clone()).ok())
                .unwrap_or_default();
            if !elicitations.is_empty() {
                return McpError::UrlElicitationRequired {
                    method: method.to_owned(),
                    elicitations,
                };
            }
        }
        McpError::Rpc {
            method: method.to_owned(),
            error: Box::new(error),
            http_status: None,
        }
    }

    /// Whether the server refused the request's mirrored headers (`HeaderMismatch`).
    pub fn is_header_mismatch(&self) -> bool {
        matches!(self, McpError::Rpc { error, .. } if error.code == HEADER_MISMATCH)
    }

    /// Whether the request's response stream broke before the answer (the request may or may
    /// not have been carried out). Only the transport says so; no server error can.
    pub fn is_broken_stream(&self) -> bool {
        matches!(
            self,
            McpError::RequestFailed { failure, .. }
                if matches!(**failure, TransportFailure::StreamBroken { .. })
        )
    }

    /// The HTTP error status behind a failed request, as the transport saw it (for transport
    /// failures, and for JSON-RPC errors that came with a 4xx). Never read from an error's
    /// `data`, which is the server's to fill.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            McpError::Rpc { http_status, .. } => *http_status,
            McpError::RequestFailed { failure, .. } => failure.http_status(),
            _ => None,
        }
    }
}

/// Why a transport could not deliver a request or its answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TransportFailure {
    /// The request could not be sent, or its answer could not be read (no HTTP status).
    #[error("{message}")]
    Unreachable { message: String },
    /// The server answered with an HTTP error status and no JSON-RPC error.
    #[error("{message}")]
    Status { status: u16, message: String },
    /// The server answered with an HTTP error status and explained it with a JSON-RPC error
    /// (2026-07-28 transports/streamable-http, "Server Validation").
    #[error("{error}")]
    Refused { status: u16, error: RpcError },
    /// The response stream ended before the answer: the request may or may not have run. In
    /// the 2026-07-28 era streams are not resumable, so the peer may send it again.
    #[error("{message}")]
    StreamBroken { message: String },
}

impl TransportFailure {
    /// The HTTP status behind the failure, if there was one.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            TransportFailure::Status { status, .. } | TransportFailure::Refused { status, .. } => {
                Some(*status)
            }
            TransportFailure::Unreachable { .. } | TransportFailure::StreamBroken { .. } => None,
        }
    }
}

pub type Result<T, E = McpError> = std::result::Result<T, E>;
