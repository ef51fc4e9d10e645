//! The stdio transport: newline-delimited JSON over a child process's pipes.
//!
//! The child runs in its own process group so that shutdown reaches everything it started.
//! Stdout lines that are not JSON are logged and skipped (2025-11-25 basic/transports, "stdio":
//! servers must not write anything else there, but real ones do). Stderr is read by
//! [`super::stderr`]: redacted by the host's [`OutputHook`] first, then kept in a ring buffer
//! for diagnostics and handed to the host. Shutdown follows the spec's order (2025-11-25
//! basic/lifecycle, "Shutdown", stdio): close stdin and wait [`StdioConfig::stop_grace`];
//! SIGTERM to the group and wait [`StdioConfig::term_grace`]; SIGKILL to the group. A stop is
//! over when the server has exited *and* nothing is left in its group, so a grandchild that
//! outlives its parent is stopped too. Stdout lines are read with a bound ([`super::lines`]):
//! of an oversized line only its start is kept.
//!
//! A task owns the child and publishes its exit, so when stdout closes the pending requests fail
//! with the server's exit status. A transport dropped without `close()` sends SIGKILL to the
//! group, unless the server has exited and its group is empty (its id may then be reused).
//!
//! A host that dies without stopping its servers leaves none behind: the child gets SIGKILL
//! with its parent (`child_guard`, Linux), the [`watchdog`](super::watchdog) stops every group
//! still listed, and a [`GroupRecord`] lets the host keep a record that outlives it: it is told
//! when a group starts and when nothing of it is left (the host keeps the record in SQLite).

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde_json::Value;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, oneshot, watch};

use super::lines::{Line, LineReader};
use super::owned_task::OwnedTask;
pub use super::stderr::MAX_STDERR_LINE;
use super::stderr::{OutputHook, StderrRing, read_stderr};
use super::{BoxFuture, Inbound, Link, Outbound, Transport, child_guard, command_path, watchdog};
use crate::error::{McpError, Result};
use crate::sensitive::Sensitive;

/// Told when a server's process group starts and when nothing of it is left, so that a record
/// of it can outlive the host (the engine keeps one in its database and, at start-up, stops
/// the groups a host that is gone left behind). Called synchronously: queue, do not block.
pub trait GroupRecord: Send + Sync + std::fmt::Debug {
    /// The group `pgid` (the server's process id) started.
    fn started(&self, pgid: u32);
    /// Nothing is left of the group `pgid`.
    fn gone(&self, pgid: u32);
}

/// The default wait after closing a server's stdin.
pub const DEFAULT_STOP_GRACE: Duration = Duration::from_secs(2);
/// The default wait after SIGTERM.
pub const DEFAULT_TERM_GRACE: Duration = Duration::from_secs(3);
/// How long the group may take to go after SIGKILL before the stop gives up waiting.
const KILL_WAIT: Duration = Duration::from_secs(1);
/// How often a stop checks whether anything is left in the group.
const GROUP_POLL: Duration = Duration::from_millis(20);
/// How long a closed stdout waits for the server's exit status, to say how it ended.
const EXIT_WAIT: Duration = Duration::from_millis(500);
/// How long the end of the output waits for the end of stderr, so that a crashing server's
/// last stderr line is in the reason its requests fail with.
const STDERR_DRAIN: Duration = Duration::from_millis(250);

/// How to start a stdio server.
#[derive(Debug, Clone)]
pub struct StdioConfig {
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// Variables of this process's environment the server does not inherit (the host's own
    /// secrets); `env` and `secret_env` may still set them.
    pub env_remove: Vec<String>,
    /// Secret environment values (resolved from the keyring), set after `env`; `{:?}` of the
    /// config shows them as `<redacted>`.
    pub secret_env: Vec<(String, Sensitive<String>)>,
    pub cwd: Option<PathBuf>,
    /// Longest accepted message line, in bytes.
    pub max_message_bytes: usize,
    /// How many stderr lines to keep.
    pub stderr_lines: usize,
    /// How long a stop waits after closing stdin before it sends SIGTERM to the group.
    pub stop_grace: Duration,
    /// How long a stop waits after SIGTERM before it sends SIGKILL to the group.
    pub term_grace: Duration,
    /// Told when the server's process group starts and when it is gone.
    pub groups: Option<Arc<dyn GroupRecord>>,
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
            env_remove: Vec::new(),
            secret_env: Vec::new(),
            cwd: None,
            max_message_bytes: 16 * 1024 * 1024,
            stderr_lines: 200,
            stop_grace: DEFAULT_STOP_GRACE,
            term_grace: DEFAULT_TERM_GRACE,
            groups: None,
            output: None,
        }
    }
}

/// How much of an oversized stdout line is held, to find the id of the request it answers.
const OVERSIZED_KEEP: usize = 4096;

/// How a server's process ended.
#[derive(Debug, Clone, Copy)]
enum Exit {
    Status(ExitStatus),
    /// Waiting for it failed; it is gone all the same.
    Unknown,
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::os::unix::process::ExitStatusExt;
        match self {
            Exit::Status(status) => match (status.code(), status.signal()) {
                (Some(code), _) => write!(f, "exited with status {code}"),
                (None, Some(signal)) => match Signal::try_from(signal) {
                    Ok(name) => write!(f, "was killed by signal {signal} ({name})"),
                    Err(_) => write!(f, "was killed by signal {signal}"),
                },
                (None, None) => write!(f, "exited ({status})"),
            },
            Exit::Unknown => write!(f, "exited"),
        }
    }
}

/// A running stdio server.
#[derive(Debug)]
pub struct StdioTransport {
    pgid: Option<Pid>,
    close_stdin: Option<oneshot::Sender<()>>,
    stderr: StderrRing,
    stop_grace: Duration,
    term_grace: Duration,
    /// The server's exit, once it has exited.
    exit: watch::Receiver<Option<Exit>>,
    /// Waits for the child; dropping it drops the child, which kills it.
    _reaper: OwnedTask,
    groups: Option<Arc<dyn GroupRecord>>,
    /// Nothing is left of the group, and the watchdog and the record were told.
    released: bool,
}

impl StdioTransport {
    /// Starts the server and returns the transport with the peer's link to it.
    pub fn spawn(config: &StdioConfig) -> Result<(Self, Link)> {
        let program = command_path::resolve(&config.command, &config.env, config.cwd.as_deref())?;
        let mut command = Command::new(&program);
        for name in &config.env_remove {
            command.env_remove(name);
        }
        command
            .arg0(&config.command)
            .args(&config.args)
            .envs(config.env.iter().map(|(k, v)| (k, v)))
            .envs(config.secret_env.iter().map(|(k, v)| (k, v.expose())))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        if let Some(cwd) = &config.cwd {
            command.current_dir(cwd);
        }
        child_guard::die_with_host(&mut command);
        let mut child = command.spawn().map_err(|source| McpError::Spawn {
            command: config.command.clone(),
            source,
        })?;
        let pgid = child
            .id()
            .and_then(|pid| i32::try_from(pid).ok())
            .map(Pid::from_raw);
        if let Some(pgid) = pgid {
            watchdog::guard(pgid.as_raw());
            if let Some(groups) = &config.groups {
                groups.started(pgid.as_raw().unsigned_abs());
            }
        }
        let (exit_tx, exit) = watch::channel(None);
        let mut transport = Self {
            pgid,
            close_stdin: None,
            stderr: StderrRing::default(),
            stop_grace: config.stop_grace,
            term_grace: config.term_grace,
            exit,
            _reaper: OwnedTask::spawn(async {}),
            groups: config.groups.clone(),
            released: false,
        };
        // From here on, dropping `transport` stops the group.
        let missing = |what: &str| McpError::Io(std::io::Error::other(format!("no {what} pipe")));
        let stdin = child.stdin.take().ok_or_else(|| missing("stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| missing("stdout"))?;
        let stderr = child.stderr.take().ok_or_else(|| missing("stderr"))?;
        transport._reaper = OwnedTask::spawn(reap(child, exit_tx));

        let ring = transport.stderr.clone();
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(64);
        let (in_tx, in_rx) = mpsc::channel::<Inbound>(256);
        let (close_tx, close_rx) = oneshot::channel();
        transport.close_stdin = Some(close_tx);

        tokio::spawn(write_loop(stdin, out_rx, close_rx));
        let (stderr_ended_tx, stderr_ended) = oneshot::channel::<()>();
        tokio::spawn(read_loop(
            stdout,
            in_tx,
            config.max_message_bytes,
            ring.clone(),
            config.output.clone(),
            transport.exit.clone(),
            stderr_ended,
        ));
        let (stderr_lines, output) = (config.stderr_lines, config.output.clone());
        tokio::spawn(async move {
            read_stderr(stderr, ring, stderr_lines, output).await;
            let _ = stderr_ended_tx.send(());
        });

        Ok((
            transport,
            Link {
                outbound: out_tx,
                inbound: in_rx,
            },
        ))
    }

    /// The server's process group (its process id), while it runs.
    pub fn process_group(&self) -> Option<u32> {
        self.pgid.map(|p| p.as_raw().unsigned_abs())
    }

    /// Stops the server: close stdin and wait; SIGTERM the group and wait; SIGKILL the group.
    /// Each wait ends early once the server has exited and nothing is left in its group.
    pub async fn shutdown(&mut self) -> Result<()> {
        if let Some(close) = self.close_stdin.take() {
            let _ = close.send(());
        }
        let steps = [
            (None, self.stop_grace),
            (Some(Signal::SIGTERM), self.term_grace),
            (Some(Signal::SIGKILL), KILL_WAIT),
        ];
        let mut stopped = false;
        for (signal, wait) in steps {
            if let Some(signal) = signal {
                self.signal_group(signal);
            }
            if self.wait_gone(wait).await {
                stopped = true;
                break;
            }
        }
        if !stopped {
            tracing::warn!(
                "stdio server group {:?} is still there {KILL_WAIT:?} after SIGKILL",
                self.pgid
            );
        }
        self.release();
        Ok(())
    }

    /// Waits at most `within` for the server to exit and its group to empty.
    async fn wait_gone(&mut self, within: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        let exited = tokio::time::timeout_at(deadline, self.exit.wait_for(Option::is_some))
            .await
            .is_ok_and(|waited| waited.is_ok());
        if !exited {
            return false;
        }
        loop {
            if !self.group_left() {
                return true;
            }
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(GROUP_POLL).await;
        }
    }

    /// Whether a process (other than one that has exited and awaits its parent) is left in
    /// the server's group.
    fn group_left(&self) -> bool {
        let Some(pgid) = self.pgid else {
            return false;
        };
        match killpg(pgid, None) {
            Ok(()) | Err(nix::errno::Errno::EPERM) => {
                super::group_members::live_member(pgid.as_raw())
            }
            Err(_) => false,
        }
    }

    /// Signals every process left in the server's group; a group that is gone is fine.
    fn signal_group(&self, signal: Signal) {
        if let Some(pgid) = self.pgid {
            let _ = killpg(pgid, signal);
        }
    }

    /// Tells the watchdog and the record that nothing is left of the group.
    fn release(&mut self) {
        if std::mem::replace(&mut self.released, true) {
            return;
        }
        if let Some(pgid) = self.pgid {
            watchdog::release(pgid.as_raw());
            if let Some(groups) = &self.groups {
                groups.gone(pgid.as_raw().unsigned_abs());
            }
        }
    }
}

/// Waits for the child and publishes how it ended.
async fn reap(mut child: Child, exit: watch::Sender<Option<Exit>>) {
    let ended = match child.wait().await {
        Ok(status) => Exit::Status(status),
        Err(e) => {
            tracing::debug!("waiting for a stdio server failed: {e}");
            Exit::Unknown
        }
    };
    exit.send_replace(Some(ended));
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        // A transport dropped without `shutdown` must not leave processes behind.
        // Once the server has exited and its group is empty, the id may be reused: leave it.
        if !self.released {
            if self.exit.borrow().is_none() || self.group_left() {
                self.signal_group(Signal::SIGKILL);
            }
            self.release();
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
    mut exit: watch::Receiver<Option<Exit>>,
    stderr_ended: oneshot::Receiver<()>,
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
    // Requests in flight fail with this reason: say how the server ended if it did.
    let ended: Option<Exit> =
        match tokio::time::timeout(EXIT_WAIT, exit.wait_for(Option::is_some)).await {
            Ok(Ok(ended)) => *ended,
            _ => None,
        };
    let reason = match ended {
        Some(ended) => format!("the server {ended}"),
        None => reason,
    };
    // The last words of a crashing server are included once its stderr has ended too (or
    // after a bounded wait, as a child it left behind may hold the pipe open).
    let _ = tokio::time::timeout(STDERR_DRAIN, stderr_ended).await;
    let last = stderr.last();
    let reason = match last {
        Some(line) => format!("{reason} (last stderr line: {line})"),
        None => reason,
    };
    let _ = inbound.send(Inbound::Closed { reason }).await;
}
