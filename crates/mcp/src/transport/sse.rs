//! Reading a `text/event-stream` response with the `eventsource-stream` parser: JSON-RPC messages
//! out of `message` events, plus the cursor (`id:`) and `retry:` needed to resume the stream.

use std::time::Duration;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use serde_json::Value;

/// The longest reconnection delay taken from a server's `retry:` field; a longer one is cut to
/// this (with a log line), so a server cannot park a stream for days.
pub const MAX_RETRY: Duration = Duration::from_secs(60);

/// What one SSE stream left behind when it ended.
#[derive(Debug, Default, Clone)]
pub struct StreamEnd {
    /// The last event id seen, for `Last-Event-ID`.
    pub last_event_id: Option<String>,
    /// The last `retry:` the server asked for.
    pub retry: Option<Duration>,
    /// Why the stream ended, if it failed rather than finished.
    pub error: Option<String>,
}

/// One event of interest.
#[derive(Debug)]
pub enum SseItem {
    /// A JSON-RPC message from a `message` (or unnamed) event.
    Message(Value),
    /// An event of another type (such as the legacy transport's `endpoint`), with its data.
    Other { event: String, data: String },
}

/// Whether a response is an event stream.
pub fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"))
}

/// Pulls events from one SSE response, keeping the resume cursor (`id:`) and `retry:` in `end`.
pub struct SseReader<'a> {
    events: std::pin::Pin<
        Box<dyn futures_util::Stream<Item = Result<eventsource_stream::Event, String>> + Send>,
    >,
    max_event_bytes: usize,
    end: &'a mut StreamEnd,
}

impl<'a> SseReader<'a> {
    /// Starts reading; `end` carries the cursor across successive streams of one exchange.
    pub fn new(
        response: reqwest::Response,
        max_event_bytes: usize,
        end: &'a mut StreamEnd,
    ) -> Self {
        Self::from_stream(response.bytes_stream(), max_event_bytes, end)
    }

    /// Starts reading events from a stream of byte chunks, split anywhere (a response's body).
    pub fn from_stream<S, B, E>(bytes: S, max_event_bytes: usize, end: &'a mut StreamEnd) -> Self
    where
        S: futures_util::Stream<Item = Result<B, E>> + Send + 'static,
        B: AsRef<[u8]> + Send + 'static,
        E: std::fmt::Display + Send + 'static,
    {
        end.error = None;
        let events = bytes.eventsource().map(|e| e.map_err(|e| e.to_string()));
        Self {
            events: Box::pin(events),
            max_event_bytes,
            end,
        }
    }

    /// The next event of interest, or `None` when the stream ended (`end.error` says if it broke).
    pub async fn next(&mut self) -> Option<SseItem> {
        while let Some(event) = self.events.next().await {
            let event = match event {
                Ok(event) => event,
                Err(e) => {
                    self.end.error = Some(format!("the event stream broke: {e}"));
                    return None;
                }
            };
            if !event.id.is_empty() {
                self.end.last_event_id = Some(event.id.clone());
            }
            if let Some(retry) = event.retry {
                if retry > MAX_RETRY {
                    tracing::info!(
                        "the server asked to wait {retry:?} before reconnecting; waiting {MAX_RETRY:?}"
                    );
                }
                self.end.retry = Some(retry.min(MAX_RETRY));
            }
            if event.data.len() > self.max_event_bytes {
                tracing::warn!(
                    "ignoring a {}-byte event: larger than the {}-byte limit",
                    event.data.len(),
                    self.max_event_bytes
                );
                continue;
            }
            match event.event.as_str() {
                // An empty `data` is a priming event: only its id matters.
                "" | "message" if event.data.trim().is_empty() => {}
                "" | "message" => match serde_json::from_str::<Value>(&event.data) {
                    Ok(value) => return Some(SseItem::Message(value)),
                    Err(e) => tracing::warn!("ignoring an event whose data is not JSON: {e}"),
                },
                other => {
                    return Some(SseItem::Other {
                        event: other.to_owned(),
                        data: event.data,
                    });
                }
            }
        }
        None
    }
}
