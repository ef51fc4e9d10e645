//! `ping` (2025-11-25 basic/utilities/ping): checks that the server still answers and measures
//! the round trip. Either side may ping at any time; no capability is needed. The answer must
//! be an empty result, but anything the server sends back counts as alive.

use std::time::{Duration, Instant};

use crate::client::Client;
use crate::error::Result;

impl Client {
    /// Pings the server and returns the round-trip time. A server that does not answer within
    /// the request timeout fails with [`crate::McpError::Timeout`], and the ping is cancelled.
    pub async fn ping(&self) -> Result<Duration> {
        let started = Instant::now();
        let answer = self
            .peer()
            .request("ping", None, self.request_timeout())
            .await?;
        let elapsed = started.elapsed();
        if !answer.as_object().is_some_and(serde_json::Map::is_empty) {
            tracing::debug!("the server answered ping with a non-empty result: {answer}");
        }
        Ok(elapsed)
    }
}
