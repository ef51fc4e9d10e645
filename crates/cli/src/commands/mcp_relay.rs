//! The relay between an agent's stdio and the engine's gateway connection, for `gatehouse mcp`.
//! It ends when the agent closes stdin (the engine is told by the connection's write side
//! closing, cancels what the agent still runs and closes; that is waited for at most
//! [`CLOSE_GRACE`]), or when the engine closes the connection (it stopped or was killed).
//!
//! On Unix, where stdin and stdout are pipes or sockets (as an agent starts its servers), they are
//! handed to the engine instead ([`gatehouse_host::control::handoff`]), which then reads and
//! answers the agent itself: no relay, and this process only waits for the engine to say the
//! session ended (the agent closed stdin: exit 0) or to go away (exit 1).
//!
//! Otherwise, on Unix, the bytes are copied as they come, both ways, by two threads blocked in
//! `read`: the kernel wakes each one directly when the other side writes, with no hand-off from
//! thread to task (a relay through tasks and `tokio::io::stdout`, whose writes go through the
//! blocking pool, cost several wake-ups per message). The engine frames and bounds the agent's
//! messages; each copy here goes through a buffer of [`CHUNK`] bytes.

use std::time::Duration;

use gatehouse_host::HostError;
use gatehouse_host::control::tunnel::Tunnel;

use crate::finish::Finish;

/// How long the engine may take to close the connection once the agent has closed stdin.
const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// The most bytes copied at once.
#[cfg(unix)]
const CHUNK: usize = 64 * 1024;

/// Relays until the agent closes stdin or the engine closes the connection; or, when the
/// engine took the agent's stdio, waits until it says the session ended.
#[cfg(unix)]
pub(super) async fn relay(tunnel: Tunnel) -> Result<Finish, HostError> {
    use std::io::{Read, Write};
    use std::net::Shutdown;

    if tunnel.stdio {
        return handed_over(tunnel).await;
    }
    let tunnel = tunnel.into_blocking()?;
    let mut to_engine = tunnel
        .socket
        .try_clone()
        .map_err(|e| HostError::io("cannot relay to the engine", e))?;
    let mut from_engine = tunnel.socket;
    let (agent_done, agent_closed) = tokio::sync::oneshot::channel::<()>();
    let (engine_done, engine_closed) = tokio::sync::oneshot::channel::<()>();
    std::thread::Builder::new()
        .name("agent-to-engine".into())
        .spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut buf = vec![0u8; CHUNK];
            let mut ends_line = true;
            loop {
                match stdin.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        ends_line = buf[n - 1] == b'\n';
                        if to_engine.write_all(&buf[..n]).is_err() {
                            break;
                        }
                    }
                }
            }
            // The agent's last message may lack its newline.
            if !ends_line {
                let _ = to_engine.write_all(b"\n");
            }
            let _ = to_engine.shutdown(Shutdown::Write);
            let _ = agent_done.send(());
        })
        .map_err(|e| HostError::io("cannot start the relay", e))?;
    std::thread::Builder::new()
        .name("engine-to-agent".into())
        .spawn(move || {
            let mut stdout = std::io::stdout().lock();
            let mut pass = |bytes: &[u8]| stdout.write_all(bytes).and_then(|()| stdout.flush());
            if tunnel.early.is_empty() || pass(&tunnel.early).is_ok() {
                let mut buf = vec![0u8; CHUNK];
                loop {
                    match from_engine.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if pass(&buf[..n]).is_err() {
                                break;
                            }
                        }
                    }
                }
            }
            let _ = engine_done.send(());
        })
        .map_err(|e| HostError::io("cannot start the relay", e))?;
    let mut engine_closed = engine_closed;
    tokio::select! {
        _ = agent_closed => {
            // The agent is done: the engine cancels what it still runs and closes.
            let _ = tokio::time::timeout(CLOSE_GRACE, &mut engine_closed).await;
            Ok(Finish::Success)
        }
        _ = &mut engine_closed => Err(engine_gone()),
    }
}

/// Hands the agent's stdin and stdout to the engine, which serves the agent on them, and waits
/// for the engine to say why the session ended (or for the connection to close: it was killed).
#[cfg(unix)]
async fn handed_over(tunnel: Tunnel) -> Result<Finish, HostError> {
    use gatehouse_host::control::framing::Frame;
    use gatehouse_host::control::handoff;
    use gatehouse_host::control::protocol::{GatewayEnd, Notice};

    let Tunnel {
        mut from_engine,
        mut to_engine,
        ..
    } = tunnel;
    handoff::send(&mut to_engine)
        .await
        .map_err(|e| HostError::io("cannot hand the agent's stdio to the engine", e))?;
    loop {
        let Ok(Some(Frame::Message(bytes))) = from_engine.next().await else {
            return Err(engine_gone());
        };
        if let Ok(Notice::GatewayEnded {
            reason, message, ..
        }) = serde_json::from_slice::<Notice>(&bytes)
        {
            return match reason {
                GatewayEnd::AgentClosed => Ok(Finish::Success),
                GatewayEnd::EngineStopping => Err(HostError::EngineStopping(message)),
                GatewayEnd::Refused => Err(HostError::Protocol(message)),
            };
        }
    }
}

fn engine_gone() -> HostError {
    HostError::EngineStopping(
        "the engine closed the agent's connection (it stopped or was killed)".into(),
    )
}

/// Relays until the agent closes stdin or the engine closes the connection: lines, through
/// tasks (the named pipe has no blocking form here).
#[cfg(not(unix))]
pub(super) async fn relay(tunnel: Tunnel) -> Result<Finish, HostError> {
    use gatehouse_host::control::framing::Frame;
    use std::io::BufRead;
    use tokio::io::AsyncWriteExt;
    use tokio::sync::mpsc;

    /// Lines of the agent's waiting to be relayed.
    const RELAY_LINES: usize = 64;

    let Tunnel {
        mut from_engine,
        mut to_engine,
        ..
    } = tunnel;
    // stdin is read on a thread of its own: a read that never ends (the engine went first)
    // then holds nothing up when this process exits.
    let (lines, mut from_agent) = mpsc::channel::<Vec<u8>>(RELAY_LINES);
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        loop {
            let mut line = Vec::new();
            match stdin.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    if lines.blocking_send(line).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let to = async {
        while let Some(mut line) = from_agent.recv().await {
            if !line.ends_with(b"\n") {
                line.push(b'\n');
            }
            if to_engine.write_all(&line).await.is_err() {
                return;
            }
        }
        let _ = to_engine.shutdown().await;
    };
    let mut stdout = tokio::io::stdout();
    let from = async {
        loop {
            match from_engine.next().await {
                Ok(Some(Frame::Message(mut bytes))) => {
                    bytes.push(b'\n');
                    if stdout.write_all(&bytes).await.is_err() || stdout.flush().await.is_err() {
                        return;
                    }
                }
                Ok(Some(Frame::TooLong(len))) => {
                    tracing::warn!(
                        "a message of {len} bytes from the engine was too long and was dropped"
                    );
                }
                Ok(None) | Err(_) => return,
            }
        }
    };
    tokio::pin!(from);
    tokio::select! {
        () = to => {
            // The agent is done: the engine cancels what it still runs and closes.
            let _ = tokio::time::timeout(CLOSE_GRACE, &mut from).await;
            Ok(Finish::Success)
        }
        () = &mut from => Err(engine_gone()),
    }
}
