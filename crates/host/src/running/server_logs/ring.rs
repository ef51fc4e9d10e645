//! The lines of one server's stderr held in memory: at most [`MAX_LINES`] lines and
//! [`MAX_BYTES`] bytes of text, whichever is reached first; the oldest lines go first.

use std::collections::VecDeque;

use super::LogLine;

/// Lines kept per server.
pub const MAX_LINES: usize = 10_000;

/// Bytes of line text kept per server.
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

/// A bounded ring of log lines.
#[derive(Debug, Default)]
pub struct LogRing {
    lines: VecDeque<LogLine>,
    bytes: usize,
    /// Lines dropped to stay within bounds, for the one log line that says so.
    dropped: u64,
}

impl LogRing {
    /// Adds a line, dropping the oldest ones past the bounds.
    pub fn push(&mut self, line: LogLine) {
        self.bytes += line.line.len();
        self.lines.push_back(line);
        while self.lines.len() > MAX_LINES || (self.bytes > MAX_BYTES && self.lines.len() > 1) {
            if let Some(old) = self.lines.pop_front() {
                self.bytes -= old.line.len();
                if self.dropped == 0 {
                    tracing::debug!(
                        "a server's log ring is full ({MAX_LINES} lines or {MAX_BYTES} bytes): the oldest lines go"
                    );
                }
                self.dropped += 1;
            }
        }
    }

    /// The last `n` lines, oldest first.
    pub fn last(&self, n: usize) -> Vec<LogLine> {
        let skip = self.lines.len().saturating_sub(n);
        self.lines.iter().skip(skip).cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Bytes of line text held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seq: u64, text: String) -> LogLine {
        LogLine {
            seq,
            time: String::new(),
            line: text,
        }
    }

    #[test]
    fn keeps_at_most_the_line_bound() {
        let mut ring = LogRing::default();
        for seq in 0..(MAX_LINES as u64 + 5) {
            ring.push(line(seq, "x".into()));
        }
        assert_eq!(ring.len(), MAX_LINES);
        assert_eq!(
            ring.last(1)[0].seq,
            MAX_LINES as u64 + 4,
            "the newest stays"
        );
        assert_eq!(ring.last(MAX_LINES)[0].seq, 5, "the oldest went");
    }

    #[test]
    fn keeps_at_most_the_byte_bound() {
        let mut ring = LogRing::default();
        let kib = "y".repeat(1024);
        for seq in 0..3000 {
            ring.push(line(seq, kib.clone()));
        }
        assert!(ring.bytes() <= MAX_BYTES, "{} bytes", ring.bytes());
        assert_eq!(ring.len(), MAX_BYTES / 1024);
        assert_eq!(ring.last(2).len(), 2);
    }
}
