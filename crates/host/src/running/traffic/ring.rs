//! One server's recorded messages: at most [`MAX_MESSAGES`] and [`MAX_BYTES`], whichever is
//! reached first; the oldest go first and are counted.

use std::collections::VecDeque;

use super::entry::{TrafficEntry, TrafficPage};

/// Messages kept per server.
pub const MAX_MESSAGES: usize = 2_000;

/// Bytes kept per server (messages and their fields).
pub const MAX_BYTES: usize = 8 * 1024 * 1024;

/// A bounded ring of recorded messages.
#[derive(Debug, Default)]
pub struct TrafficRing {
    entries: VecDeque<TrafficEntry>,
    bytes: usize,
    dropped: u64,
    last_seq: u64,
}

impl TrafficRing {
    /// Adds an entry under the next sequence number, dropping the oldest past the bounds.
    pub fn push(&mut self, mut entry: TrafficEntry) -> u64 {
        self.last_seq += 1;
        entry.seq = self.last_seq;
        self.bytes += entry.weight();
        self.entries.push_back(entry);
        while self.entries.len() > MAX_MESSAGES
            || (self.bytes > MAX_BYTES && self.entries.len() > 1)
        {
            if let Some(old) = self.entries.pop_front() {
                self.bytes -= old.weight();
                self.dropped += 1;
            }
        }
        self.last_seq
    }

    /// The entries after `seq`, oldest first: at most `max_count` and, past the first,
    /// `max_bytes` of weight. A reader that falls behind gets the oldest kept.
    pub fn after(&self, seq: u64, max_count: usize, max_bytes: usize) -> TrafficPage {
        let start = self.entries.partition_point(|e| e.seq <= seq);
        let mut entries = Vec::new();
        let mut bytes = 0usize;
        for entry in self.entries.iter().skip(start).take(max_count) {
            bytes += entry.weight();
            if bytes > max_bytes && !entries.is_empty() {
                break;
            }
            entries.push(entry.clone());
        }
        TrafficPage {
            entries,
            dropped: self.dropped,
            last_seq: self.last_seq,
        }
    }

    /// How many entries and bytes are kept.
    pub fn size(&self) -> (usize, usize) {
        (self.entries.len(), self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::running::traffic::entry::TrafficDirection;

    fn entry(text: &str) -> TrafficEntry {
        TrafficEntry {
            seq: 0,
            time: String::new(),
            direction: TrafficDirection::Sent,
            method: None,
            id: None,
            latency_ms: None,
            size: text.len() as u64,
            message: text.to_owned(),
            truncated: false,
        }
    }

    #[test]
    fn pages_follow_the_sequence_and_their_bounds() {
        let mut ring = TrafficRing::default();
        for n in 0..10 {
            ring.push(entry(&format!("m{n}")));
        }
        let page = ring.after(3, 4, usize::MAX);
        let seqs: Vec<u64> = page.entries.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [4, 5, 6, 7]);
        assert_eq!(page.last_seq, 10);
        let one = ring.after(0, 100, 1);
        assert_eq!(one.entries.len(), 1, "the first entry always fits");
    }
}
