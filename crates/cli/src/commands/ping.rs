//! `gatehouse ping <server>`: send one `ping`, print the round-trip time. The time covers the
//! ping alone, not starting the server or the handshake (in-process, where this command connects
//! and disconnects; attached, on the engine's live session).

use gatehouse_host::HostError;
use gatehouse_host::control::answers;

use crate::door::Door;

pub async fn run(door: &Door<'_>, server: &str) -> Result<(), HostError> {
    let pong = door
        .ask(
            server,
            async |engine| engine.ping(server).await,
            async |connection| answers::pong(connection).await,
        )
        .await?;
    say!(
        "{}: pong in {:.3} ms over {}",
        pong.server,
        pong.round_trip_ms,
        pong.transport
    );
    Ok(())
}
