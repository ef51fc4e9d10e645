//! `ping` (2025-11-25 basic/utilities/ping): checks that the server still answers and measures
//! the round trip. Either side may ping at any time; no capability is needed. The answer must
//! be an empty result, but anything the server sends back counts as alive.
//!
//! The 2026-07-28 revision removed `ping` (changelog, item 5), so a modern server is never sent
//! one: its liveness is the round trip of `server/discover`, the one request every modern
//! server answers, sent past the result cache.

use std::time::{Duration, Instant};

use crate::client::Client;
use crate::era::Era;
use crate::error::Result;

impl Client {
    /// Pings the server (or, in the modern era, asks `server/discover`) and returns the
    /// round-trip time. A server that does not answer within the request timeout fails with [`crate::McpError::Timeout`], and the ping is cancelled.
    pub async fn ping(&self) -> Result<Duration> {
        let method = match self.era() {
            Era::Legacy => "ping",
            Era::Modern => "server/discover",
        };
        let started = Instant::now();
        let answer = self
            .peer()
            .request(method, None, self.request_timeout())
            .await?;
        let elapsed = started.elapsed();
        if method == "ping" && !answer.as_object().is_some_and(serde_json::Map::is_empty) {
            tracing::debug!("the server answered ping with a non-empty result: {answer}");
        }
        Ok(elapsed)
    }
}
