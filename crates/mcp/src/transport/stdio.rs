//! The stdio transport: newline-delimited JSON over a child process's pipes.
//!
//! The child runs in its own process group so that shutdown reaches everything it started.
//! Stdout lines that are not JSON are logged and skipped (2025-11-25 basic/transports, "stdio":
//! servers must not write anything else there, but real ones do). Stderr is read by
//! [`super::stderr`]: redacted by the host's [`OutputHook`] first, then kept in a ring buffer
//! for diagnostics and handed to the host. Shutdown follows the spec's order: close stdin, then
//! SIGTERM, then SIGKILL.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde_json::Value;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, oneshot};

use super::lines::{Line, LineReader};
pub use super::stderr::MAX_STDERR_LINE;
use super::stderr::{OutputHook, StderrRing, read_stderr};
use super::{BoxFuture, Inbound, Link, Outbound, Transport};
use crate::error::{McpError, Result};

/// How to start a stdio server.
#[derive(Debug, Clone)]
pub struct StdioConfig {
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: Option<PathBuf>,
    /// Longest accepted message line, in bytes.
    pub max_message_bytes: usize,
    /// How many stderr lines to keep.
    pub stderr_lines: usize,
    /// How long to wait after closing stdin, and again after SIGTERM.
    pub shutdown_grace: Duration,
    /// What the host does with the server's output: redaction of every stderr line (and of
    /// stdout text that is not a message) before anything else sees it, and its own copy of
    /// each stderr line. `None` keeps the text as the server wrote it.
    pub output: Option<OutputHook>,
}

impl StdioConfig {
    pub fn new(command: impl Into<String>) -> Self {
        Self {
            command: command.into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
            max_message_bytes: 16 * 1024 * 1024,
            stderr_lines: 200,
            shutdown_grace: Duration::from_secs(2),
            output: None,
        }
    }
}

/// How much of an oversized stdout line is held, to find the id of the request it answers.
const OVERSIZED_KEEP: usize = 4096;

/// A running stdio server.
#[derive(Debug)]
pub struct StdioTransport {
    child: Child,
    pgid: Option<Pid>,
    close_stdin: Option<oneshot::Sender<()>>,
    stderr: StderrRing,
    grace: Duration,
}

impl StdioTransport {
    /// Starts the server and returns the transport with the peer's link to it.
    pub fn spawn(config: &StdioConfig) -> Result<(Self, Link)> {
        let mut command = Command::new(&config.command);
        command
            .args(&config.args)
            .envs(config.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        if let Some(cwd) = &config.cwd {
            command.current_dir(cwd);
        }
        let mut child = command.spawn().map_err(|source| McpError::Spawn {
            command: config.command.clone(),
            source,
        })?;
        let missing = |what: &str| McpError::Io(std::io::Error::other(format!("no {what} pipe")));
        let stdin = child.stdin.take().ok_or_else(|| missing("stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| missing("stdout"))?;
        let stderr = child.stderr.take().ok_or_else(|| missing("stderr"))?;
        let pgid = child
            .id()
            .and_then(|pid| i32::try_from(pid).ok())
            .map(Pid::from_raw);

        let ring = StderrRing::default();
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(64);
        let (in_tx, in_rx) = mpsc::channel::<Inbound>(256);
        let (close_tx, close_rx) = oneshot::channel();

        tokio::spawn(write_loop(stdin, out_rx, close_rx));
        tokio::spawn(read_loop(
            stdout,
            in_tx,
            config.max_message_bytes,
            ring.clone(),
            config.output.clone(),
        ));
        tokio::spawn(read_stderr(
            stderr,
            ring.clone(),
            config.stderr_lines,
            config.output.clone(),
        ));

        let transport = Self {
            child,
            pgid,
            close_stdin: Some(close_tx),
            stderr: ring,
            grace: config.shutdown_grace,
        };
        Ok((
            transport,
            Link {
                outbound: out_tx,
                inbound: in_rx,
            },
        ))
    }

    /// Stops the server: close stdin and wait; SIGTERM the group and wait; SIGKILL the group.
    pub async fn shutdown(&mut self) -> Result<()> {
        if let Some(close) = self.close_stdin.take() {
            let _ = close.send(());
        }
        if self.wait_for_exit(self.grace).await {
            self.signal_group(Signal::SIGTERM);
            return Ok(());
        }
        self.signal_group(Signal::SIGTERM);
        if self.wait_for_exit(self.grace).await {
            return Ok(());
        }
        self.signal_group(Signal::SIGKILL);
        self.child.wait().await?;
        Ok(())
    }

    async fn wait_for_exit(&mut self, grace: Duration) -> bool {
        matches!(
            tokio::time::timeout(grace, self.child.wait()).await,
            Ok(Ok(_))
        )
    }

    /// Signals every process left in the server's group; a group that is gone is fine.
    fn signal_group(&self, signal: Signal) {
        if let Some(pgid) = self.pgid {
            let _ = killpg(pgid, signal);
        }
    }
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        // A transport dropped without `shutdown` must not leave processes behind.
        if matches!(self.child.try_wait(), Ok(None)) || self.close_stdin.is_some() {
            self.signal_group(Signal::SIGKILL);
        }
    }
}

impl Transport for StdioTransport {
    fn kind(&self) -> &'static str {
        "stdio"
    }

    fn diagnostics(&self) -> Vec<String> {
        self.stderr.lines()
    }

    fn close(&mut self) -> BoxFuture<'_, Result<()>> {
        Box::pin(self.shutdown())
    }
}

async fn write_loop(
    mut stdin: ChildStdin,
    mut outbound: mpsc::Receiver<Outbound>,
    mut close: oneshot::Receiver<()>,
) {
    loop {
        let message = tokio::select! {
            _ = &mut close => break,
            message = outbound.recv() => match message {
                Some(message) => message,
                None => break,
            },
        };
        let mut line = message.message.to_string();
        line.push('\n');
        if let Err(e) = stdin.write_all(line.as_bytes()).await {
            tracing::debug!("stdio server stdin closed: {e}");
            break;
        }
        if stdin.flush().await.is_err() {
            break;
        }
    }
    // Dropping stdin closes the pipe: the first step of a graceful shutdown.
}

async fn read_loop(
    stdout: tokio::process::ChildStdout,
    inbound: mpsc::Sender<Inbound>,
    max_len: usize,
    stderr: StderrRing,
    output: Option<OutputHook>,
) {
    let mut reader = LineReader::new(BufReader::new(stdout), max_len).keeping_start(OVERSIZED_KEEP);
    let reason = loop {
        match reader.next_line().await {
            Ok(Some(Line::Data(bytes))) => {
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let event = match serde_json::from_slice::<Value>(&bytes) {
                    Ok(value) => Inbound::Message(value),
                    // The peer fails the request whose id it finds in a line cut short, and
                    // logs anything else.
                    Err(e) => Inbound::Unparsable {
                        text: OutputHook::redact(
                            output.as_ref(),
                            super::unparsable_text(&bytes),
                            bytes.len() > super::UNPARSABLE_KEEP,
                        ),
                        problem: match std::str::from_utf8(&bytes) {
                            // The spec's messages are UTF-8 (2025-11-25 basic/transports,
                            // "stdio"); serde's own words for this are vague.
                            Err(bad) => format!(
                                "not UTF-8: an invalid byte at offset {}",
                                bad.valid_up_to()
                            ),
                            Ok(_) => e.to_string(),
                        },
                        id: None,
                    },
                };
                if inbound.send(event).await.is_err() {
                    return;
                }
            }
            Ok(Some(Line::TooLong { len, start })) => {
                // The request it answers, if its id is near the start, fails at once.
                let oversized = Inbound::Unparsable {
                    text: OutputHook::redact(
                        output.as_ref(),
                        String::from_utf8_lossy(&start).into_owned(),
                        true,
                    ),
                    problem: format!("a {len}-byte message, larger than the {max_len}-byte limit"),
                    id: None,
                };
                if inbound.send(oversized).await.is_err() {
                    return;
                }
            }
            Ok(None) => break "the server closed its output".to_owned(),
            Err(e) => break format!("reading the server's output failed: {e}"),
        }
    };
    // Give the stderr reader a moment so the last words of a crashing server are included.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let last = stderr.last();
    let reason = match last {
        Some(line) => format!("{reason} (last stderr line: {line})"),
        None => reason,
    };
    let _ = inbound.send(Inbound::Closed { reason }).await;
}
