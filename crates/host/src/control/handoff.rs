//! An agent's stdio handed over to the engine, for `gatehouse mcp` on Unix. The face sends its
//! own stdin and stdout over the control socket (`SCM_RIGHTS`, as OpenSSH's multiplexing client
//! hands its stdio to the master) and the engine reads and answers the agent on them itself: the
//! agent's messages then reach the engine directly instead of through a relay process, one
//! process wake-up less each way and no copy.
//!
//! Only pipes and sockets are offered (what agents start their servers with); a terminal, a
//! file, or a stdout that is also stderr keeps the relay. The engine takes exactly two
//! descriptors, from a peer whose uid it checked ([`super::peer`]): it receives them
//! close-on-exec (the servers it starts never inherit them), checks that stdin can be read and
//! stdout written and that each is a pipe or a socket, and uses them non-blocking. The control
//! connection stays open beside them, and its closing (the face was killed) ends the agent's
//! session as the agent closing stdin would ([`UntilGone`]).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// An agent's stdio, as the engine reads and writes it.
pub(crate) struct AgentStdio {
    pub read: Box<dyn AsyncRead + Send + Unpin>,
    pub write: Box<dyn AsyncWrite + Send + Unpin>,
}

/// The engine's side of a connection that may carry an agent's stdio.
pub(crate) trait Handover {
    /// Whether descriptors can pass on this kind of connection.
    const CAN: bool;
    /// The agent's stdin and stdout, sent next on the connection.
    fn receive(&self) -> impl Future<Output = io::Result<AgentStdio>> + Send;
}

/// Whether this process's stdin and stdout can be handed to the engine.
pub fn offerable() -> bool {
    #[cfg(unix)]
    return unix::offerable();
    #[cfg(not(unix))]
    false
}

/// A reader that ends (as at the end of its stream) once `gone` resolves: an agent's stdin,
/// which ends for the engine when the face that handed it over goes away.
pub(crate) struct UntilGone<R> {
    inner: R,
    gone: Pin<Box<dyn Future<Output = ()> + Send>>,
    ended: bool,
}

impl<R> UntilGone<R> {
    pub(crate) fn new(inner: R, gone: impl Future<Output = ()> + Send + 'static) -> Self {
        UntilGone {
            inner,
            gone: Box::pin(gone),
            ended: false,
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for UntilGone<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.ended && this.gone.as_mut().poll(cx).is_ready() {
            this.ended = true;
        }
        if this.ended {
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

#[cfg(unix)]
pub use unix::send;

#[cfg(unix)]
mod unix {
    use std::fs::File;
    use std::io::{self, IoSlice, IoSliceMut};
    use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};

    use nix::sys::socket::{ControlMessage, ControlMessageOwned, MsgFlags, recvmsg, sendmsg};
    use tokio::net::unix::pipe;

    use super::super::socket_halves::{self, ReadHalf, WriteHalf};
    use super::{AgentStdio, Handover};

    /// The most descriptors one message may carry on Linux (`SCM_MAX_FD`): room for all of
    /// them, so that none is cut off (and left open) by a truncated message.
    const MAX_FDS: usize = 253;

    /// What a descriptor can be handed over as.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Kind {
        Pipe,
        Socket,
        Other,
    }

    /// What `fd` is, and which file (device and inode).
    fn kind(fd: BorrowedFd<'_>) -> io::Result<(Kind, (u64, u64))> {
        let meta = File::from(fd.try_clone_to_owned()?).metadata()?;
        let kind = match meta.file_type() {
            t if t.is_fifo() => Kind::Pipe,
            t if t.is_socket() => Kind::Socket,
            _ => Kind::Other,
        };
        Ok((kind, (meta.dev(), meta.ino())))
    }

    pub(super) fn offerable() -> bool {
        let (stdin, stdout, stderr) = (io::stdin(), io::stdout(), io::stderr());
        match (kind(stdin.as_fd()), kind(stdout.as_fd())) {
            (Ok((input, _)), Ok((output, out)))
                if input != Kind::Other && output != Kind::Other =>
            {
                // A stdout that is also stderr would be made non-blocking for this process's
                // own messages too.
                kind(stderr.as_fd()).map_or(true, |(_, err)| err != out)
            }
            _ => false,
        }
    }

    /// Hands this process's stdin and stdout to the engine on `to_engine`.
    pub async fn send(to_engine: &mut WriteHalf) -> io::Result<()> {
        send_fds(to_engine, [io::stdin().as_fd(), io::stdout().as_fd()]).await
    }

    /// Sends `stdio` (stdin, then stdout) on `to_engine`, with one byte.
    pub(super) async fn send_fds(
        to_engine: &mut WriteHalf,
        stdio: [BorrowedFd<'_>; 2],
    ) -> io::Result<()> {
        let fds = stdio.map(|fd| fd.as_raw_fd());
        let sent = to_engine
            .write_with(|socket| {
                let byte = [0u8];
                let rights = [ControlMessage::ScmRights(&fds)];
                sendmsg::<()>(
                    socket.as_raw_fd(),
                    &[IoSlice::new(&byte)],
                    &rights,
                    MsgFlags::empty(),
                    None,
                )
                .map_err(io::Error::from)
            })
            .await?;
        if sent == 1 {
            Ok(())
        } else {
            Err(io::Error::other("the engine's socket took no byte"))
        }
    }

    /// One message's byte count and descriptors (each close-on-exec).
    pub(super) fn receive_fds(socket: RawFd) -> io::Result<(usize, Vec<OwnedFd>)> {
        let mut byte = [0u8; 1];
        let mut iov = [IoSliceMut::new(&mut byte)];
        let mut space = nix::cmsg_space!([RawFd; MAX_FDS]);
        let message = recvmsg::<()>(
            socket,
            &mut iov,
            Some(&mut space),
            MsgFlags::MSG_CMSG_CLOEXEC,
        )?;
        let mut fds = Vec::new();
        for cmsg in message.cmsgs()? {
            if let ControlMessageOwned::ScmRights(received) = cmsg {
                #[allow(unsafe_code)]
                // SAFETY: the kernel installed each of these descriptors in this process for
                // this message alone; each is owned once, here.
                fds.extend(
                    received
                        .into_iter()
                        .map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
                );
            }
        }
        Ok((message.bytes, fds))
    }

    /// The agent's stdin and stdout, checked and made non-blocking.
    pub(crate) fn into_stdio(fds: Vec<OwnedFd>) -> io::Result<AgentStdio> {
        let refused = |why: &str| io::Error::new(io::ErrorKind::InvalidInput, why.to_owned());
        let Ok([stdin, stdout]) = <[OwnedFd; 2]>::try_from(fds) else {
            return Err(refused("an agent hands over exactly two descriptors"));
        };
        let read: Box<dyn tokio::io::AsyncRead + Send + Unpin> = match kind(stdin.as_fd())?.0 {
            Kind::Pipe => Box::new(pipe::Receiver::from_owned_fd(stdin)?),
            Kind::Socket => Box::new(socket_halves::reader(stdin.into())?),
            Kind::Other => return Err(refused("the agent's stdin is not a pipe or a socket")),
        };
        let write: Box<dyn tokio::io::AsyncWrite + Send + Unpin> = match kind(stdout.as_fd())?.0 {
            Kind::Pipe => Box::new(pipe::Sender::from_owned_fd(stdout)?),
            Kind::Socket => Box::new(socket_halves::writer(stdout.into())?),
            Kind::Other => return Err(refused("the agent's stdout is not a pipe or a socket")),
        };
        Ok(AgentStdio { read, write })
    }

    impl Handover for ReadHalf {
        const CAN: bool = true;

        async fn receive(&self) -> io::Result<AgentStdio> {
            let (bytes, fds) = self
                .read_with(|socket| receive_fds(socket.as_raw_fd()))
                .await?;
            if bytes == 0 && fds.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the face closed its connection before handing over the agent's stdio",
                ));
            }
            into_stdio(fds)
        }
    }
}

#[cfg(windows)]
impl Handover for tokio::io::ReadHalf<tokio::net::windows::named_pipe::NamedPipeServer> {
    const CAN: bool = false;

    async fn receive(&self) -> io::Result<AgentStdio> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "an agent's stdio is not handed over on a named pipe",
        ))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::io::{Read, Write};
    use std::os::fd::{AsFd, AsRawFd, OwnedFd};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::UnixStream;

    use super::super::socket_halves;
    use super::unix::{into_stdio, receive_fds, send_fds};
    use super::*;

    /// A pipe: its read end and its write end.
    fn pipe() -> (std::fs::File, std::fs::File) {
        let (read, write) = std::io::pipe().expect("a pipe");
        (
            std::fs::File::from(OwnedFd::from(read)),
            std::fs::File::from(OwnedFd::from(write)),
        )
    }

    fn close_on_exec(fd: &impl AsRawFd) -> bool {
        let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{}", fd.as_raw_fd()))
            .expect("fdinfo");
        let flags = info
            .lines()
            .find_map(|line| line.strip_prefix("flags:"))
            .expect("flags");
        u32::from_str_radix(flags.trim(), 8).expect("octal") & 0o2_000_000 != 0
    }

    #[tokio::test]
    async fn an_agent_s_pipes_pass_close_on_exec_and_carry_its_messages() {
        let (face, engine) = std::os::unix::net::UnixStream::pair().expect("a socket pair");
        let (_face_read, mut face_write) = socket_halves::split(face).expect("split");
        let (engine_read, _engine_write) = socket_halves::split(engine).expect("split");
        // The agent's side: it writes to the face's stdin and reads the face's stdout.
        let (stdin, mut agent_writes) = pipe();
        let (mut agent_reads, stdout) = pipe();
        send_fds(&mut face_write, [stdin.as_fd(), stdout.as_fd()])
            .await
            .expect("sent");
        // What the face holds no longer matters once the engine has its own copies.
        drop((stdin, stdout));
        let (bytes, fds) = engine_read
            .read_with(|socket| receive_fds(socket.as_raw_fd()))
            .await
            .expect("received");
        assert_eq!((bytes, fds.len()), (1, 2));
        assert!(fds.iter().all(close_on_exec), "servers never inherit them");
        let mut stdio = into_stdio(fds).expect("pipes are taken");

        agent_writes
            .write_all(b"{\"id\":1}\n")
            .expect("the agent writes");
        let mut line = [0u8; 9];
        stdio
            .read
            .read_exact(&mut line)
            .await
            .expect("the engine reads");
        assert_eq!(&line, b"{\"id\":1}\n");
        stdio
            .write
            .write_all(b"{}\n")
            .await
            .expect("the engine writes");
        let mut reply = [0u8; 3];
        agent_reads.read_exact(&mut reply).expect("the agent reads");
        assert_eq!(&reply, b"{}\n");
    }

    #[tokio::test]
    async fn sockets_are_taken_and_a_file_or_a_third_descriptor_is_refused() {
        let (agent, stdin) = std::os::unix::net::UnixStream::pair().expect("a socket pair");
        let stdout = stdin.try_clone().expect("the same socket");
        let mut stdio = into_stdio(vec![OwnedFd::from(stdin), OwnedFd::from(stdout)])
            .expect("a socket is taken");
        (&agent).write_all(b"x").expect("the agent writes");
        let mut byte = [0u8; 1];
        stdio.read.read_exact(&mut byte).await.expect("read");
        assert_eq!(&byte, b"x");

        let file = tempfile::tempfile().expect("a file");
        let (_, write) = pipe();
        let refused = into_stdio(vec![OwnedFd::from(file), OwnedFd::from(write)]);
        assert!(refused.is_err(), "a regular file is not an agent's stdin");

        let (read, write) = pipe();
        let (extra, _) = pipe();
        let three = vec![
            OwnedFd::from(read),
            OwnedFd::from(write),
            OwnedFd::from(extra),
        ];
        assert!(into_stdio(three).is_err(), "exactly two descriptors");

        let (read, _) = pipe();
        let (_, write) = pipe();
        let swapped = vec![OwnedFd::from(write), OwnedFd::from(read)];
        assert!(
            into_stdio(swapped).is_err(),
            "stdin must be readable and stdout writable"
        );
    }

    #[tokio::test]
    async fn a_reader_ends_once_its_face_is_gone() {
        let (agent, stdin) = UnixStream::pair().expect("a socket pair");
        let (gone, went) = tokio::sync::oneshot::channel::<()>();
        let mut reader = UntilGone::new(stdin, async move {
            let _ = went.await;
        });
        let mut buf = [0u8; 8];
        let mut agent = agent;
        agent.write_all(b"a").await.expect("written");
        assert_eq!(reader.read(&mut buf).await.expect("read"), 1);
        drop(gone);
        assert_eq!(
            reader.read(&mut buf).await.expect("read"),
            0,
            "the end, with the agent's side still open"
        );
        agent.write_all(b"b").await.expect("written");
        assert_eq!(
            reader.read(&mut buf).await.expect("read"),
            0,
            "it stays ended"
        );
    }
}
