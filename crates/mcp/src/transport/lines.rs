//! A newline-delimited reader with a bound on line length, so that a server printing an endless
//! line cannot exhaust memory: of an oversized line only its first `keep` bytes are held (for a
//! quote, or an id to recover), the rest is skipped, and reading goes on. Reading is
//! cancel-safe: the part of a line read before a `select!` dropped [`LineReader::next_line`] is
//! kept, and the next call goes on from it.

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
    /// The line being read: what is held of it, and how many bytes of it were seen.
    partial: Vec<u8>,
    seen: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Lines of at most `max_len` bytes; of a longer one nothing is kept.
    pub fn new(inner: R, max_len: usize) -> Self {
        Self {
            inner,
            max_len,
            keep: 0,
            partial: Vec::new(),
            seen: 0,
        }
    }

    /// Keeps the first `keep` bytes (at most `max_len`) of an oversized line.
    pub fn keeping_start(mut self, keep: usize) -> Self {
        self.keep = keep.min(self.max_len);
        self
    }

    /// The reader beneath, once a whole line was returned (nothing of a next line is held
    /// here then: what was read past it stays in the reader's buffer).
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The next line, or `None` at end of stream. Cancel-safe (see the module's header).
    pub async fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                let seen = std::mem::take(&mut self.seen);
                let buf = std::mem::take(&mut self.partial);
                return Ok((seen > 0).then(|| self.finish(buf, seen)));
            }
            let (chunk_len, consumed, done) = match available.iter().position(|b| *b == b'\n') {
                Some(i) => (i, i + 1, true),
                None => (available.len(), available.len(), false),
            };
            self.seen = self.seen.saturating_add(chunk_len);
            if self.seen <= self.max_len {
                self.partial.extend_from_slice(&available[..chunk_len]);
            } else {
                // Over the bound: hold only the start.
                self.partial.truncate(self.keep);
                let take = self.keep.saturating_sub(self.partial.len()).min(chunk_len);
                self.partial.extend_from_slice(&available[..take]);
            }
            self.inner.consume(consumed);
            if done {
                let seen = std::mem::take(&mut self.seen);
                let buf = std::mem::take(&mut self.partial);
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
    async fn a_read_dropped_halfway_through_a_line_loses_none_of_it() {
        use std::future::Future;
        use tokio::io::AsyncWriteExt;

        let (mut writer, reader) = tokio::io::duplex(64);
        let mut lines = LineReader::new(tokio::io::BufReader::new(reader), 100);
        writer.write_all(b"{\"half\":").await.expect("write");
        {
            // Polled once: it takes the half line, then waits for the rest, and is dropped
            // (as a `select!` drops the branch that did not win).
            let mut read = std::pin::pin!(lines.next_line());
            std::future::poll_fn(|cx| {
                assert!(read.as_mut().poll(cx).is_pending(), "no whole line yet");
                std::task::Poll::Ready(())
            })
            .await;
        }
        writer.write_all(b"1}\nnext\n").await.expect("write");
        assert_eq!(
            lines.next_line().await.expect("read"),
            Some(Line::Data(b"{\"half\":1}".to_vec()))
        );
        assert_eq!(
            lines.next_line().await.expect("read"),
            Some(Line::Data(b"next".to_vec()))
        );
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
