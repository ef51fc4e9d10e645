//! The agent's side of a gateway connection, for `gatehouse mcp`: attach to the data directory's
//! engine as a gateway face named after the client, ask for the `gateway` mode, and hand back
//! both halves of the socket, which from then on carry the agent's MCP messages as they are.

use std::path::Path;

use serde_json::Value;
use tokio::io::BufReader;

use super::client::{self, Reader, Writer, reply_error};
use super::framing::{Frame, FrameReader, write_message};
use super::protocol::{FaceKind, GatewayParams, Hello, PROTOCOL_VERSION, Request, request_message};
use crate::error::{HostError, Result};
use crate::store::paths;

/// An open gateway connection: what the engine sends, and where the agent's messages go.
pub struct Tunnel {
    pub from_engine: FrameReader<BufReader<Reader>>,
    pub to_engine: Writer,
    /// The engine takes the agent's stdio ([`super::handoff`]), to be sent next.
    pub stdio: bool,
}

/// Opens a gateway connection for `client` to the engine of `data_dir`; `None` when no engine
/// runs there. `offer_stdio`: offer the engine this process's stdin and stdout.
pub async fn open(
    data_dir: Option<&Path>,
    client: &str,
    offer_stdio: bool,
) -> Result<Option<Tunnel>> {
    let data_dir = paths::data_dir(data_dir)?;
    let Some((read, mut to_engine)) = client::open(&data_dir).await? else {
        return Ok(None);
    };
    let mut from_engine = FrameReader::new(BufReader::new(read));
    let hello = Request::Hello(Hello {
        version: PROTOCOL_VERSION,
        face: FaceKind::Gateway,
        name: client.to_owned(),
        pid: std::process::id(),
    });
    let gateway = Request::Gateway(GatewayParams {
        client: client.to_owned(),
        stdio: offer_stdio,
    });
    let mut stdio = false;
    for (id, request) in [(1, hello), (2, gateway)] {
        let message = request_message(id, &request)
            .map_err(|e| HostError::Protocol(format!("cannot encode: {e}")))?;
        write_message(&mut to_engine, &message)
            .await
            .map_err(|e| HostError::io("cannot write to the engine", e))?;
        let reply = match from_engine.next().await {
            Ok(Some(Frame::Message(bytes))) => serde_json::from_slice::<Value>(&bytes)
                .map_err(|e| HostError::Protocol(format!("the engine's reply: {e}")))?,
            _ => {
                return Err(HostError::EngineStopping(
                    "the engine closed the connection".into(),
                ));
            }
        };
        if let Some(error) = reply.get("error") {
            return Err(reply_error(error));
        }
        if id == 2 {
            stdio = offer_stdio && reply["result"]["stdio"] == true;
        }
    }
    Ok(Some(Tunnel {
        from_engine,
        to_engine,
        stdio,
    }))
}

/// A gateway connection as a blocking socket, for a relay that copies bytes both ways on
/// threads of its own (a thread blocked in `read` is woken by the kernel itself, where an async
/// relay hands each message from task to task).
#[cfg(unix)]
pub struct BlockingTunnel {
    /// What the engine sent that was read past its answer to `gateway`, to pass on first.
    pub early: Vec<u8>,
    pub socket: std::os::unix::net::UnixStream,
}

#[cfg(unix)]
impl Tunnel {
    /// This connection as a blocking socket.
    pub fn into_blocking(self) -> Result<BlockingTunnel> {
        let taken = |e| HostError::io("cannot take over the engine's socket", e);
        let reader = self.from_engine.into_inner();
        let early = reader.buffer().to_vec();
        let socket = reader.into_inner().reunite(self.to_engine).map_err(taken)?;
        socket.set_nonblocking(false).map_err(taken)?;
        Ok(BlockingTunnel { early, socket })
    }
}
