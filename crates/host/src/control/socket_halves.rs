//! A Unix stream socket split into a read half and a write half that the runtime watches only
//! for what each waits on.
//!
//! tokio registers a socket for readable *and* writable edges. On a Unix socket, every read by
//! the peer frees buffer space on this side and raises a writable edge, so a thread parked in
//! `epoll_wait` is woken after each message the peer reads, for nothing: on a control
//! connection or an agent's stdio that is a wake-up of the engine (or the client) per reply,
//! and on a machine whose idle CPUs halt, tens of microseconds each. Here the socket is
//! registered for reading only; a write goes straight to the socket, and only a write that would
//! block registers a duplicate of the socket for writable edges, kept until a write goes through
//! whole.

use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};

/// The half that reads, registered for readable edges only.
#[derive(Debug)]
pub struct ReadHalf {
    socket: Arc<AsyncFd<UnixStream>>,
}

/// The half that writes, straight to the socket.
#[derive(Debug)]
pub struct WriteHalf {
    socket: Arc<AsyncFd<UnixStream>>,
    /// A duplicate registered for writable edges, while a write waits for room.
    room: Option<AsyncFd<UnixStream>>,
    /// Whether dropping this half shuts the socket down for writing (as tokio's
    /// `OwnedWriteHalf` does), so that the peer reads the end while the read half lives on.
    shutdown_on_drop: bool,
}

/// `stream` registered with the runtime for `interest` alone.
fn register(stream: UnixStream, interest: Interest) -> io::Result<AsyncFd<UnixStream>> {
    #[allow(unsafe_code)]
    // SAFETY: a `UnixStream` owns its descriptor, which stays open and the same for as long as
    // the stream lives, and the stream is only reached through the `AsyncFd` from here on.
    let registered = unsafe { AsyncFd::register_with_interest(stream, interest) };
    registered.map_err(io::Error::from)
}

/// Splits `stream` (made non-blocking here); the write half shuts the socket down for writing
/// when dropped.
pub fn split(stream: UnixStream) -> io::Result<(ReadHalf, WriteHalf)> {
    stream.set_nonblocking(true)?;
    let socket = Arc::new(register(stream, Interest::READABLE)?);
    Ok((
        ReadHalf {
            socket: socket.clone(),
        },
        WriteHalf {
            socket,
            room: None,
            shutdown_on_drop: true,
        },
    ))
}

/// `stream` as a read half alone (an agent's stdin).
pub fn reader(stream: UnixStream) -> io::Result<ReadHalf> {
    split(stream).map(|(read, mut write)| {
        write.shutdown_on_drop = false;
        read
    })
}

/// `stream` as a write half alone that leaves the socket open when dropped (an agent's stdout,
/// which other processes may hold too).
pub fn writer(stream: UnixStream) -> io::Result<WriteHalf> {
    split(stream).map(|(_, mut write)| {
        write.shutdown_on_drop = false;
        write
    })
}

impl ReadHalf {
    /// Runs `io` on the socket once it is readable, until it does not report `WouldBlock`.
    pub async fn read_with<R>(
        &self,
        mut io: impl FnMut(&UnixStream) -> io::Result<R>,
    ) -> io::Result<R> {
        loop {
            let mut guard = self.socket.readable().await?;
            match guard.try_io(|socket| io(socket.get_ref())) {
                Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(result) => return result,
                Err(_would_block) => {}
            }
        }
    }

    /// The socket again, whole and still non-blocking, from the two halves `split` made of it.
    pub fn reunite(self, mut write: WriteHalf) -> io::Result<UnixStream> {
        if !Arc::ptr_eq(&self.socket, &write.socket) {
            return Err(io::Error::other("these halves are of two sockets"));
        }
        write.shutdown_on_drop = false;
        drop(write);
        let Ok(socket) = Arc::try_unwrap(self.socket) else {
            return Err(io::Error::other("the socket is still shared"));
        };
        Ok(socket.into_inner())
    }
}

impl WriteHalf {
    /// Runs `io` on the socket, and again each time it has room while `io` reports
    /// `WouldBlock` (a message sent whole, as `sendmsg` with descriptors is).
    pub async fn write_with<R>(
        &mut self,
        mut io: impl FnMut(&UnixStream) -> io::Result<R>,
    ) -> io::Result<R> {
        let done = std::future::poll_fn(|cx| self.poll_io(cx, &mut io)).await;
        self.room = None;
        done
    }

    fn poll_io<R>(
        &mut self,
        cx: &mut Context<'_>,
        io: &mut impl FnMut(&UnixStream) -> io::Result<R>,
    ) -> Poll<io::Result<R>> {
        loop {
            if let Some(room) = &self.room {
                let mut guard = ready!(room.poll_write_ready(cx))?;
                match guard.try_io(|socket| io(socket.get_ref())) {
                    Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                    Ok(result) => return Poll::Ready(result),
                    Err(_would_block) => {}
                }
                continue;
            }
            match io(self.socket.get_ref()) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let duplicate = self.socket.get_ref().try_clone()?;
                    self.room = Some(register(duplicate, Interest::WRITABLE)?);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                done => return Poll::Ready(done),
            }
        }
    }
}

impl AsyncRead for ReadHalf {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.socket.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|socket| (&mut socket.get_ref()).read(unfilled)) {
                Ok(Ok(read)) => {
                    buf.advance(read);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                Err(_would_block) => {}
            }
        }
    }
}

impl AsyncWrite for WriteHalf {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = ready!(this.poll_io(cx, &mut |mut socket| socket.write(data)));
        if written.as_ref().is_ok_and(|&n| n == data.len()) {
            // Whole: nothing waits for room now, so nothing should be woken when there is.
            this.room = None;
        }
        Poll::Ready(written)
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(match self.socket.get_ref().shutdown(Shutdown::Write) {
            Err(e) if e.kind() != io::ErrorKind::NotConnected => Err(e),
            _ => Ok(()),
        })
    }
}

impl Drop for WriteHalf {
    fn drop(&mut self) {
        if self.shutdown_on_drop {
            let _ = self.socket.get_ref().shutdown(Shutdown::Write);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::fd::AsRawFd;
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    const EPOLLIN: u32 = 0x1;
    const EPOLLOUT: u32 = 0x4;

    /// The inode of the open descriptor `fd`.
    fn inode(fd: &impl AsRawFd) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(format!("/proc/self/fd/{}", fd.as_raw_fd()))
            .expect("the descriptor")
            .ino()
    }

    /// The events this process's epoll instances watch descriptor `fd` of file `inode` for (from
    /// `/proc/self/fdinfo`; the inode tells an entry of ours from one of another test's closed
    /// descriptor of the same number).
    fn watched(fd: i32, inode: u64) -> Vec<u32> {
        let (fd, inode) = (fd.to_string(), format!("ino:{inode:x}"));
        // An epoll instance may have several descriptors (mio keeps a clone to register with),
        // each listing the same entries: each entry once.
        let mut entries = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir("/proc/self/fd").expect("/proc/self/fd") {
            let Ok(entry) = entry else { continue };
            let is_epoll = std::fs::read_link(entry.path())
                .is_ok_and(|target| target.to_string_lossy().contains("eventpoll"));
            if !is_epoll {
                continue;
            }
            let info_path = format!("/proc/self/fdinfo/{}", entry.file_name().to_string_lossy());
            let Ok(info) = std::fs::read_to_string(info_path) else {
                continue;
            };
            for line in info.lines() {
                let fields: Vec<&str> = line.split_whitespace().collect();
                if let ["tfd:", target, "events:", ..] = fields[..]
                    && target == fd
                    && fields.contains(&inode.as_str())
                {
                    entries.insert(line.to_owned());
                }
            }
        }
        entries
            .iter()
            .filter_map(|line| line.split_whitespace().nth(3))
            .map(|events| u32::from_str_radix(events, 16).expect("hex events"))
            .collect()
    }

    fn watched_now(fd: &impl AsRawFd) -> Vec<u32> {
        watched(fd.as_raw_fd(), inode(fd))
    }

    /// The split socket is watched for readable edges only; a write that waits for room adds a
    /// watch for writable ones, on a duplicate, gone once the write has gone through whole.
    /// tokio's own socket, for comparison, is watched for both from the start.
    #[tokio::test]
    async fn the_socket_is_watched_for_reading_only_unless_a_write_waits_for_room() {
        let (tokio_side, _) = tokio::net::UnixStream::pair().expect("a socket pair");
        let tokio_events = watched_now(&tokio_side);
        assert_eq!(tokio_events.len(), 1, "tokio's socket is watched once");
        assert_ne!(tokio_events[0] & EPOLLOUT, 0, "tokio watches for room too");

        let (ours, theirs) = UnixStream::pair().expect("a socket pair");
        let fd = ours.as_raw_fd();
        let (_read, mut write) = split(ours).expect("split");
        let events = watched(fd, inode(&fd));
        assert_eq!(events.len(), 1, "the socket is watched once");
        assert_eq!(
            events[0] & (EPOLLIN | EPOLLOUT),
            EPOLLIN,
            "for reading only"
        );

        write.write_all(b"a line\n").await.expect("written");
        assert!(
            write.room.is_none(),
            "a write with room watches nothing more"
        );

        // Fill the socket: the write waits, watching a duplicate for room.
        let big = vec![7u8; 8 * 1024 * 1024];
        let mut writing = Box::pin(write.write_all(&big));
        let polled = std::future::poll_fn(|cx| Poll::Ready(writing.as_mut().poll(cx))).await;
        assert!(polled.is_pending(), "nobody reads, so the write waits");
        drop(writing);
        let room = write
            .room
            .as_ref()
            .expect("a watch for room while the write waits");
        let room_events = watched_now(room.get_ref());
        assert_eq!(room_events.len(), 1, "the duplicate is watched once");
        assert_ne!(room_events[0] & EPOLLOUT, 0, "for room");

        // Read everything there is: the next whole write drops the watch for room.
        theirs.set_nonblocking(true).expect("non-blocking");
        let mut sink = vec![0u8; 1024 * 1024];
        loop {
            match (&theirs).read(&mut sink) {
                Ok(0) => panic!("the socket ended"),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => panic!("reading the peer: {e}"),
            }
        }
        let duplicate = (room.get_ref().as_raw_fd(), inode(room.get_ref()));
        write
            .write_all(b"x")
            .await
            .expect("written once there is room");
        assert!(write.room.is_none(), "the watch for room is dropped");
        assert!(
            watched(duplicate.0, duplicate.1).is_empty(),
            "nothing watches the duplicate any more"
        );
    }

    /// A write larger than the socket's buffer waits for room and goes through whole once the
    /// peer reads; the peer reads the end when the write half is dropped.
    #[tokio::test]
    async fn a_write_that_fills_the_socket_waits_for_room_and_the_drop_ends_the_stream() {
        let (ours, theirs) = UnixStream::pair().expect("a socket pair");
        let (_read, mut write) = split(ours).expect("split");
        let (mut peer, _peer_write) = split(theirs).expect("split the peer");
        let message: Vec<u8> = (0..4 * 1024 * 1024).map(|i| (i % 251) as u8).collect();
        let expected = message.clone();
        let writing = tokio::spawn(async move {
            write
                .write_all(&message)
                .await
                .expect("the whole message written");
            assert!(write.room.is_none(), "no registration for room is left");
        });
        let mut got = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), peer.read_to_end(&mut got))
            .await
            .expect("the peer reads to the end within 10 s")
            .expect("the peer reads");
        assert_eq!(got, expected);
        writing.await.expect("the writer finished");
    }

    /// The read half reads what the peer writes, and its end when the peer shuts down.
    #[tokio::test]
    async fn the_read_half_reads_lines_and_the_end() {
        let (ours, theirs) = UnixStream::pair().expect("a socket pair");
        let mut read = reader(ours).expect("reader");
        let mut peer = writer(theirs).expect("writer");
        peer.write_all(b"one\ntwo\n").await.expect("written");
        peer.shutdown().await.expect("shut down");
        let mut got = String::new();
        tokio::time::timeout(Duration::from_secs(10), read.read_to_string(&mut got))
            .await
            .expect("read within 10 s")
            .expect("read");
        assert_eq!(got, "one\ntwo\n");
    }
}
