//! Each server's stderr on disk, so it survives restarts and the CLI can read it while the app
//! runs: `<data_dir>/logs/<server-id>.log`, one line per stderr line (`<time>\t<line>`, the line
//! already redacted), rotated at [`MAX_FILE_BYTES`] to `.log.1` and `.log.2`: at most
//! [`KEPT_FILES`] files, 15 MiB, per server.
//!
//! Several processes may write one server's file (the app and a CLI command that starts the
//! same server): each line is one `write` on a file opened for appending, and a writer that
//! finds its file rotated by another process reopens the path (checked at most once a second).

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::LogLine;

/// The size at which a log file is rotated.
pub const MAX_FILE_BYTES: u64 = 5 * 1024 * 1024;

/// How many files a server's log spans: the current one and the rotated ones.
pub const KEPT_FILES: usize = 3;

/// How often a writer checks that its file is still the one at its path.
const RECHECK: Duration = Duration::from_secs(1);

/// The name of a server's log files: its id, with anything but letters, digits, `-` and `_`
/// replaced (ids are UUIDs; this only guards the path).
fn stem(server_id: &str) -> String {
    server_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The path of a server's log file: `n` = 0 is the current one, 1 and 2 the rotated ones.
pub fn path(dir: &Path, server_id: &str, n: usize) -> PathBuf {
    if n == 0 {
        dir.join(format!("{}.log", stem(server_id)))
    } else {
        dir.join(format!("{}.log.{n}", stem(server_id)))
    }
}

/// A line as it is written to the file.
fn encode(line: &LogLine) -> String {
    format!("{}\t{}\n", line.time, line.line.replace('\n', " "))
}

/// A line of the file as `(time, line)`; a line without a tab is all text.
fn decode(text: &str) -> (String, String) {
    match text.split_once('\t') {
        Some((time, line)) => (time.to_owned(), line.to_owned()),
        None => (String::new(), text.to_owned()),
    }
}

/// Appends a server's lines to its file, rotating it.
#[derive(Debug)]
pub struct LogFile {
    dir: PathBuf,
    server_id: String,
    open: Option<Open>,
}

#[derive(Debug)]
struct Open {
    file: File,
    ino: u64,
    size: u64,
    checked: Instant,
}

impl LogFile {
    pub fn new(dir: &Path, server_id: &str) -> Self {
        Self {
            dir: dir.to_path_buf(),
            server_id: server_id.to_owned(),
            open: None,
        }
    }

    fn current(&self) -> PathBuf {
        path(&self.dir, &self.server_id, 0)
    }

    fn reopen(&mut self) -> io::Result<&mut Open> {
        std::fs::create_dir_all(&self.dir)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.current())?;
        let meta = file.metadata()?;
        Ok(self.open.insert(Open {
            file,
            ino: meta.ino(),
            size: meta.len(),
            checked: Instant::now(),
        }))
    }

    /// Appends one line, rotating first if the file is full.
    pub fn append(&mut self, line: &LogLine) -> io::Result<()> {
        let stale = match &self.open {
            None => true,
            Some(open) if open.checked.elapsed() >= RECHECK => {
                // Another process may have rotated the file.
                std::fs::metadata(self.current()).map_or(true, |meta| meta.ino() != open.ino)
            }
            Some(_) => false,
        };
        if stale {
            self.reopen()?;
        }
        if self.open.as_ref().is_some_and(|o| o.size >= MAX_FILE_BYTES) {
            self.rotate()?;
        }
        let text = encode(line);
        let open = match self.open.as_mut() {
            Some(open) => open,
            None => self.reopen()?,
        };
        open.file.write_all(text.as_bytes())?;
        open.size += text.len() as u64;
        if stale {
            open.checked = Instant::now();
        }
        Ok(())
    }

    /// `.log.1` → `.log.2`, `.log` → `.log.1`, and a new `.log`.
    fn rotate(&mut self) -> io::Result<()> {
        self.open = None;
        for n in (1..KEPT_FILES).rev() {
            let from = path(&self.dir, &self.server_id, n - 1);
            match std::fs::rename(&from, path(&self.dir, &self.server_id, n)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        tracing::debug!(
            "rotated the log of server {} at {MAX_FILE_BYTES} bytes",
            self.server_id
        );
        self.reopen().map(|_| ())
    }
}

/// Where reading the current file stopped: its inode and offset, for a follower to go on from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub ino: u64,
    pub offset: u64,
}

/// The last lines of a server's files, oldest first, with where the current file ended.
#[derive(Debug, Default)]
pub struct Tail {
    pub lines: Vec<(String, String)>,
    pub end: Option<Position>,
}

/// Reads the last `max_lines` lines (at most about `max_bytes` of file) of a server's files.
pub fn read_tail(
    dir: &Path,
    server_id: &str,
    max_lines: usize,
    max_bytes: u64,
) -> io::Result<Tail> {
    let mut tail = Tail::default();
    let mut budget = max_bytes;
    // Newest file first; each file's lines go before those already read.
    for n in 0..KEPT_FILES {
        // The current file is always opened, for where it ends.
        if n > 0 && (tail.lines.len() >= max_lines || budget == 0) {
            break;
        }
        let mut file = match File::open(path(dir, server_id, n)) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let len = meta.len();
        if n == 0 {
            tail.end = Some(Position {
                ino: meta.ino(),
                offset: len,
            });
        }
        let start = if max_lines == 0 {
            len
        } else {
            len.saturating_sub(budget)
        };
        file.seek(SeekFrom::Start(start))?;
        let mut bytes = Vec::new();
        file.take(len - start).read_to_end(&mut bytes)?;
        budget = budget.saturating_sub(len - start);
        let text = String::from_utf8_lossy(&bytes);
        let mut lines: Vec<&str> = text.lines().collect();
        if start > 0 && !lines.is_empty() {
            // The first line read is probably cut: drop it.
            lines.remove(0);
        }
        let room = max_lines - tail.lines.len();
        let skip = lines.len().saturating_sub(room);
        let mut older: Vec<(String, String)> = lines.into_iter().skip(skip).map(decode).collect();
        older.append(&mut tail.lines);
        tail.lines = older;
    }
    Ok(tail)
}

/// Removes a server's log files.
pub fn remove(dir: &Path, server_id: &str) {
    for n in 0..KEPT_FILES {
        match std::fs::remove_file(path(dir, server_id, n)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                tracing::warn!("cannot remove the log of server {server_id}: {e}");
            }
            _ => {}
        }
    }
}

/// Follows a server's current log file as it grows, across rotations (`tail -F`).
#[derive(Debug)]
pub struct Follower {
    path: PathBuf,
    file: Option<(File, u64)>,
    offset: u64,
    partial: Vec<u8>,
}

/// The most a follower reads in one poll.
const FOLLOW_CHUNK: u64 = 1024 * 1024;

impl Follower {
    /// Follows from `from` (where a [`read_tail`] ended) or, without it, from the file's start.
    pub fn new(dir: &Path, server_id: &str, from: Option<Position>) -> Self {
        let path = path(dir, server_id, 0);
        let mut follower = Follower {
            path,
            file: None,
            offset: 0,
            partial: Vec::new(),
        };
        if let Some(from) = from
            && let Ok(file) = File::open(&follower.path)
            && file.metadata().is_ok_and(|m| m.ino() == from.ino)
        {
            follower.file = Some((file, from.ino));
            follower.offset = from.offset;
        }
        follower
    }

    /// The lines written since the last poll, as `(time, line)`.
    pub fn poll(&mut self) -> io::Result<Vec<(String, String)>> {
        let mut out = Vec::new();
        if self.file.is_none() {
            match File::open(&self.path) {
                Ok(file) => {
                    let ino = file.metadata()?.ino();
                    self.file = Some((file, ino));
                    self.offset = 0;
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
                Err(e) => return Err(e),
            }
        }
        self.read_new(&mut out)?;
        // Rotated (another file at the path) or truncated: what was read is all of the old one.
        let now = std::fs::metadata(&self.path).ok();
        let ino = self.file.as_ref().map(|(_, ino)| *ino);
        match now {
            Some(meta) if Some(meta.ino()) != ino => {
                self.file = None;
                self.partial.clear();
                let mut more = self.poll()?;
                out.append(&mut more);
            }
            Some(meta) if meta.len() < self.offset => {
                self.offset = 0;
                self.partial.clear();
            }
            _ => {}
        }
        Ok(out)
    }

    fn read_new(&mut self, out: &mut Vec<(String, String)>) -> io::Result<()> {
        let Some((file, _)) = self.file.as_mut() else {
            return Ok(());
        };
        loop {
            file.seek(SeekFrom::Start(self.offset))?;
            let mut chunk = Vec::new();
            let read = file.take(FOLLOW_CHUNK).read_to_end(&mut chunk)?;
            if read == 0 {
                return Ok(());
            }
            self.offset += read as u64;
            self.partial.extend_from_slice(&chunk);
            while let Some(at) = self.partial.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.partial.drain(..=at).collect();
                let text = String::from_utf8_lossy(&line[..line.len() - 1]);
                out.push(decode(&text));
            }
            // A line is at most 64 KiB and a timestamp; anything longer is not ours to hold.
            if self.partial.len() > 2 * super::MAX_LINE_ON_DISK {
                self.partial.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> LogLine {
        LogLine {
            seq: 0,
            time: "2026-05-01T12:00:00.000Z".into(),
            line: text.into(),
        }
    }

    #[test]
    fn rotates_keeping_three_files_and_reads_the_tail_across_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut file = LogFile::new(dir.path(), "srv");
        let text = "z".repeat(1000);
        // 16 MiB written: more than three files' worth.
        for i in 0..16 * 1024 {
            file.append(&line(&format!("{i} {text}"))).expect("append");
        }
        let sizes: Vec<u64> = (0..4)
            .map(|n| {
                std::fs::metadata(path(dir.path(), "srv", n))
                    .map(|m| m.len())
                    .unwrap_or(0)
            })
            .collect();
        assert_eq!(sizes[3], 0, "a fourth file is never kept: {sizes:?}");
        for size in &sizes[..3] {
            assert!(*size <= MAX_FILE_BYTES + 2000, "{sizes:?}");
        }
        let tail = read_tail(dir.path(), "srv", 7000, 16 * MAX_FILE_BYTES).expect("tail");
        assert_eq!(tail.lines.len(), 7000, "the tail spans the rotated files");
        let last = 16 * 1024 - 1;
        assert!(tail.lines[6999].1.starts_with(&format!("{last} ")));
        assert!(
            tail.lines[0].1.starts_with(&format!("{} ", last - 6999)),
            "in order, without a gap at the rotation"
        );
        assert_eq!(tail.lines[0].0, "2026-05-01T12:00:00.000Z");
    }

    #[test]
    fn a_follower_reads_new_lines_across_a_rotation() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut file = LogFile::new(dir.path(), "srv");
        file.append(&line("before")).expect("append");
        let tail = read_tail(dir.path(), "srv", 10, MAX_FILE_BYTES).expect("tail");
        assert_eq!(tail.lines.len(), 1);
        let mut follower = Follower::new(dir.path(), "srv", tail.end);
        assert!(follower.poll().expect("poll").is_empty(), "nothing new yet");
        file.append(&line("after")).expect("append");
        let got = follower.poll().expect("poll");
        assert_eq!(
            got,
            vec![("2026-05-01T12:00:00.000Z".into(), "after".into())]
        );
        // Fill the file past its size so that the next line rotates it.
        let big = "q".repeat(64 * 1024);
        let mut written = 0;
        while written <= MAX_FILE_BYTES {
            file.append(&line(&big)).expect("append");
            written += big.len() as u64;
        }
        file.append(&line("in the new file")).expect("append");
        let got = follower.poll().expect("poll");
        assert_eq!(
            got.last().map(|l| l.1.as_str()),
            Some("in the new file"),
            "the follower moved to the new file"
        );
        assert_eq!(
            got.len() as u64,
            written / big.len() as u64 + 1,
            "no line lost"
        );
    }
}
