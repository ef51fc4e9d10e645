//! The floor: `tools/call` over the echo server's pipes with no MCP library at all. The
//! handshake is done by hand, then each call writes one pre-serialized request line (only the
//! id changes), reads one line and checks that it is the result for that id.
//!
//! Two variants share the framing: blocking `std` pipes (the baseline the targets compare
//! against) and tokio's async pipes on the benchmark's runtime (a diagnostic: what waking a task
//! on pipe readiness costs before any library code runs).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::Deserialize;
use serde::de::IgnoredAny;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

use crate::BoxError;
use crate::cpu::CpuClock;
use crate::stats::Samples;

const INITIALIZE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","#,
    r#""capabilities":{},"clientInfo":{"name":"gatehouse-bench-raw","version":"0"}}}"#,
    "\n"
);
const INITIALIZED: &str = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
const CALL_HEAD: &[u8] = br#"{"jsonrpc":"2.0","id":"#;
const CALL_TAIL: &[u8] =
    b",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hello\"}}}\n";

/// The fields of a response the raw client checks.
#[derive(Deserialize)]
struct Reply {
    id: u64,
    #[serde(default)]
    result: Option<IgnoredAny>,
}

/// Writes the request line for `id` into `line`, reusing its allocation.
fn request_line(line: &mut Vec<u8>, id: u64) {
    line.clear();
    line.extend_from_slice(CALL_HEAD);
    line.extend_from_slice(id.to_string().as_bytes());
    line.extend_from_slice(CALL_TAIL);
}

/// Checks that `line` is a successful response to request `id`.
fn check(line: &str, id: u64) -> Result<(), BoxError> {
    let reply: Reply = serde_json::from_str(line).map_err(|e| {
        format!("the echo server sent something that is not a response ({e}): {line}")
    })?;
    if reply.id != id {
        return Err(format!("expected the response to request {id}, got {}", reply.id).into());
    }
    if reply.result.is_none() {
        return Err(format!("request {id} failed: {line}").into());
    }
    Ok(())
}

/// Blocking pipes: `calls` timed round trips after `warmup` untimed ones.
pub fn blocking(echo: &Path, calls: usize, warmup: usize) -> Result<Samples, BoxError> {
    let mut pipe = RawPipe::start(echo)?;
    for _ in 0..warmup {
        pipe.call()?;
    }
    let samples = pipe.timed(calls)?;
    pipe.close()?;
    Ok(samples)
}

/// The echo server on blocking `std` pipes, its handshake done: one round trip per
/// [`RawPipe::call`], nothing else in between.
pub struct RawPipe {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    response: String,
    line: Vec<u8>,
    id: u64,
}

impl RawPipe {
    /// Starts the echo server and makes the handshake.
    pub fn start(echo: &Path) -> Result<Self, BoxError> {
        let mut child = Command::new(echo)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", echo.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout pipe")?);
        let mut pipe = Self {
            child,
            stdin,
            stdout,
            response: String::new(),
            line: Vec::with_capacity(CALL_HEAD.len() + CALL_TAIL.len() + 20),
            id: 0,
        };
        pipe.stdin.write_all(INITIALIZE.as_bytes())?;
        read_line(&mut pipe.stdout, &mut pipe.response)?;
        check(&pipe.response, 0)?;
        pipe.stdin.write_all(INITIALIZED.as_bytes())?;
        Ok(pipe)
    }

    /// One `tools/call` round trip, its response checked.
    pub fn call(&mut self) -> Result<(), BoxError> {
        self.id += 1;
        request_line(&mut self.line, self.id);
        self.stdin.write_all(&self.line)?;
        read_line(&mut self.stdout, &mut self.response)?;
        check(&self.response, self.id)
    }

    /// `calls` round trips, each timed, with this process's CPU time over them.
    pub fn timed(&mut self, calls: usize) -> Result<Samples, BoxError> {
        let mut samples = Samples::with_capacity(calls);
        let cpu = CpuClock::now()?;
        let started = Instant::now();
        for _ in 0..calls {
            let t0 = Instant::now();
            self.call()?;
            samples.push(t0.elapsed());
        }
        samples.elapsed = started.elapsed();
        samples.cpu = Some(cpu.elapsed()?);
        Ok(samples)
    }

    /// Closes the server's stdin and waits for it to exit.
    pub fn close(self) -> Result<(), BoxError> {
        let Self {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        child.wait()?;
        Ok(())
    }
}

fn read_line(reader: &mut impl BufRead, buf: &mut String) -> Result<(), BoxError> {
    buf.clear();
    if reader.read_line(buf)? == 0 {
        return Err("the echo server closed its output".into());
    }
    Ok(())
}

/// Tokio's async pipes, same framing; runs on the caller's runtime.
pub async fn tokio_pipes(echo: PathBuf, calls: usize, warmup: usize) -> Result<Samples, BoxError> {
    let mut child = tokio::process::Command::new(&echo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", echo.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin pipe")?;
    let mut stdout = tokio::io::BufReader::new(child.stdout.take().ok_or("no stdout pipe")?);
    let mut response = String::new();

    stdin.write_all(INITIALIZE.as_bytes()).await?;
    read_line_async(&mut stdout, &mut response).await?;
    check(&response, 0)?;
    stdin.write_all(INITIALIZED.as_bytes()).await?;

    let mut line = Vec::with_capacity(CALL_HEAD.len() + CALL_TAIL.len() + 20);
    let mut id = 0;
    let mut samples = Samples::with_capacity(calls);
    let mut started = Instant::now();
    let mut cpu = CpuClock::now()?;
    for n in 0..warmup + calls {
        if n == warmup {
            cpu = CpuClock::now()?;
            started = Instant::now();
        }
        id += 1;
        let t0 = Instant::now();
        request_line(&mut line, id);
        stdin.write_all(&line).await?;
        read_line_async(&mut stdout, &mut response).await?;
        check(&response, id)?;
        if n >= warmup {
            samples.push(t0.elapsed());
        }
    }
    samples.elapsed = started.elapsed();
    samples.cpu = Some(cpu.elapsed()?);

    drop(stdin);
    child.wait().await?;
    Ok(samples)
}

async fn read_line_async(
    reader: &mut (impl tokio::io::AsyncBufRead + Unpin),
    buf: &mut String,
) -> Result<(), BoxError> {
    buf.clear();
    if reader.read_line(buf).await? == 0 {
        return Err("the echo server closed its output".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_request_line_for_an_id() {
        let mut line = Vec::new();
        request_line(&mut line, 42);
        let text = String::from_utf8(line).expect("utf-8");
        assert!(text.ends_with('\n'));
        let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(value["id"], 42);
        assert_eq!(value["params"]["arguments"]["message"], "hello");
    }

    #[test]
    fn checks_the_response_id() {
        let ok = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#;
        assert!(check(ok, 3).is_ok());
        assert!(check(ok, 4).is_err(), "a response to another request");
        let failed = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"x"}}"#;
        assert!(check(failed, 3).is_err());
    }
}
