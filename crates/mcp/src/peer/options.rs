//! How to wait for one request ([`RequestOptions`]): its timeout and whether progress resets it,
//! a cap on the whole wait, where progress goes, extra HTTP headers and how often it may be sent
//! again after a broken stream.

use std::time::Duration;

use tokio::sync::mpsc;

use super::progress::Progress;

/// How to wait for one request.
#[derive(Debug, Clone)]
pub struct RequestOptions {
    /// How long to wait for the response (or for the next progress update, if it resets).
    pub timeout: Duration,
    /// Whether a progress update restarts `timeout`.
    pub reset_timeout_on_progress: bool,
    /// A cap on the total wait, whatever progress arrives.
    pub max_total: Option<Duration>,
    /// Where progress updates go; setting it sends a `progressToken`. A reader that falls
    /// behind skips updates but always gets the latest ([`crate::updates::LatestSink`]).
    pub progress: Option<mpsc::Sender<Progress>>,
    /// Extra HTTP headers for this request (ignored by stdio).
    pub headers: Vec<(String, String)>,
    /// How many times the request is sent again, with a new id, when its response stream breaks
    /// before the answer. Only safe for requests that may run twice: reads, lists, and tools
    /// that declare themselves read-only or idempotent.
    pub reissue: u32,
}

impl RequestOptions {
    pub fn new(timeout: Duration) -> Self {
        Self {
            timeout,
            reset_timeout_on_progress: true,
            max_total: None,
            progress: None,
            headers: Vec::new(),
            reissue: DEFAULT_REISSUE,
        }
    }

    /// The same options, never re-sent after a broken stream (for requests with side effects).
    pub fn without_reissue(mut self) -> Self {
        self.reissue = 0;
        self
    }
}

/// Re-sends allowed by default: every request but a side-effecting tool call is safe to repeat.
pub const DEFAULT_REISSUE: u32 = 2;
