//! Health checks of live sessions: every [`HealthChecks::every`] an open connection is asked
//! whether it still answers, with `ping` in the legacy era (2025-11-25
//! basic/utilities/ping: "Implementations SHOULD periodically issue pings to detect connection
//! health") and `server/discover` in the modern era, which removed `ping` (2026-07-28
//! changelog, item 5). A check not answered within [`HealthChecks::answer_within`] (or a
//! transport failure) shows the server `Degraded`; after [`HealthChecks::misses_before_restart`]
//! missed checks in a row the connection is closed and the server started again through the
//! restart path (backoff, crash loop). An error answer is an answer: the server is alive. A
//! check missed while other requests were in flight is not counted: a server that handles one
//! request at a time answers it only after them, and they have timeouts of their own.
//!
//! By default a check runs every 30 s, must be answered within 10 s, and 3 misses restart;
//! `HostOptions::health_checks` sets them. A miss shows `Degraded { reason, misses }` (the tools
//! kept, calls still go through), an answer makes it `Connected` again, and the last miss ends the
//! connection as `Unresponsive`, restarted through the backoff path whatever the transport.

use std::time::Duration;

use gatehouse_mcp::McpError;

/// How live sessions are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HealthChecks {
    /// The pause between two checks of one connection (30 s by default).
    pub every: Duration,
    /// How long a check may take before it counts as missed (10 s by default).
    pub answer_within: Duration,
    /// How many missed checks in a row restart the server (3 by default).
    pub misses_before_restart: u32,
}

impl Default for HealthChecks {
    fn default() -> Self {
        HealthChecks {
            every: Duration::from_secs(30),
            answer_within: Duration::from_secs(10),
            misses_before_restart: 3,
        }
    }
}

/// What one check found.
#[derive(Debug)]
pub(super) enum Check {
    /// The server answered (a result or an error).
    Answered,
    /// The connection is closed.
    Closed(McpError),
    /// No answer in time, or the request could not be sent; says why.
    Missed(String),
}

/// Checks `client` once.
pub(super) async fn check(client: &gatehouse_mcp::Client, checks: &HealthChecks) -> Check {
    let method = match client.era() {
        gatehouse_mcp::Era::Legacy => "ping",
        gatehouse_mcp::Era::Modern => "server/discover",
    };
    match tokio::time::timeout(checks.answer_within, client.ping()).await {
        Ok(Ok(_)) | Ok(Err(McpError::Rpc { .. })) => Check::Answered,
        Ok(Err(e @ McpError::Closed { .. })) => Check::Closed(e),
        Ok(Err(e)) => Check::Missed(format!("{method} failed: {e}")),
        Err(_) => Check::Missed(format!(
            "no answer to {method} within {:?}",
            checks.answer_within
        )),
    }
}
