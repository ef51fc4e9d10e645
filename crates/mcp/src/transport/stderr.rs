//! A stdio server's stderr: read line by line (a line longer than [`MAX_STDERR_LINE`], 64 KiB,
//! keeps only its start), handed first to the host's [`ServerOutput`] hook
//! (`StdioConfig::output`) to be redacted, and only then
//! logged, kept in a small ring for error messages ("last stderr line") and passed back to the
//! host to keep.
//!
//! Servers print their configuration on stderr, secrets included, so nothing here sees a line
//! before [`ServerOutput::redact`] has: not the ring, not `tracing`, not an error message.
//! Stdout text that is not a message goes through the same `redact` before it is logged or
//! quoted.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::io::{AsyncRead, BufReader};

use super::lines::{Line, LineReader};

/// The longest stderr line kept, in bytes: a longer one keeps its start and is marked
/// `… [truncated: N bytes]`, and the rest is never held in memory.
pub const MAX_STDERR_LINE: usize = 64 * 1024;

/// What the host does with a server's output text. `redact` runs on every stderr line (and on
/// stdout text that is not a message) before anything else sees it; `stderr_line` then receives
/// each redacted, non-empty stderr line.
pub trait ServerOutput: Send + Sync {
    /// `text` as it may be kept and shown. `cut` says the text is the start of a longer line,
    /// so a secret may straddle its end.
    fn redact(&self, text: &str, cut: bool) -> String;

    /// A redacted stderr line, for the host to keep (logs, files, a live view).
    fn stderr_line(&self, line: &str);
}

/// A shared [`ServerOutput`], as a [`super::stdio::StdioConfig`] holds it.
#[derive(Clone)]
pub struct OutputHook(pub Arc<dyn ServerOutput>);

impl fmt::Debug for OutputHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OutputHook")
    }
}

impl OutputHook {
    /// Redacts `text` with `hook`, if there is one.
    pub(crate) fn redact(hook: Option<&OutputHook>, text: String, cut: bool) -> String {
        match hook {
            Some(hook) => hook.0.redact(&text, cut),
            None => text,
        }
    }
}

/// The last redacted stderr lines of one server, for diagnostics and error messages.
#[derive(Debug, Clone, Default)]
pub(crate) struct StderrRing(Arc<Mutex<VecDeque<String>>>);

impl StderrRing {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<String>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn push(&self, line: String, keep: usize) {
        let mut ring = self.lock();
        if ring.len() >= keep.max(1) {
            ring.pop_front();
        }
        ring.push_back(line);
    }

    /// The most recent line.
    pub(crate) fn last(&self) -> Option<String> {
        self.lock().back().cloned()
    }

    /// Every line kept, oldest first.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.lock().iter().cloned().collect()
    }
}

/// Reads `stderr` until it ends: each line redacted, logged at debug level, kept in `ring`
/// (at most `keep` lines) and handed to `hook`.
pub(crate) async fn read_stderr(
    stderr: impl AsyncRead + Unpin,
    ring: StderrRing,
    keep: usize,
    hook: Option<OutputHook>,
) {
    let mut lines =
        LineReader::new(BufReader::new(stderr), MAX_STDERR_LINE).keeping_start(MAX_STDERR_LINE);
    while let Ok(Some(line)) = lines.next_line().await {
        let line = match line {
            Line::Data(bytes) => {
                let text = String::from_utf8_lossy(&bytes).trim_end().to_owned();
                OutputHook::redact(hook.as_ref(), text, false)
            }
            Line::TooLong { len, start } => {
                tracing::debug!(
                    "a {len}-byte stderr line was cut to its first {MAX_STDERR_LINE} bytes"
                );
                let text = String::from_utf8_lossy(&start).into_owned();
                let kept = OutputHook::redact(hook.as_ref(), text, true);
                format!("{} … [truncated: {len} bytes]", kept.trim_end())
            }
        };
        if line.is_empty() {
            continue;
        }
        tracing::debug!(target: "gatehouse_mcp::stderr", "{line}");
        if let Some(hook) = &hook {
            hook.0.stderr_line(&line);
        }
        ring.push(line, keep);
    }
}
