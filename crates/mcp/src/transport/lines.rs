//! A newline-delimited reader with a bound on line length, so that a server printing an endless
//! line cannot exhaust memory: of an oversized line only its first `keep` bytes are held (for a
//! quote, or an id to recover), the rest is skipped, and reading goes on.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read from the stream, without its line ending.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Data(Vec<u8>),
    /// A line longer than the bound: its length, and its first bytes (as many as the reader
    /// keeps); the rest was discarded.
    TooLong {
        len: usize,
        start: Vec<u8>,
    },
}

/// Reads bounded lines from a buffered async reader.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    max_len: usize,
    keep: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Lines of at most `max_len` bytes; of a longer one nothing is kept.
    pub fn new(inner: R, max_len: usize) -> Self {
        Self {
            inner,
            max_len,
            keep: 0,
        }
    }

    /// Keeps the first `keep` bytes (at most `max_len`) of an oversized line.
    pub fn keeping_start(mut self, keep: usize) -> Self {
        self.keep = keep.min(self.max_len);
        self
    }

    /// The next line, or `None` at end of stream.
    pub async fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        let mut buf = Vec::new();
        let mut seen = 0usize;
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                return Ok((seen > 0).then(|| self.finish(buf, seen)));
            }
            let (chunk_len, consumed, done) = match available.iter().position(|b| *b == b'\n') {
                Some(i) => (i, i + 1, true),
                None => (available.len(), available.len(), false),
            };
            seen = seen.saturating_add(chunk_len);
            if seen <= self.max_len {
                buf.extend_from_slice(&available[..chunk_len]);
            } else {
                // Over the bound: hold only the start.
                buf.truncate(self.keep);
                let take = self.keep.saturating_sub(buf.len()).min(chunk_len);
                buf.extend_from_slice(&available[..take]);
            }
            self.inner.consume(consumed);
            if done {
                return Ok(Some(self.finish(buf, seen)));
            }
        }
    }

    fn finish(&self, mut buf: Vec<u8>, seen: usize) -> Line {
        if seen > self.max_len {
            buf.truncate(self.keep);
            return Line::TooLong {
                len: seen,
                start: buf,
            };
        }
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        Line::Data(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn read_all(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        while let Ok(Some(line)) = reader.next_line().await {
            out.push(line);
        }
        out
    }

    #[tokio::test]
    async fn splits_lines_and_strips_carriage_returns() {
        let lines = read_all(b"one\r\ntwo\nthree", 100).await;
        assert_eq!(
            lines,
            vec![
                Line::Data(b"one".to_vec()),
                Line::Data(b"two".to_vec()),
                Line::Data(b"three".to_vec())
            ]
        );
    }

    #[tokio::test]
    async fn skips_an_oversized_line_and_keeps_reading() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\nok\n");
        let lines = read_all(&input, 10).await;
        assert_eq!(
            lines,
            vec![
                Line::TooLong {
                    len: 50,
                    start: Vec::new()
                },
                Line::Data(b"ok".to_vec())
            ],
            "a huge line must not stop the messages after it"
        );
    }
}
