//! A session's stream of server-to-client messages (the GET stream: `list_changed` and whatever
//! answers no POST), with the bounded replay buffer that lets a client resume it with
//! `Last-Event-ID` (2025-11-25 basic/transports, "Resumability and Redelivery"), and the SSE
//! framing of every stream. One GET stream is open per session at a time: a new one replaces
//! the old, so a message goes out on one stream only. A stream opened without `Last-Event-ID`
//! first gets the kept messages no stream took yet (sent while none was open). A reader that falls [`LIVE_QUEUE`] messages
//! behind is cut off; it can resume from the buffer.

use std::collections::VecDeque;
use std::sync::Arc;

use axum::body::Bytes;
use tokio::sync::mpsc;

/// Messages kept for resumption, at most.
pub const REPLAY_COUNT: usize = 256;
/// Bytes kept for resumption, at most.
pub const REPLAY_BYTES: usize = 1024 * 1024;
/// Messages queued to an open GET stream, at most.
pub const LIVE_QUEUE: usize = 64;

/// One message on the GET stream: its event id and its JSON.
pub type Event = (u64, Arc<str>);

/// A session's GET stream.
#[derive(Debug, Default)]
pub struct GetStream {
    kept: VecDeque<Event>,
    bytes: usize,
    next: u64,
    /// The first message no stream took.
    undelivered: u64,
    live: Option<mpsc::Sender<Event>>,
}

impl GetStream {
    /// Sends a message to the open stream (if any), keeping it for resumption.
    pub fn push(&mut self, json: Arc<str>) {
        let event = (self.next, json);
        self.next += 1;
        self.bytes += event.1.len();
        self.kept.push_back(event.clone());
        while self.kept.len() > REPLAY_COUNT || self.bytes > REPLAY_BYTES {
            match self.kept.pop_front() {
                Some((_, old)) => self.bytes -= old.len(),
                None => break,
            }
        }
        if let Some(live) = &self.live {
            if live.try_send(event).is_ok() {
                self.undelivered = self.next;
            } else {
                // Closed, or too far behind: it resumes from the buffer.
                self.live = None;
            }
        }
    }

    /// Opens the stream (closing one already open): the kept messages after `last` (a
    /// `Last-Event-ID`) first, then new ones.
    pub fn open(&mut self, last: Option<u64>) -> (Vec<Event>, mpsc::Receiver<Event>) {
        let (live, receiver) = mpsc::channel(LIVE_QUEUE);
        self.live = Some(live);
        let from = last.map_or(self.undelivered, |last| last + 1);
        let replay: Vec<Event> = self
            .kept
            .iter()
            .filter(|(id, _)| *id >= from)
            .cloned()
            .collect();
        self.undelivered = self.next;
        (replay, receiver)
    }

    /// Whether a GET stream is open.
    pub fn is_open(&self) -> bool {
        self.live.as_ref().is_some_and(|live| !live.is_closed())
    }

    /// Ends the open stream.
    pub fn close(&mut self) {
        self.live = None;
    }
}

/// One SSE event carrying a JSON-RPC message, with its id when it can be resumed.
pub fn frame(id: Option<u64>, json: &str) -> Bytes {
    match id {
        Some(id) => Bytes::from(format!("event: message\nid: {id}\ndata: {json}\n\n")),
        None => Bytes::from(format!("event: message\ndata: {json}\n\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumes_after_the_last_event_and_stays_bounded() {
        let mut stream = GetStream::default();
        for n in 0..3 {
            stream.push(Arc::from(format!("{{\"n\":{n}}}")));
        }
        let (replay, _live) = stream.open(Some(0));
        assert_eq!(replay.iter().map(|e| e.0).collect::<Vec<_>>(), vec![1, 2]);
        // Sent while no stream was open: the next stream without Last-Event-ID gets it.
        stream.close();
        stream.push(Arc::from("{\"n\":3}"));
        let (replay, _live) = stream.open(None);
        assert_eq!(replay.iter().map(|e| e.0).collect::<Vec<_>>(), vec![3]);
        let (replay, _live) = stream.open(None);
        assert!(replay.is_empty(), "nothing is sent twice: {replay:?}");
        for _ in 0..REPLAY_COUNT * 2 {
            stream.push(Arc::from("{}"));
        }
        assert_eq!(stream.kept.len(), REPLAY_COUNT);
        // The live reader fell behind and was cut off.
        assert!(!stream.is_open());
        let big: Arc<str> = Arc::from("x".repeat(REPLAY_BYTES / 2 + 1));
        stream.push(big.clone());
        stream.push(big);
        assert!(stream.bytes <= REPLAY_BYTES);
    }

    #[test]
    fn frames_are_sse_events() {
        assert_eq!(frame(Some(7), "{}"), "event: message\nid: 7\ndata: {}\n\n");
        assert_eq!(frame(None, "{}"), "event: message\ndata: {}\n\n");
    }
}
