//! What each operation of a connected server answers, built from a [`ServerConnection`] by one
//! function each, used both by the engine for a face on the control socket (over its live
//! session) and by the CLI in-process (over its own connection): the two cannot drift.

use gatehouse_mcp::ToolPage;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::connections::connection::ServerConnection;
use crate::error::Result;
use crate::sessions::status::{Offer, ToolInfo};

/// What `gatehouse tools --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolListing {
    pub server: String,
    pub transport: String,
    pub protocol_version: String,
    pub server_info: NameVersion,
    pub offers: Vec<Offer>,
    pub tools: Vec<ToolInfo>,
    pub malformed: Vec<Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NameVersion {
    pub name: String,
    pub version: String,
}

/// A ping's round trip.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pong {
    pub server: String,
    pub transport: String,
    pub round_trip_ms: f64,
}

/// Lists the server's tools (when it offers any) through the gate, with what it says of itself.
pub async fn tool_listing(connection: &ServerConnection) -> Result<ToolListing> {
    let client = connection.client();
    let offers = Offer::of(client);
    let page = if offers.contains(&Offer::Tools) {
        connection.list_tools().await?
    } else {
        ToolPage::default()
    };
    let init = client.initialize_result();
    Ok(ToolListing {
        server: connection.server().to_owned(),
        transport: client.transport_kind().to_owned(),
        protocol_version: init.protocol_version.clone(),
        server_info: NameVersion {
            name: init.server_info.name.clone(),
            version: init.server_info.version.clone(),
        },
        offers,
        tools: page.items.iter().map(ToolInfo::from).collect(),
        malformed: page.malformed.clone(),
    })
}

/// Pings the server once and times the round trip.
pub async fn pong(connection: &ServerConnection) -> Result<Pong> {
    let client = connection.client();
    let round_trip = client.ping().await?;
    Ok(Pong {
        server: connection.server().to_owned(),
        transport: client.transport_kind().to_owned(),
        round_trip_ms: round_trip.as_secs_f64() * 1000.0,
    })
}
