//! Standard output that a closed pipe ends quietly. `gatehouse call … | head -5` closes the
//! pipe while the command still prints; `println!` would panic on the broken pipe. Every
//! command prints through here instead: after the first failed write nothing more is written,
//! the command goes on to close its server as usual, and `main` then exits with status 141
//! (128 + SIGPIPE, what a shell reports for a Unix tool that a closed pipe ends) without a
//! message. Any other write error (a full disk) is reported once, with exit status 1.

use std::io::{self, Write};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status after the reader closed stdout.
pub const CLOSED_PIPE_STATUS: u8 = 141;

static CLOSED: AtomicBool = AtomicBool::new(false);
static FAILED: OnceLock<String> = OnceLock::new();

/// Whether stdout is gone: nothing more need be printed.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Why writing to stdout failed, when it was not a closed pipe.
pub fn failure() -> Option<&'static str> {
    FAILED.get().map(String::as_str)
}

fn note(error: &io::Error) {
    CLOSED.store(true, Ordering::Relaxed);
    if error.kind() != io::ErrorKind::BrokenPipe {
        let _ = FAILED.set(error.to_string());
    }
}

/// Writes `text` to stdout, unless it is closed.
pub fn write(text: &str) {
    if closed() {
        return;
    }
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        note(&e);
    }
}

/// Writes `text` and a newline to stdout, unless it is closed.
pub fn line(text: &str) {
    if closed() {
        return;
    }
    let mut out = io::stdout().lock();
    let written = out
        .write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if let Err(e) = written {
        note(&e);
    }
}

/// Writes `text` and a newline to stderr; a closed stderr is ignored.
pub fn error_line(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err
        .write_all(text.as_bytes())
        .and_then(|()| err.write_all(b"\n"));
}

/// Stdout as an [`io::Write`] for streaming output (`audit export`): a failed write is noted
/// as above and still returned, so the writer stops.
#[derive(Debug)]
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if closed() {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        io::stdout().lock().write(buf).inspect_err(note)
    }

    fn flush(&mut self) -> io::Result<()> {
        if closed() {
            return Ok(());
        }
        io::stdout().lock().flush().inspect_err(note)
    }
}
