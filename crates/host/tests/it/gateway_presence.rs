//! A gateway client is shown attached while any of its sessions runs, with how many and since
//! when, and no longer once they end: what the Clients page shows as "connected".

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::gateway::session::{self, Agent};
use gatehouse_mcp::transport::lines::LineReader;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, watch};

use crate::support::open_host;
use crate::support::wait::until;

const WITHIN: Duration = Duration::from_secs(10);

async fn sessions_of(host: &gatehouse_host::Host, client: &str) -> Option<u32> {
    let clients = host.clients().list().await.expect("list");
    let record = clients.into_iter().find(|c| c.name == client)?;
    record.connected.map(|c| c.sessions)
}

#[tokio::test]
async fn a_client_is_connected_while_a_session_of_it_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Arc::new(open_host(dir.path(), false).await);
    host.clients().add("cursor").await.expect("added");
    assert_eq!(
        sessions_of(&host, "cursor").await,
        None,
        "nobody attached yet"
    );

    let (mut agent_side, engine_side) = tokio::io::duplex(4096);
    let (out, mut answers) = mpsc::channel(16);
    let (_stop, stopped) = watch::channel(false);
    let agent = Agent {
        client: "cursor".to_owned(),
    };
    let lines = LineReader::new(BufReader::new(engine_side), 1 << 20);
    let serving = tokio::spawn(session::serve(host.clone(), agent, lines, out, stopped));
    agent_side
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
        .await
        .expect("write");
    let pong = tokio::time::timeout(WITHIN, answers.recv())
        .await
        .expect("the ping answered in time")
        .expect("an answer");
    assert_eq!(pong["id"], 1, "{pong}");
    assert_eq!(sessions_of(&host, "cursor").await, Some(1), "attached");
    let since = host.clients().get("cursor").await.expect("get").connected;
    assert!(since.is_some_and(|c| c.since.ends_with('Z')));

    drop(agent_side);
    tokio::time::timeout(WITHIN, serving)
        .await
        .expect("the session ends with its agent")
        .expect("no panic");
    until("the client no longer attached", WITHIN, || async {
        match sessions_of(&host, "cursor").await {
            None => Ok(()),
            Some(n) => Err(n),
        }
    })
    .await;
}
