//! One face's connection: `hello` first (the version checked), then its requests, each run as a
//! task the connection owns, at most [`MAX_IN_FLIGHT`] at once. What goes back to the face waits
//! in a queue of at most [`OUTGOING_QUEUE`](super::protocol::OUTGOING_QUEUE) messages and
//! [`OUTGOING_BYTES`](super::protocol::OUTGOING_BYTES) bytes ([`super::outbox`]); a face that
//! lets it fill (it does not read) is disconnected. A protocol error is answered and the
//! connection closed. When the face goes away, or the engine stops, every request it still has
//! running is cancelled (a tool call on the server with `notifications/cancelled`, through the
//! gate, which audits it) and waited for.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::sync::watch;
use tokio::task::JoinSet;

use super::dispatch;
use super::framing::{Frame, FrameReader};
use super::handoff::Handover;
use super::lock::rfc3339_now;
use super::outbox::{FLUSH_GRACE, Face, Outbox};
use super::protocol::{
    ErrorCode, FaceInfo, FaceKind, GatewayReply, Incoming, MAX_IN_FLIGHT, MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION, Request, error_reply, parse_incoming, result_reply, rpc_code,
};
use super::shared::Shared;
use crate::error::HostError;
use crate::gateway::session::Agent;

/// How long a request that was cancelled may take to end before it is cut.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

type InFlight = Arc<Mutex<HashMap<u64, watch::Sender<bool>>>>;

/// Serves one connection, given its two halves (a Unix socket's, or a named pipe's on Windows).
pub(crate) async fn serve<R, W>(read: R, write: W, shared: Arc<Shared>, uid: u32, number: u64)
where
    R: AsyncRead + Handover + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (outbox, outgoing) = Outbox::new();
    let overflow = outbox.overflow.clone();
    let mut writer = tokio::spawn(outgoing.write_to(write));
    let mut reader = FrameReader::new(BufReader::new(read));
    let mut requests = JoinSet::new();
    let in_flight: InFlight = Arc::default();
    let mut stop = shared.stop.clone();
    let mut face: Option<Face> = None;
    let mut agent: Option<(Agent, Option<u64>)> = None;
    let refuse = |id, rpc, message: &str| {
        outbox.send(error_reply(id, rpc, ErrorCode::Protocol, message));
    };
    loop {
        // Finished requests are reaped here, not by waking the connection as each ends: one
        // wake-up less per request (the line reader is cancel-safe either way).
        while requests.try_join_next().is_some() {}
        let frame = tokio::select! {
            frame = reader.next() => frame,
            () = overflow.notified() => {
                tracing::info!("a face did not read what the engine sent it; disconnected");
                break;
            }
            _ = stop.wait_for(|stop| *stop) => break,
        };
        let bytes = match frame {
            Ok(Some(Frame::Message(bytes))) => bytes,
            Ok(Some(Frame::TooLong(len))) => {
                let why =
                    format!("a message of {len} bytes is over the limit of {MAX_MESSAGE_BYTES}");
                refuse(None, rpc_code::INVALID_REQUEST, &why);
                break;
            }
            Ok(None) | Err(_) => break,
        };
        let (id, request) = match parse_incoming(&bytes) {
            Err(refusal) => {
                refuse(refusal.id, refusal.rpc, &refusal.message);
                break;
            }
            Ok(Incoming::Cancel(id)) => {
                if let Some(cancel) = in_flight
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get(&id)
                {
                    let _ = cancel.send(true);
                }
                continue;
            }
            Ok(Incoming::Request { id, request }) => (id, request),
        };
        let Some(current) = &face else {
            match request {
                Request::Hello(hello) if hello.version == PROTOCOL_VERSION => {
                    shared
                        .faces
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .insert(
                            number,
                            FaceInfo {
                                face: hello.face,
                                name: hello.name,
                                pid: hello.pid,
                                uid,
                                since: rfc3339_now(),
                            },
                        );
                    face = Some(Face { kind: hello.face });
                    outbox.send(result_reply(id, serde_json::json!(shared.info)));
                    continue;
                }
                Request::Hello(hello) => {
                    let why = format!(
                        "protocol version {} is not spoken here; this engine speaks version {PROTOCOL_VERSION}",
                        hello.version
                    );
                    refuse(Some(id), rpc_code::INVALID_REQUEST, &why);
                }
                other => {
                    let why = format!(
                        "the first message must be `hello`, not `{}`",
                        other.method()
                    );
                    refuse(Some(id), rpc_code::INVALID_REQUEST, &why);
                }
            }
            break;
        };
        if let Request::Gateway(params) = request {
            if !requests.is_empty() || current.kind != FaceKind::Gateway {
                let why = "`gateway` comes first after `hello`, from a gateway face";
                refuse(Some(id), rpc_code::INVALID_REQUEST, why);
                break;
            }
            // The agent's stdio is taken where the connection can carry it.
            let stdio = params.stdio && R::CAN;
            outbox.send(result_reply(id, serde_json::json!(GatewayReply { stdio })));
            let agent_named = Agent {
                client: params.client,
            };
            agent = Some((agent_named, stdio.then_some(id)));
            break;
        }
        let mut running = in_flight.lock().unwrap_or_else(PoisonError::into_inner);
        if running.len() >= MAX_IN_FLIGHT || running.contains_key(&id) {
            let (code, why) = if running.contains_key(&id) {
                (
                    ErrorCode::Protocol,
                    format!("request {id} is already running"),
                )
            } else {
                (
                    ErrorCode::TooManyCalls,
                    format!("at most {MAX_IN_FLIGHT} requests may run at once on one connection"),
                )
            };
            outbox.send(error_reply(Some(id), rpc_code::ENGINE_ERROR, code, &why));
            continue;
        }
        let (cancel, cancelled) = watch::channel(false);
        running.insert(id, cancel);
        drop(running);
        requests.spawn(run(
            shared.clone(),
            current.clone(),
            id,
            request,
            cancelled,
            outbox.clone(),
            in_flight.clone(),
        ));
    }
    // An agent's MCP session goes on over the same connection (or the agent's own stdio) until
    // it ends.
    if let Some((agent, handover)) = agent {
        super::gateway_face::serve(&shared, agent, reader, &outbox, stop, handover).await;
    }
    // The face is gone, broke the protocol, or the engine stops: cancel what it still runs.
    for cancel in in_flight
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .values()
    {
        let _ = cancel.send(true);
    }
    if tokio::time::timeout(CANCEL_GRACE, async {
        while requests.join_next().await.is_some() {}
    })
    .await
    .is_err()
    {
        requests.abort_all();
    }
    shared
        .faces
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&number);
    drop(outbox);
    if tokio::time::timeout(FLUSH_GRACE, &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

/// Runs one request and queues its reply.
async fn run(
    shared: Arc<Shared>,
    face: Face,
    id: u64,
    request: Request,
    cancelled: watch::Receiver<bool>,
    outbox: Outbox,
    in_flight: InFlight,
) {
    // A face cut off for not reading gets nothing more: its requests still waiting to run are
    // not run, so they cost no work for replies that would not be sent.
    if outbox.is_cut() {
        in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
        return;
    }
    let cancel = fired(cancelled.clone());
    let result = tokio::select! {
        result = dispatch::dispatch(&shared, &face, id, request, cancel, &outbox) => result,
        // A request that does not end once cancelled is cut after a grace.
        () = async { fired(cancelled).await; tokio::time::sleep(CANCEL_GRACE).await } => {
            Err(HostError::Remote { code: ErrorCode::Cancelled, message: "cancelled".into() })
        }
    };
    in_flight
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&id);
    let result = match result {
        Err(_) if shared.stopping() => Err(HostError::EngineStopping(
            "the engine is stopping; the request was not finished".into(),
        )),
        other => other,
    };
    outbox.send(match result {
        Ok(value) => result_reply(id, value),
        Err(e) => error_reply(Some(id), rpc_code::ENGINE_ERROR, e.code(), &e.to_string()),
    });
}

/// Resolves once `flag` is set (or its sender is gone).
async fn fired(mut flag: watch::Receiver<bool>) {
    let _ = flag.wait_for(|set| *set).await;
}
