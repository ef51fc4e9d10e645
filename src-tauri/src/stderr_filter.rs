//! The app's stderr, read back before it is written anywhere, so that Tauri's invoke key never
//! reaches a terminal, a log file or a bug report.
//!
//! Tauri 2.12.5 (the newest 2.x) prints `__TAURI_INVOKE_KEY__ expected <key> but received
//! <key>` on stderr whenever an IPC message arrives with a wrong key (`Webview::on_message`,
//! `tauri/src/webview/mod.rs`), and any frame can send one at will. At start-up, before any
//! other thread runs, [`install`] puts a pipe in place of file descriptor 2 (so Tauri's and
//! WebKit's writes, and those of every process the app starts with its stderr, go into it) and
//! starts a thread that reads it line by line and writes each line to the real stderr: a line
//! with that message is replaced by a notice without the keys, and the key itself, once the app
//! knows it ([`Withheld::add`]), is replaced wherever it appears. [`StderrFilter::finish`] (or
//! dropping the filter) puts the real stderr back once every line written before it has been
//! passed on. (Processes the app started keep writing into the pipe; the thread passes that on
//! until the app exits.)
//!
//! The thread never stops reading (a write error to the real stderr is ignored), since a full
//! pipe would block every writer; a line past 64 KiB is passed on in pieces that keep back the
//! length of the longest withheld value, so no value is cut in two.

use std::io::{self, BufRead, BufReader, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::mpsc;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

/// What Tauri's wrong-key message starts with.
const WRONG_KEY_MESSAGE: &[u8] = b"__TAURI_INVOKE_KEY__";
/// What a line with that message becomes.
const WRONG_KEY_NOTICE: &[u8] =
    b"an IPC message with a wrong invoke key was refused (the keys are withheld)\n";
/// What a withheld value becomes.
const WITHHELD: &[u8] = b"<withheld>";
/// The longest line handled whole; a longer one is passed on in pieces of this size.
const MAX_LINE: usize = 64 * 1024;
/// How long [`StderrFilter::finish`] waits for the thread to pass on what is left.
const DRAIN_WAIT: Duration = Duration::from_secs(1);

/// Values that must never be written to stderr (shared with the thread that filters it).
#[derive(Debug, Clone, Default)]
pub struct Withheld(Arc<RwLock<Vec<Vec<u8>>>>);

impl Withheld {
    /// Withholds `secret` from every line written from now on.
    pub fn add(&self, secret: &str) {
        if secret.is_empty() {
            return;
        }
        let mut values = self.0.write().unwrap_or_else(PoisonError::into_inner);
        if !values.iter().any(|v| v == secret.as_bytes()) {
            values.push(secret.as_bytes().to_vec());
        }
    }

    /// The line as it may be written.
    pub fn filter(&self, line: &[u8]) -> Vec<u8> {
        if find(line, WRONG_KEY_MESSAGE).is_some() {
            return WRONG_KEY_NOTICE.to_vec();
        }
        let values = self.0.read().unwrap_or_else(PoisonError::into_inner);
        let mut out = line.to_vec();
        for value in values.iter() {
            out = replace_all(&out, value, WITHHELD);
        }
        out
    }

    /// The longest value withheld.
    fn longest(&self) -> usize {
        let values = self.0.read().unwrap_or_else(PoisonError::into_inner);
        values.iter().map(Vec::len).max().unwrap_or(0)
    }
}

/// The stderr filter of the running app.
#[derive(Debug)]
pub struct StderrFilter {
    original: OwnedFd,
    withheld: Withheld,
    /// The line that marks the end of what this process wrote, and the thread's word that it
    /// has passed on everything before it.
    sentinel: Vec<u8>,
    drained: mpsc::Receiver<()>,
    finished: bool,
}

impl StderrFilter {
    /// Withholds `secret` (the invoke key, once it is known) from every line from now on.
    pub fn withhold(&self, secret: &str) {
        self.withheld.add(secret);
    }

    /// Waits (at most [`DRAIN_WAIT`]) until every line written so far has been passed on, then
    /// puts the real stderr back. Call it last before the process exits (Tauri's event loop
    /// exits the process without returning).
    pub fn finish(&mut self) {
        if std::mem::replace(&mut self.finished, true) {
            return;
        }
        let mut stderr = io::stderr().lock();
        if stderr.write_all(&self.sentinel).is_ok() && stderr.flush().is_ok() {
            let _ = self.drained.recv_timeout(DRAIN_WAIT);
        }
        let _ = nix::unistd::dup2_stderr(&self.original);
    }
}

impl Drop for StderrFilter {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Puts the filter in place of file descriptor 2. Call it first thing in `main`.
pub fn install() -> io::Result<StderrFilter> {
    let original = io::stderr().as_fd().try_clone_to_owned()?;
    let (reader, writer) = io::pipe()?;
    let withheld = Withheld::default();
    let (drained_tx, drained) = mpsc::channel();
    let out = std::fs::File::from(original.try_clone()?);
    let filter = withheld.clone();
    let sentinel = format!("gatehouse-stderr-drained-{}\n", uuid::Uuid::new_v4()).into_bytes();
    let marker = sentinel.clone();
    std::thread::Builder::new()
        .name("stderr-filter".into())
        .spawn(move || {
            pass_on(BufReader::new(reader), out, &filter, &marker, || {
                let _ = drained_tx.send(());
            });
        })?;
    nix::unistd::dup2_stderr(&writer).map_err(io::Error::from)?;
    // fd 2 is now the pipe's only write end in this process.
    drop(writer);
    Ok(StderrFilter {
        original,
        withheld,
        sentinel,
        drained,
        finished: false,
    })
}

/// Copies `input` to `out` line by line through `withheld`, until the input ends; the line
/// `sentinel` is not passed on but calls `drained`. A line longer than [`MAX_LINE`] is passed
/// on in pieces, each keeping back the end that could be the start of a withheld value, so no
/// value is ever cut in two.
pub fn pass_on(
    mut input: impl BufRead,
    mut out: impl Write,
    withheld: &Withheld,
    sentinel: &[u8],
    mut drained: impl FnMut(),
) {
    let mut line = Vec::new();
    loop {
        let available = match input.fill_buf() {
            Ok([]) => break,
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let (taken, ends_line) = match available.iter().position(|b| *b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        line.extend_from_slice(&available[..taken]);
        input.consume(taken);
        if ends_line {
            if line == sentinel {
                let _ = out.flush();
                drained();
            } else {
                // Write errors are ignored: the real stderr may be closed, and the pipe must
                // keep being read whatever happens.
                let _ = out.write_all(&withheld.filter(&line));
            }
            line.clear();
        } else if line.len() >= MAX_LINE {
            let keep = withheld
                .longest()
                .max(WRONG_KEY_MESSAGE.len())
                .min(line.len());
            let rest = line.split_off(line.len() - keep);
            let _ = out.write_all(&withheld.filter(&line));
            line = rest;
        }
    }
    if !line.is_empty() {
        let _ = out.write_all(&withheld.filter(&line));
    }
    let _ = out.flush();
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > haystack.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn replace_all(haystack: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(at) = find(rest, needle) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(with);
        rest = &rest[at + needle.len()..];
    }
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "f9&Kx0%Qw.Z2]bT!aa1=";

    const SENTINEL: &[u8] = b"end-of-test\n";

    fn run(input: &[u8], withheld: &Withheld) -> String {
        let mut out = Vec::new();
        pass_on(input, &mut out, withheld, SENTINEL, || {});
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn tauris_wrong_key_message_is_replaced_whole() {
        let withheld = Withheld::default();
        let text =
            format!("before\n__TAURI_INVOKE_KEY__ expected {KEY} but received guessed\nafter\n");
        let out = run(text.as_bytes(), &withheld);
        assert!(!out.contains(KEY), "the expected key never gets out: {out}");
        assert_eq!(
            out,
            format!(
                "before\n{}after\n",
                String::from_utf8_lossy(WRONG_KEY_NOTICE)
            ),
            "the other lines pass unchanged, and the refusal is still said"
        );
    }

    #[test]
    fn the_key_is_withheld_wherever_it_appears() {
        let withheld = Withheld::default();
        withheld.add(KEY);
        let out = run(
            format!("a {KEY} b {KEY}\nno newline at the end {KEY}").as_bytes(),
            &withheld,
        );
        assert_eq!(
            out,
            "a <withheld> b <withheld>\nno newline at the end <withheld>"
        );
    }

    #[test]
    fn a_key_across_the_cut_of_a_long_line_is_still_withheld() {
        let withheld = Withheld::default();
        withheld.add(KEY);
        for before in [MAX_LINE - 5, MAX_LINE - KEY.len(), MAX_LINE, MAX_LINE + 3] {
            let line = format!("{}{KEY}{}\n", "x".repeat(before), "y".repeat(10));
            let out = run(line.as_bytes(), &withheld);
            assert!(!out.contains(KEY), "cut at {before}");
            assert_eq!(out.len(), line.len() - KEY.len() + WITHHELD.len());
        }
    }

    #[test]
    fn a_line_read_in_small_pieces_is_filtered_whole() {
        let withheld = Withheld::default();
        let text = format!("__TAURI_INVOKE_KEY__ expected {KEY} but received x\n");
        // One byte per read, as a pipe may deliver it.
        let input = BufReader::with_capacity(1, text.as_bytes());
        let mut out = Vec::new();
        pass_on(input, &mut out, &withheld, SENTINEL, || {});
        assert_eq!(out, WRONG_KEY_NOTICE);
    }

    #[test]
    fn the_sentinel_comes_after_everything_written_before_it() {
        /// A writer whose bytes the drained callback can see.
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let written = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut at_sentinel = None;
        pass_on(
            &b"one\nend-of-test\ntwo\n"[..],
            Shared(written.clone()),
            &Withheld::default(),
            SENTINEL,
            || at_sentinel = Some(written.borrow().clone()),
        );
        assert_eq!(at_sentinel.as_deref(), Some(&b"one\n"[..]));
        assert_eq!(
            *written.borrow(),
            b"one\ntwo\n",
            "the sentinel itself is not written"
        );
    }
}
