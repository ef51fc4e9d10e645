//! A session's SSE streams of server-to-client messages, and the bounded replay buffer that lets
//! a client resume any of them with `Last-Event-ID` (2025-11-25 basic/transports, "Resumability
//! and Redelivery"): the GET stream (stream 0: `list_changed` and whatever answers no POST) and
//! one stream per POST answered with SSE (its progress, the server requests its call causes, then
//! its response; SEP-1699: it opens with a priming event, an id and empty data, and a `retry`
//! hint).
//!
//! Event ids are `TAG-STREAM-SEQ`, `TAG` random per session, so an id names its session and its
//! stream: a `Last-Event-ID` of another session, or of a stream this session never had, is
//! refused, and a resumption replays only the stream the id names (never another's events), then
//! follows it live (a POST stream until its response). One reader per stream at a time: a new
//! one replaces the old, so a message goes out on one connection only. A GET stream opened
//! without `Last-Event-ID` first gets the kept messages no GET stream took yet. A reader that
//! falls [`LIVE_QUEUE`] events behind is cut off; it can resume from the buffer.
//!
//! The buffer is the session's, for all its streams: at most [`REPLAY_COUNT`] events and
//! [`REPLAY_BYTES`] bytes (the newest event is kept even when it alone is larger, so a response
//! is never lost while its POST is gone); it ends with the session.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use axum::body::Bytes;
use tokio::sync::mpsc;

/// Events kept for resumption, at most.
pub const REPLAY_COUNT: usize = 256;
/// Bytes kept for resumption, at most (beyond the newest event).
pub const REPLAY_BYTES: usize = 1024 * 1024;
/// Events queued to an open stream, at most.
pub const LIVE_QUEUE: usize = 64;
/// The reconnection delay a POST stream's priming event suggests (SSE `retry`), milliseconds.
pub const RETRY_MS: u64 = 1000;
/// The GET stream's number.
const GET: u64 = 0;

/// One event out to a stream: its id, its JSON, and whether it ends its stream (a response).
#[derive(Debug, Clone)]
pub struct Event {
    pub id: String,
    pub json: Arc<str>,
    pub last: bool,
}

#[derive(Debug)]
struct Kept {
    stream: u64,
    seq: u64,
    json: Arc<str>,
    last: bool,
}

#[derive(Debug, Default)]
struct Stream {
    next: u64,
    live: Option<mpsc::Sender<Event>>,
}

/// Why a `Last-Event-ID` was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not an id this session gave (another session's, or made up).
    Foreign,
}

/// What a reader gets: the kept events it missed, then the live ones (`None`: the stream ended).
pub type Opened = (Vec<Event>, Option<mpsc::Receiver<Event>>);

/// A session's streams.
#[derive(Debug)]
pub struct Streams {
    tag: String,
    kept: VecDeque<Kept>,
    bytes: usize,
    /// Streams still running (the GET stream, and POST streams not yet answered).
    running: HashMap<u64, Stream>,
    next_stream: u64,
    /// The first GET event no GET stream took.
    undelivered: u64,
}

impl Default for Streams {
    fn default() -> Streams {
        let mut running = HashMap::new();
        running.insert(GET, Stream::default());
        Streams {
            tag: uuid::Uuid::new_v4().simple().to_string()[..16].to_owned(),
            kept: VecDeque::new(),
            bytes: 0,
            running,
            next_stream: GET + 1,
            undelivered: 0,
        }
    }
}

impl Streams {
    fn id(&self, stream: u64, seq: u64) -> String {
        format!("{}-{stream}-{seq}", self.tag)
    }

    /// Sends a message on the GET stream (if open), keeping it for resumption.
    pub fn push_get(&mut self, json: Arc<str>) {
        self.push(GET, json, false);
    }

    /// Sends a message on `stream` (to its reader, if any), keeping it for resumption; `last`
    /// ends the stream (a POST's response).
    pub fn push(&mut self, stream: u64, json: Arc<str>, last: bool) {
        let Some(running) = self.running.get_mut(&stream) else {
            return;
        };
        let seq = running.next;
        running.next += 1;
        let live = running.live.clone();
        if last {
            self.running.remove(&stream);
        }
        self.bytes += json.len();
        self.kept.push_back(Kept {
            stream,
            seq,
            json: json.clone(),
            last,
        });
        while self.kept.len() > REPLAY_COUNT || (self.bytes > REPLAY_BYTES && self.kept.len() > 1) {
            match self.kept.pop_front() {
                Some(old) => self.bytes -= old.json.len(),
                None => break,
            }
        }
        let event = Event {
            id: self.id(stream, seq),
            json,
            last,
        };
        if let Some(live) = live {
            let sent = live.try_send(event).is_ok();
            if stream == GET && sent {
                self.undelivered = seq + 1;
            }
            if !sent && let Some(running) = self.running.get_mut(&stream) {
                // Closed, or too far behind: it resumes from the buffer.
                running.live = None;
            }
        }
    }

    /// Opens a stream for a POST's answer: its number, its priming event's id, its reader.
    pub fn open_post(&mut self) -> (u64, String, mpsc::Receiver<Event>) {
        let stream = self.next_stream;
        self.next_stream += 1;
        let (live, receiver) = mpsc::channel(LIVE_QUEUE);
        // Seq 0 is the priming event, never kept: resuming from it replays everything after.
        self.running.insert(
            stream,
            Stream {
                next: 1,
                live: Some(live),
            },
        );
        (stream, self.id(stream, 0), receiver)
    }

    /// Ends a POST's stream without a response (the request was cancelled).
    pub fn drop_post(&mut self, stream: u64) {
        if stream != GET {
            self.running.remove(&stream);
        }
    }

    /// Opens the GET stream (no `Last-Event-ID`) or resumes the stream `last` names: the kept
    /// events after it first, then the live ones while the stream runs.
    pub fn open(&mut self, last: Option<&str>) -> Result<Opened, Refused> {
        let (stream, from) = match last {
            None => (GET, self.undelivered),
            Some(last) => {
                let (stream, seq) = self.parse(last).ok_or(Refused::Foreign)?;
                (stream, seq + 1)
            }
        };
        let replay: Vec<Event> = self
            .kept
            .iter()
            .filter(|k| k.stream == stream && k.seq >= from)
            .map(|k| Event {
                id: self.id(k.stream, k.seq),
                json: k.json.clone(),
                last: k.last,
            })
            .collect();
        let ended = replay.last().is_some_and(|e| e.last);
        let live = match self.running.get_mut(&stream) {
            Some(running) if !ended => {
                let (live, receiver) = mpsc::channel(LIVE_QUEUE);
                running.live = Some(live);
                Some(receiver)
            }
            _ => None,
        };
        if stream == GET {
            self.undelivered = self.running.get(&GET).map_or(0, |s| s.next);
        }
        Ok((replay, live))
    }

    /// The stream and position a `Last-Event-ID` names, when this session gave it.
    fn parse(&self, last: &str) -> Option<(u64, u64)> {
        let mut parts = last.trim().split('-');
        let (tag, stream, seq) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || tag != self.tag {
            return None;
        }
        let (stream, seq) = (stream.parse::<u64>().ok()?, seq.parse::<u64>().ok()?);
        (stream < self.next_stream).then_some((stream, seq))
    }

    /// Whether any stream has a reader.
    pub fn is_open(&self) -> bool {
        self.running
            .values()
            .any(|s| s.live.as_ref().is_some_and(|live| !live.is_closed()))
    }

    /// Ends every reader (the session ended); what was kept goes with the session.
    pub fn close(&mut self) {
        for stream in self.running.values_mut() {
            stream.live = None;
        }
        self.running.retain(|stream, _| *stream == GET);
    }

    /// How many events are kept, and their bytes.
    #[cfg(test)]
    fn kept(&self) -> (usize, usize) {
        (self.kept.len(), self.bytes)
    }
}

/// One SSE event carrying a JSON-RPC message, with its id.
pub fn frame(id: &str, json: &str) -> Bytes {
    Bytes::from(format!("event: message\nid: {id}\ndata: {json}\n\n"))
}

/// A POST stream's first event (SEP-1699): an id to resume from, empty data, a `retry` hint.
pub fn priming(id: &str) -> Bytes {
    Bytes::from(format!("id: {id}\nretry: {RETRY_MS}\ndata: \n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(events: &[Event]) -> Vec<String> {
        events.iter().map(|e| e.id.clone()).collect()
    }

    #[test]
    fn the_get_stream_resumes_after_the_last_event_and_stays_bounded() {
        let mut streams = Streams::default();
        for n in 0..3 {
            streams.push_get(Arc::from(format!("{{\"n\":{n}}}")));
        }
        let first = streams.id(GET, 0);
        let (replay, _live) = streams.open(Some(&first)).expect("its own id");
        assert_eq!(ids(&replay), vec![streams.id(GET, 1), streams.id(GET, 2)]);
        // Sent while no stream was open: the next stream without Last-Event-ID gets it.
        streams.close();
        streams.push_get(Arc::from("{\"n\":3}"));
        let (replay, _live) = streams.open(None).expect("opens");
        assert_eq!(ids(&replay), vec![streams.id(GET, 3)]);
        let (replay, live) = streams.open(None).expect("opens");
        assert!(replay.is_empty(), "nothing is sent twice: {replay:?}");
        drop(live);
        let (_, mut live) = streams.open(None).expect("opens");
        for _ in 0..REPLAY_COUNT * 2 {
            streams.push_get(Arc::from("{}"));
        }
        assert_eq!(streams.kept().0, REPLAY_COUNT);
        // The live reader fell behind and was cut off.
        assert!(!streams.is_open());
        assert_eq!(
            live.as_mut().map(|l| l.len()),
            Some(LIVE_QUEUE),
            "it got what fitted"
        );
        let big: Arc<str> = Arc::from("x".repeat(REPLAY_BYTES / 2 + 1));
        streams.push_get(big.clone());
        streams.push_get(big);
        assert!(streams.kept().1 <= REPLAY_BYTES);
    }

    #[test]
    fn a_post_stream_cut_off_resumes_with_what_it_missed_and_its_response_once() {
        let mut streams = Streams::default();
        let (post, priming, reader) = streams.open_post();
        streams.push(post, Arc::from("{\"progress\":1}"), false);
        drop(reader); // The client's connection went away after the first event.
        streams.push(post, Arc::from("{\"progress\":2}"), false);
        streams.push_get(Arc::from("{\"list_changed\":true}"));
        streams.push(post, Arc::from("{\"result\":{}}"), true);
        let (replay, live) = streams.open(Some(&priming)).expect("its priming id");
        let jsons: Vec<&str> = replay.iter().map(|e| &*e.json).collect();
        assert_eq!(
            jsons,
            vec!["{\"progress\":1}", "{\"progress\":2}", "{\"result\":{}}"],
            "only its own stream's events, the response last"
        );
        assert!(live.is_none(), "the stream ended with its response");
        let (replay, _) = streams.open(Some(&replay[0].id)).expect("again");
        assert_eq!(replay.len(), 2, "resumed after the event it names");
        // A stream resumed while it runs goes on live until its response.
        let (post, _, first) = streams.open_post();
        drop(first);
        let (replay, live) = streams.open(Some(&streams.id(post, 0))).expect("runs");
        assert!(replay.is_empty());
        let mut live = live.expect("follows the running stream");
        streams.push(post, Arc::from("{\"result\":1}"), true);
        let event = live.try_recv().expect("the response, live");
        assert!(event.last);
        assert!(live.try_recv().is_err(), "then the stream ends");
    }

    #[test]
    fn an_id_of_another_session_or_stream_is_refused() {
        let mut ours = Streams::default();
        let mut theirs = Streams::default();
        let (post, priming, _reader) = theirs.open_post();
        theirs.push(post, Arc::from("{\"secret\":1}"), true);
        assert_eq!(ours.open(Some(&priming)).err(), Some(Refused::Foreign));
        let never = ours.id(7, 0);
        assert_eq!(ours.open(Some(&never)).err(), Some(Refused::Foreign));
        for junk in ["", "1", "x-0-0", "-0-0", &format!("{}-0-0-0", ours.tag)] {
            assert_eq!(
                ours.open(Some(junk)).err(),
                Some(Refused::Foreign),
                "{junk}"
            );
        }
    }

    #[test]
    fn a_flood_of_progress_keeps_the_buffer_within_its_bounds() {
        let mut streams = Streams::default();
        let (post, _, _reader) = streams.open_post();
        let notice: Arc<str> = Arc::from(format!("{{\"progress\":\"{}\"}}", "p".repeat(100)));
        for _ in 0..100_000 {
            streams.push(post, notice.clone(), false);
        }
        let (count, bytes) = streams.kept();
        assert_eq!(count, REPLAY_COUNT);
        assert!(bytes <= REPLAY_BYTES, "{bytes}");
        // A response larger than the byte bound is still kept, alone, for a client that lost it.
        let huge: Arc<str> = Arc::from("r".repeat(REPLAY_BYTES * 2));
        streams.push(post, huge, true);
        assert_eq!(streams.kept().0, 1);
    }

    #[test]
    fn frames_are_sse_events() {
        assert_eq!(
            frame("t-1-7", "{}"),
            "event: message\nid: t-1-7\ndata: {}\n\n"
        );
        assert_eq!(priming("t-1-0"), "id: t-1-0\nretry: 1000\ndata: \n\n");
    }
}
