//! The control socket's framing: one JSON message per line, each at most
//! [`MAX_MESSAGE_BYTES`] long. Reading uses the MCP crate's bounded line reader, so a peer
//! sending an endless line costs no more memory than the bound.

use gatehouse_mcp::transport::lines::{Line, LineReader};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};

use super::protocol::MAX_MESSAGE_BYTES;

/// One line read from the socket.
#[derive(Debug)]
pub enum Frame {
    Message(Vec<u8>),
    /// A line over the bound, of this many bytes (skipped).
    TooLong(usize),
}

/// Reads frames from one side of the socket.
#[derive(Debug)]
pub struct FrameReader<R> {
    lines: LineReader<R>,
}

impl<R: AsyncBufRead + Unpin> FrameReader<R> {
    pub fn new(inner: R) -> Self {
        FrameReader {
            lines: LineReader::new(inner, MAX_MESSAGE_BYTES),
        }
    }

    /// The line reader, for a connection that goes on in another protocol (an agent's MCP).
    pub fn into_lines(self) -> LineReader<R> {
        self.lines
    }

    /// The reader beneath, after a whole frame (what was read past it stays in its buffer).
    pub fn into_inner(self) -> R {
        self.lines.into_inner()
    }

    /// The next frame, or `None` when the peer closed its side.
    pub async fn next(&mut self) -> std::io::Result<Option<Frame>> {
        Ok(match self.lines.next_line().await? {
            None => None,
            Some(Line::Data(bytes)) => Some(Frame::Message(bytes)),
            Some(Line::TooLong { len, .. }) => Some(Frame::TooLong(len)),
        })
    }
}

/// One message as it goes on the socket: its JSON and a newline.
pub fn encode(message: &Value) -> std::io::Result<Vec<u8>> {
    let mut line = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    line.push(b'\n');
    Ok(line)
}

/// Writes one encoded line ([`encode`]) and flushes it.
pub async fn write_line<W: AsyncWrite + Unpin>(writer: &mut W, line: &[u8]) -> std::io::Result<()> {
    writer.write_all(line).await?;
    writer.flush().await
}

/// Writes one message and its newline, and flushes it.
pub async fn write_message<W: AsyncWrite + Unpin>(
    writer: &mut W,
    message: &Value,
) -> std::io::Result<()> {
    write_line(writer, &encode(message)?).await
}
