//! `gatehouse ping <server>`: connect, send one `ping`, print the round-trip time, disconnect.
//! The time covers the ping alone, not starting the server or the handshake.

use gatehouse_host::{Host, HostError};

use crate::commands::connection::Connection;

pub async fn run(host: &Host, server: &str) -> Result<(), HostError> {
    let connection = Connection::open(host, server).await?;
    let pinged = connection.client().ping().await.map_err(HostError::from);
    let name = connection.server().to_owned();
    let transport = connection.client().transport_kind();
    let round_trip = connection.close(pinged).await?;
    say!(
        "{name}: pong in {:.3} ms over {transport}",
        round_trip.as_secs_f64() * 1000.0
    );
    Ok(())
}
