//! The gateway routes an agent's calls by the servers the engine keeps in memory
//! (`store::registry::list_cache`) instead of reading the store for each call; a server another
//! process adds is callable at once all the same, since a name not found in memory is looked
//! for afresh. The engine here reads the store's change counter once an hour, so nothing but
//! that second look can find the new server.

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::gateway::session::{self, Agent};
use gatehouse_host::policy::{Effect, Rule};
use gatehouse_host::{Host, HostOptions, Source};
use gatehouse_mcp::transport::lines::LineReader;
use serde_json::{Value, json};
use tokio::io::{AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::{mpsc, watch};

use crate::support;

const WITHIN: Duration = Duration::from_secs(20);

/// Sends a 2026-07-28 `tools/call` of `tool` echoing `said`, and returns its answer.
async fn echo(
    agent: &mut DuplexStream,
    answers: &mut mpsc::Receiver<Value>,
    id: u64,
    tool: &str,
    said: &str,
) -> Value {
    let request = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { "name": "routing", "version": "1" },
        },
        "name": tool,
        "arguments": { "message": said },
    } });
    agent
        .write_all(format!("{request}\n").as_bytes())
        .await
        .expect("write");
    loop {
        let answer = tokio::time::timeout(WITHIN, answers.recv())
            .await
            .unwrap_or_else(|_| panic!("step: the call of {tool} answered in time"))
            .expect("an answer");
        if answer["id"] == id {
            return answer;
        }
    }
}

#[tokio::test]
async fn a_server_another_process_adds_is_callable_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Arc::new(
        Host::open(HostOptions {
            data_dir: Some(dir.path().to_path_buf()),
            live_sessions: true,
            store_poll: Some(Duration::from_secs(3600)),
            ..Default::default()
        })
        .await
        .expect("open"),
    );
    host.add_server(support::everything("e"))
        .await
        .expect("add e");
    host.add_rule(Rule {
        id: String::new(),
        server: None,
        tool: None,
        argument: None,
        effect: Effect::Allow,
        definition_hash: None,
        source: Some(Source::Gateway),
        client: None,
    })
    .await
    .expect("every agent's call allowed");
    host.start().await.expect("start");

    let (mut agent, engine_side) = tokio::io::duplex(1 << 16);
    let (out, mut answers) = mpsc::channel(64);
    let (_stop, stopped) = watch::channel(false);
    let lines = LineReader::new(BufReader::new(engine_side), 1 << 20);
    let agent_name = Agent {
        client: "routing".to_owned(),
    };
    let serving = tokio::spawn(session::serve(
        host.clone(),
        agent_name,
        lines,
        out,
        stopped,
    ));

    let first = echo(&mut agent, &mut answers, 1, "e__echo", "before").await;
    assert!(first["result"].to_string().contains("before"), "{first}");

    // Another process (a CLI with `--standalone`) adds a server: only the store knows it.
    let other = support::open_host(dir.path(), false).await;
    other
        .add_server(support::everything("f"))
        .await
        .expect("add f elsewhere");
    other.shutdown().await;

    let added = echo(&mut agent, &mut answers, 2, "f__echo", "just added").await;
    assert!(
        added["result"].to_string().contains("just added"),
        "{added}"
    );

    drop(agent);
    tokio::time::timeout(WITHIN, serving)
        .await
        .expect("the session ends with its agent")
        .expect("no panic");
    host.shutdown().await;
}
