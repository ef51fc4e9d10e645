//! A gateway face's connection once `gateway` was answered: the agent's MCP session
//! ([`crate::gateway::session`]), its messages either relayed through the connection as they are,
//! or read and answered on the agent's own stdin and stdout, handed over by the face
//! ([`super::handoff`]). In that second form the connection carries one more message, the
//! [`Notice::GatewayEnded`] that tells the face why the session ended, and its closing ends the
//! session (the face was killed: the agent's calls are cancelled as if it had closed stdin).

use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::transport::lines::LineReader;
use gatehouse_mcp::transport::owned_task::OwnedTask;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, BufReader};
use tokio::sync::{mpsc, watch};

use super::framing::{FrameReader, encode, write_line};
use super::handoff::{Handover, UntilGone};
use super::outbox::{FLUSH_GRACE, Outbox};
use super::protocol::{GatewayEnd, MAX_MESSAGE_BYTES, Notice};
use super::shared::Shared;
use crate::gateway::session::{self, Agent};

/// An agent's messages waiting for room in the queue to it.
const AGENT_QUEUE: usize = 64;
/// How long a face that offered its agent's stdio may take to send it.
const HANDOVER_WAIT: Duration = Duration::from_secs(5);

/// Serves `agent` until its session ends. `handover`: the id of the `gateway` request whose
/// answer told the face to hand over the agent's stdio.
pub(super) async fn serve<R>(
    shared: &Arc<Shared>,
    agent: Agent,
    reader: FrameReader<BufReader<R>>,
    outbox: &Outbox,
    stop: watch::Receiver<bool>,
    handover: Option<u64>,
) where
    R: AsyncRead + Handover + Unpin + Send + 'static,
{
    let Some(request) = handover else {
        run_session(shared, agent, reader.into_lines(), outbox.clone(), stop).await;
        return;
    };
    let (reason, message) = on_stdio(shared, agent, reader, stop).await;
    if reason != GatewayEnd::AgentClosed {
        tracing::info!("an agent's session on its own stdio ended: {message}");
    }
    let notice = Notice::GatewayEnded {
        request,
        reason,
        message,
    };
    if let Ok(Value::Object(mut notice)) = serde_json::to_value(&notice) {
        notice.insert("jsonrpc".into(), Value::from("2.0"));
        outbox.send(Value::Object(notice));
    }
}

/// The session with `lines` from the agent, its messages queued on `to_agent`.
async fn run_session<R>(
    shared: &Arc<Shared>,
    agent: Agent,
    lines: LineReader<R>,
    to_agent: Outbox,
    stop: watch::Receiver<bool>,
) where
    R: tokio::io::AsyncBufRead + Unpin,
{
    let (out, mut for_agent) = mpsc::channel::<Value>(AGENT_QUEUE);
    // The agent's messages are queued from a task of their own: the session's requests run on
    // the session's task, and a reply that woke that same task would make the runtime treat it
    // as a yield and wake the other worker for it.
    let mut forward = OwnedTask::spawn(async move {
        while let Some(message) = for_agent.recv().await {
            if !to_agent.deliver(message).await {
                return;
            }
        }
    });
    session::serve(shared.host.clone(), agent, lines, out, stop).await;
    forward.wait().await;
}

/// Takes the agent's stdio from the face and serves the session on it; why it ended.
async fn on_stdio<R>(
    shared: &Arc<Shared>,
    agent: Agent,
    reader: FrameReader<BufReader<R>>,
    stop: watch::Receiver<bool>,
) -> (GatewayEnd, String)
where
    R: AsyncRead + Handover + Unpin + Send + 'static,
{
    let refused = |why: String| (GatewayEnd::Refused, why);
    let socket = reader.into_inner();
    if !socket.buffer().is_empty() {
        return refused("the face sent a message where its agent's stdio was to come".into());
    }
    let socket = socket.into_inner();
    let stdio = match tokio::time::timeout(HANDOVER_WAIT, socket.receive()).await {
        Ok(Ok(stdio)) => stdio,
        Ok(Err(e)) => return refused(format!("the agent's stdio was not taken: {e}")),
        Err(_) => {
            return refused(format!(
                "the face did not hand over its agent's stdio within {} s",
                HANDOVER_WAIT.as_secs()
            ));
        }
    };
    // The face sends nothing more: anything, or the connection closing, means it is gone.
    let gone = async move {
        let mut socket = socket;
        let _ = socket.read(&mut [0u8; 1]).await;
    };
    let lines = LineReader::new(
        BufReader::new(UntilGone::new(stdio.read, gone)),
        MAX_MESSAGE_BYTES,
    );
    // The agent's messages are written by one task, straight from the session's queue: a
    // second hand-off (to a queue and a writer task, as for a face) would make a reply wake a
    // chain of four tasks (the call's router, the session, the forwarder, the writer, after the
    // server's reader), and tokio runs at most three woken tasks in a row on the worker that
    // woke them: it wakes the other worker for the fourth (see docs/performance.md). The queue's bound is the session's own ([`AGENT_QUEUE`] messages):
    // an agent that does not read holds its session back.
    let (out, mut for_agent) = mpsc::channel::<Value>(AGENT_QUEUE);
    let mut write = stdio.write;
    let mut writer = OwnedTask::spawn(async move {
        while let Some(message) = for_agent.recv().await {
            let line = match encode(&message) {
                Ok(line) => line,
                Err(e) => {
                    tracing::warn!("a message to an agent could not be encoded: {e}");
                    continue;
                }
            };
            if write_line(&mut write, &line).await.is_err() {
                return;
            }
        }
    });
    session::serve(shared.host.clone(), agent, lines, out, stop).await;
    // What is still queued for the agent gets a grace to be written; then the writer is cut.
    let _ = tokio::time::timeout(FLUSH_GRACE, writer.wait()).await;
    drop(writer);
    if shared.stopping() {
        let why = "the engine is stopping (the app quit or `gatehouse serve` was stopped)";
        (GatewayEnd::EngineStopping, why.into())
    } else {
        (GatewayEnd::AgentClosed, "the agent closed its stdin".into())
    }
}
