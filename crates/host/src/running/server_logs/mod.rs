//! Each stdio server's stderr, kept: redacted of the server's secret values where it enters
//! the host ([`output::ServerStderr`], the transport's [`gatehouse_mcp::transport::stderr`]
//! hook), then held in a bounded ring per server ([`ring`]), appended to rotating files in the
//! data directory ([`files`]) and announced to subscribers (the app's Logs tab).
//!
//! - [`ring`]: at most 10 000 lines or 2 MiB per server in memory, seeded from the files when a
//!   server's log is first opened in this process, so the app shows earlier runs too.
//! - [`files`]: `<data_dir>/logs/<server-id>.log`, rotated at 5 MiB, three files kept; what
//!   `gatehouse logs` reads and follows.
//! - [`output`]: the transport hook that redacts and keeps each line.
//! - [`clock`]: the lines' UTC timestamps.
//!
//! The hook also hides a secret's start left at a 64 KiB cut. [`files`] gives `read_tail` and a
//! `Follower` that survives rotation, which `gatehouse logs` uses. New lines are broadcast to
//! subscribers (at most 1 024 queued); the app batches them every 100 ms.

pub(crate) mod clock;
pub mod files;
mod line;
pub(crate) mod output;
pub mod ring;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::broadcast;

use files::LogFile;
pub use line::{LIVE_QUEUE, LOGS_DIR, LogLine, MAX_LINE_ON_DISK, ServerLogLine};
use ring::LogRing;

/// One server's log: its ring, its file and the next sequence number.
#[derive(Debug)]
struct Book {
    ring: LogRing,
    file: LogFile,
    next_seq: u64,
    /// Whether a failure to write the file was logged already.
    write_failed: bool,
}

/// Every server's log, shared by the clones of a host's registry.
#[derive(Debug, Clone)]
pub struct ServerLogs {
    dir: PathBuf,
    books: Arc<Mutex<HashMap<String, Book>>>,
    live: broadcast::Sender<ServerLogLine>,
}

impl ServerLogs {
    /// The logs kept under `data_dir/logs`.
    pub fn new(data_dir: &Path) -> Self {
        Self {
            dir: data_dir.join(LOGS_DIR),
            books: Arc::default(),
            live: broadcast::channel(LIVE_QUEUE).0,
        }
    }

    /// The directory of the log files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Book>> {
        self.books.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the server's book, opening it (seeded from its files) if needed.
    fn with_book<T>(&self, server_id: &str, f: impl FnOnce(&mut Book) -> T) -> T {
        let mut books = self.lock();
        let book = books
            .entry(server_id.to_owned())
            .or_insert_with(|| self.open_book(server_id));
        f(book)
    }

    fn open_book(&self, server_id: &str) -> Book {
        let mut ring = LogRing::default();
        let mut next_seq = 1;
        match files::read_tail(
            &self.dir,
            server_id,
            ring::MAX_LINES,
            ring::MAX_BYTES as u64,
        ) {
            Ok(tail) => {
                for (time, line) in tail.lines {
                    ring.push(LogLine {
                        seq: next_seq,
                        time,
                        line,
                    });
                    next_seq += 1;
                }
            }
            Err(e) => tracing::warn!("cannot read the log of server {server_id}: {e}"),
        }
        Book {
            ring,
            file: LogFile::new(&self.dir, server_id),
            next_seq,
            write_failed: false,
        }
    }

    /// Keeps a redacted stderr line of a server: in its ring, its file and for subscribers.
    pub fn append(&self, server_id: &str, text: &str) {
        let line = self.with_book(server_id, |book| {
            let line = LogLine {
                seq: book.next_seq,
                time: clock::now(),
                line: text.to_owned(),
            };
            book.next_seq += 1;
            match book.file.append(&line) {
                Ok(()) => book.write_failed = false,
                Err(e) if !book.write_failed => {
                    book.write_failed = true;
                    tracing::warn!("cannot write the log of server {server_id}: {e}");
                }
                Err(_) => {}
            }
            book.ring.push(line.clone());
            line
        });
        // Nobody listening is fine.
        let _ = self.live.send(ServerLogLine {
            server_id: server_id.to_owned(),
            line,
        });
    }

    /// The server's last `n` lines, oldest first (earlier runs' lines included).
    pub fn last(&self, server_id: &str, n: usize) -> Vec<LogLine> {
        self.with_book(server_id, |book| book.ring.last(n))
    }

    /// New lines of every server, as they are kept.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerLogLine> {
        self.live.subscribe()
    }

    /// Forgets a removed server's log, its files included.
    pub fn remove(&self, server_id: &str) {
        self.lock().remove(server_id);
        files::remove(&self.dir, server_id);
    }
}
