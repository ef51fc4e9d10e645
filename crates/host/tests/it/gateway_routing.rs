//! The gateway routes an agent's calls by the servers the engine keeps in memory
//! (`store::registry::list_cache`) instead of reading the store for each call; a server another
//! process adds is callable, readable and asked for prompts at once all the same, since a name
//! or URI not found in memory is looked for afresh. The engine here reads the store's change counter once an hour, so nothing but
//! that second look can find the new server. A client whose prefix is off has its bare names
//! routed by the tools each connection last listed, without a listing per call; a resource
//! read and a bare prompt name by the resources and prompts it last listed.

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::gateway::session::{self, Agent};
use gatehouse_host::policy::{Effect, Rule};
use gatehouse_host::traffic::TrafficDirection;
use gatehouse_host::{Host, HostOptions, ServerInput, Source};
use gatehouse_mcp::transport::lines::LineReader;
use serde_json::{Value, json};
use tokio::io::{AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::{mpsc, watch};

use crate::support;

const WITHIN: Duration = Duration::from_secs(20);

/// Sends a 2026-07-28 request, and returns its answer.
async fn request(
    agent: &mut DuplexStream,
    answers: &mut mpsc::Receiver<Value>,
    id: u64,
    method: &str,
    mut params: Value,
) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "routing", "version": "1" },
    });
    let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    agent
        .write_all(format!("{request}\n").as_bytes())
        .await
        .expect("write");
    loop {
        let answer = tokio::time::timeout(WITHIN, answers.recv())
            .await
            .unwrap_or_else(|_| panic!("step: {method} ({id}) answered in time"))
            .expect("an answer");
        if answer["id"] == id {
            return answer;
        }
    }
}

/// Calls `tool` to echo `said`, and returns its answer.
async fn echo(
    agent: &mut DuplexStream,
    answers: &mut mpsc::Receiver<Value>,
    id: u64,
    tool: &str,
    said: &str,
) -> Value {
    let params = json!({ "name": tool, "arguments": { "message": said } });
    request(agent, answers, id, "tools/call", params).await
}

/// Reads the resource `uri`, and returns the answer.
async fn read(
    agent: &mut DuplexStream,
    answers: &mut mpsc::Receiver<Value>,
    id: u64,
    uri: &str,
) -> Value {
    request(agent, answers, id, "resources/read", json!({ "uri": uri })).await
}

/// An engine on `dir` serving `servers`, every agent's request allowed, its store read only
/// once an hour (so only a second look finds another process's change), started.
async fn engine(dir: &std::path::Path, servers: Vec<ServerInput>) -> Arc<Host> {
    let host = Arc::new(
        Host::open(HostOptions {
            data_dir: Some(dir.to_path_buf()),
            live_sessions: true,
            store_poll: Some(Duration::from_secs(3600)),
            ..Default::default()
        })
        .await
        .expect("open"),
    );
    for server in servers {
        host.add_server(server).await.expect("add a server");
    }
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
    host
}

/// An agent of `client` on a session of `host`: its end of the stream, its answers, what
/// stops the session, and the session's task.
type Served = (
    DuplexStream,
    mpsc::Receiver<Value>,
    watch::Sender<bool>,
    tokio::task::JoinHandle<()>,
);

fn agent_of(host: &Arc<Host>, client: &str) -> Served {
    let (agent, engine_side) = tokio::io::duplex(1 << 16);
    let (out, answers) = mpsc::channel(64);
    let (stop, stopped) = watch::channel(false);
    let lines = LineReader::new(BufReader::new(engine_side), 1 << 20);
    let agent_name = Agent {
        client: client.to_owned(),
    };
    let serving = tokio::spawn(session::serve(
        host.clone(),
        agent_name,
        lines,
        out,
        stopped,
    ));
    (agent, answers, stop, serving)
}

/// The agent goes: its session ends within `WITHIN`, without a panic; then the engine stops.
async fn end(agent: DuplexStream, serving: tokio::task::JoinHandle<()>, host: Arc<Host>) {
    drop(agent);
    tokio::time::timeout(WITHIN, serving)
        .await
        .expect("the session ends with its agent")
        .expect("no panic");
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_another_process_adds_is_callable_read_and_prompted_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = engine(dir.path(), vec![support::everything("e")]).await;
    let (mut agent, mut answers, _stop, serving) = agent_of(&host, "routing");

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

    // A resource and a prompt of servers added elsewhere are found as well: each by a look at
    // the store once the servers the engine keeps do not have it.
    let other = support::open_host(dir.path(), false).await;
    let python = |name| support::python_server(name, "server.py", vec!["stdio".into()]);
    other
        .add_server(python("p"))
        .await
        .expect("add p elsewhere");
    let readme = read(&mut agent, &mut answers, 3, "fixture://readme").await;
    assert_eq!(
        readme["result"]["contents"][0]["uri"], "fixture://readme",
        "{readme}"
    );
    other
        .add_server(python("q"))
        .await
        .expect("add q elsewhere");
    other.shutdown().await;
    let params = json!({ "name": "q__review", "arguments": { "code": "y = 2" } });
    let got = request(&mut agent, &mut answers, 4, "prompts/get", params).await;
    assert!(got["result"].to_string().contains("y = 2"), "{got}");

    end(agent, serving, host).await;
}

/// How many `method` requests the engine has sent the server named `name`.
async fn sent(host: &Host, name: &str, method: &str) -> usize {
    let id = host.server(name).await.expect("the server").config.id;
    host.traffic()
        .after(&id, 0, usize::MAX, usize::MAX)
        .entries
        .iter()
        .filter(|e| e.direction == TrafficDirection::Sent && e.method.as_deref() == Some(method))
        .count()
}

#[tokio::test]
async fn a_bare_name_is_routed_by_the_tools_already_listed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = engine(dir.path(), vec![support::everything("e")]).await;
    host.clients().add("bare").await.expect("add the client");
    host.clients()
        .set_prefix("bare", false)
        .await
        .expect("its prefix off");
    // Connected: its runner has listed its tools, and lists them again only if told to.
    support::settled(&host, "e").await;
    let (mut agent, mut answers, _stop, serving) = agent_of(&host, "bare");

    let first = echo(&mut agent, &mut answers, 1, "echo", "first").await;
    assert!(first["result"].to_string().contains("first"), "{first}");
    let listed = sent(&host, "e", "tools/list").await;
    assert!(listed >= 1, "the engine listed e's tools when it connected");
    for id in 2..7 {
        let said = format!("call {id}");
        let answer = echo(&mut agent, &mut answers, id, "echo", &said).await;
        assert!(answer["result"].to_string().contains(&said), "{answer}");
    }
    assert_eq!(
        sent(&host, "e", "tools/list").await,
        listed,
        "no call by a bare name lists the server's tools again"
    );

    // A name no server lists is still refused plainly, after a fresh look.
    let unknown = echo(&mut agent, &mut answers, 7, "no_such_tool", "x").await;
    assert!(
        unknown.to_string().contains("no tool `no_such_tool`"),
        "{unknown}"
    );

    end(agent, serving, host).await;
}

#[tokio::test]
async fn reads_and_bare_prompt_names_are_routed_by_what_was_already_listed() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The Python SDK's server gives its lists no time to stay fresh (`ttlMs` 0), so the
    // connection's result cache does not spare it a listing: only the kept URIs do.
    let python = support::python_server("p", "server.py", vec!["stdio".into()]);
    let host = engine(dir.path(), vec![python]).await;
    host.clients().add("reader").await.expect("add the client");
    host.clients()
        .set_prefix("reader", false)
        .await
        .expect("its prefix off");
    let (mut agent, mut answers, _stop, serving) = agent_of(&host, "reader");

    let listed = request(&mut agent, &mut answers, 1, "resources/list", json!({})).await;
    let uri = listed["result"]["resources"][0]["uri"]
        .as_str()
        .unwrap_or_else(|| panic!("p lists a resource: {listed}"))
        .to_owned();
    let listings = sent(&host, "p", "resources/list").await;
    assert!(listings >= 1, "the agent's list was p's listing");
    for id in 2..6 {
        let got = read(&mut agent, &mut answers, id, &uri).await;
        assert_eq!(got["result"]["contents"][0]["uri"], uri.as_str(), "{got}");
    }
    assert_eq!(
        sent(&host, "p", "resources/list").await,
        listings,
        "no read lists the server's resources again"
    );

    // A URI no server lists or fits is refused plainly, after a fresh look.
    let unknown = read(&mut agent, &mut answers, 6, "nowhere://x").await;
    assert!(
        unknown.to_string().contains("no resource `nowhere://x`"),
        "{unknown}"
    );
    assert!(
        sent(&host, "p", "resources/list").await > listings,
        "the unknown URI was looked for in a fresh listing"
    );

    // A prompt by its bare name: p's prompts listed once, for the first.
    for id in 7..10 {
        let params = json!({ "name": "review", "arguments": { "code": "x = 1" } });
        let got = request(&mut agent, &mut answers, id, "prompts/get", params).await;
        assert!(got["result"].to_string().contains("x = 1"), "{got}");
    }
    assert_eq!(
        sent(&host, "p", "prompts/list").await,
        1,
        "one listing serves every get of a bare prompt name"
    );

    end(agent, serving, host).await;
}
