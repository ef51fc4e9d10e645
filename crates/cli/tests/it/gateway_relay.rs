//! What passes between an agent and its servers beyond calls, through `gatehouse mcp`, with the
//! Python SDK client (nobody here wrote it) against server-everything: a server's sampling and
//! elicitation requests during the agent's call go to the agent that declared them, and to the
//! person (`gatehouse approvals`) when it did not; the servers' log messages reach the agent at
//! its level, named by their server; a resource it subscribed to sends it its updates; the merged
//! tool list comes in pages, and a cursor it was not given is refused with -32602; a server's
//! prompts and resources `list_changed` reach it; a server is unsubscribed when the last agent
//! that wanted a resource leaves; over HTTP too, the agent answers its call's sampling; a
//! client whose profile does not ask the person has what it cannot answer refused.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use crate::support::engine::{Gathered, Reaped};
use crate::support::gateway::{StopsTheEngine, client_command, fixtures, run_client};
use crate::support::gateway::{called, steps};
use crate::support::wait::until;
use crate::support::{ok, ok_json};
use serde_json::Value;

fn python() -> PathBuf {
    fixtures().join("python/.venv/bin/python")
}

/// `gatehouse serve` on `data` with `env`, once its socket is there.
fn serve_with(data: &Path, env: &[(&str, &str)]) -> Reaped {
    let mut command = crate::support::command(data);
    command
        .arg("serve")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let engine = Reaped(command.spawn().expect("gatehouse serve starts"));
    until(
        "the engine's socket appears",
        Duration::from_secs(20),
        || {
            data.join("engine.sock")
                .exists()
                .then_some(())
                .ok_or("no socket")
        },
    );
    engine
}

/// Every tool of `e` allowed for agents, so that only the server's requests are in question.
fn allowed(name: &str) -> tempfile::TempDir {
    let data = crate::support::data_with_everything(name);
    ok(
        data.path(),
        &["policy", "set", name, "--source", "gateway", "allow"],
    );
    data
}

#[test]
fn an_agent_answers_the_sampling_and_elicitation_its_calls_cause() {
    let data = allowed("e");
    let data = data.path();
    let _engine = StopsTheEngine(data);
    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "py-agent",
        &[
            r#"e__trigger-sampling-request={"prompt":"the gateway's question"}"#,
            r#"e__trigger-elicitation-request={}"#,
        ],
        &[
            "--sampling",
            "written by the agent",
            "--elicit",
            r#"{"name":"Ada from the agent"}"#,
        ],
    );
    let sampled = steps(&lines, "sampled");
    assert_eq!(sampled.len(), 1, "the agent was asked once: {lines:?}");
    assert!(
        sampled[0].to_string().contains("the gateway's question"),
        "the server's messages reach the agent: {}",
        sampled[0]
    );
    let sampling = called(&lines, "e__trigger-sampling-request");
    assert!(
        sampling.contains("written by the agent") && sampling.contains("py-agent"),
        "the agent's reply reached the server: {sampling}"
    );
    assert_eq!(steps(&lines, "elicited").len(), 1, "{lines:?}");
    let elicitation = called(&lines, "e__trigger-elicitation-request");
    assert!(
        elicitation.contains("Ada from the agent"),
        "the agent's form reached the server: {elicitation}"
    );
    // The requests passed the gate on record: the decision says the agent answered.
    crate::support::gateway::answered_by_agent(data, "py-agent", 2);
}

/// A client whose profile does not ask the person: a server's sampling during its call, which
/// it cannot answer, is refused on record instead of being put to the person.
#[test]
fn a_profile_that_does_not_ask_the_person_has_what_the_agent_cannot_answer_refused() {
    let data = allowed("e");
    let data = data.path();
    ok(data, &["clients", "add", "py-alone"]);
    ok(
        data,
        &["clients", "profile", "py-alone", "--ask-person", "off"],
    );
    let shown = ok(data, &["clients", "show", "py-alone"]);
    assert!(shown.contains("ask person  off"), "{shown}");
    let _engine = StopsTheEngine(data);
    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "py-alone",
        &[r#"e__trigger-sampling-request={"prompt":"anyone there?"}"#],
        &[],
    );
    let call = steps(&lines, "call")
        .into_iter()
        .find(|c| c["name"] == "e__trigger-sampling-request")
        .unwrap_or_else(|| panic!("no call: {lines:?}"));
    assert!(
        call.to_string().contains("does not ask the person"),
        "the server was told why: {call}"
    );
    let audit = ok_json(data, &["audit", "list", "--json", "--limit", "200"]);
    let refused: Vec<&Value> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["source"] == "server" && r["method"] == "sampling/createMessage")
        .filter(|r| r["kind"] == "call_finished")
        .collect();
    assert_eq!(refused.len(), 1, "the refusal is on record: {audit}");
    assert_eq!(refused[0]["errorType"], "-32601", "{}", refused[0]);
    assert!(
        ok_json(data, &["approvals", "list", "--json"])["approvals"]
            .as_array()
            .is_some_and(Vec::is_empty),
        "the person was not asked"
    );
}

/// Over HTTP both ways: the agent on the gateway's endpoint, server-everything on its own
/// Streamable HTTP endpoint (so a server's request names the call it serves by the stream it
/// comes on; over stdio nothing does).
#[test]
fn over_http_the_agent_answers_the_sampling_its_call_causes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let _server = crate::support::add_everything_over_http(data, "e");
    ok(
        data,
        &["policy", "set", "e", "--source", "gateway", "allow"],
    );
    ok(data, &["clients", "add", "py-http"]);
    let token = ok(data, &["clients", "token", "create", "py-http"])
        .trim()
        .to_owned();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    ok(
        data,
        &["gateway", "http", "on", "--port", &port.to_string()],
    );
    let _engine = serve_with(data, &[]);
    until(
        "the gateway's HTTP endpoint accepts connections",
        Duration::from_secs(20),
        || std::net::TcpStream::connect(("127.0.0.1", port)).map(drop),
    );
    let url = format!("http://127.0.0.1:{port}/mcp/c/{token}");
    // Two calls at once in one session, each answered only once both were asked: each call's
    // sampling comes on the SSE stream of the POST whose call caused it (not the session's GET
    // stream, nor the other call's).
    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "unused",
        &[
            r#"e__trigger-sampling-request={"prompt":"first over http"}"#,
            r#"e__trigger-sampling-request={"prompt":"second over http"}"#,
        ],
        &[
            "--url",
            &url,
            "--sampling",
            "written over http",
            "--together",
            "2",
        ],
    );
    assert_eq!(steps(&lines, "sampled").len(), 2, "{lines:?}");
    for call in steps(&lines, "call") {
        let said = crate::support::gateway::texts(&call["result"]);
        assert!(
            said.contains("written over http"),
            "the agent's reply reached the server: {call}"
        );
    }
    let carried = steps(&lines, "sse-request");
    assert_eq!(carried.len(), 2, "{lines:?}");
    for seen in carried {
        assert_eq!(seen["http"], "POST", "{seen}");
        assert_eq!(seen["method"], "sampling/createMessage", "{seen}");
        let prompt = seen["call"]["prompt"].as_str().expect("a call's POST");
        assert!(
            seen["params"].to_string().contains(prompt),
            "on the stream of its own call: {seen}"
        );
    }
}

#[test]
fn an_agent_without_sampling_leaves_the_request_to_the_person() {
    let data = allowed("e");
    let data = data.path();
    let _engine = StopsTheEngine(data);
    let mut command = client_command(
        data,
        &python(),
        "py_sdk_client.py",
        "plain-agent",
        &[r#"e__trigger-sampling-request={"prompt":"for the person"}"#],
        &[],
    );
    let mut agent = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the client starts");
    let out = Gathered::from(agent.stdout.take().expect("stdout"));
    let mut agent = Reaped(agent);
    let waiting = until(
        "the server's sampling request waits for the person",
        Duration::from_secs(60),
        || {
            let listed = ok_json(data, &["approvals", "list", "--json"]);
            match listed["approvals"].as_array().and_then(|a| a.first()) {
                Some(first) => Ok(first.clone()),
                None => Err(listed),
            }
        },
    );
    assert_eq!(waiting["source"], "server", "{waiting}");
    assert!(
        waiting.to_string().contains("for the person"),
        "the person sees the server's messages: {waiting}"
    );
    let id = waiting["id"].as_str().expect("an id");
    ok(data, &["approvals", "answer", id, "deny"]);
    let status = until("the agent ends", Duration::from_secs(30), || {
        agent.0.try_wait().expect("wait").ok_or("running")
    });
    let text = out.text();
    assert!(status.success(), "{text}");
    assert!(
        text.contains("declined by the person"),
        "the person's refusal reached the server and the agent's result: {text}"
    );
    assert!(
        !text.contains(r#""step": "sampled""#),
        "the agent was not asked: {text}"
    );
}

#[test]
fn log_messages_and_the_updates_of_a_subscribed_resource_reach_the_agent() {
    let data = allowed("e");
    let data = data.path();
    let _engine = StopsTheEngine(data);
    let uri = "demo://resource/dynamic/text/1";
    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "py-agent",
        &[r#"e__toggle-subscriber-updates={}"#],
        &["--log-level", "info", "--subscribe", uri, "--wait-updated"],
    );
    assert_eq!(
        steps(&lines, "updated"),
        vec![&Value::from(uri)],
        "{lines:?}"
    );
    let logs = steps(&lines, "log");
    assert!(
        logs.iter().any(|log| log["logger"] == "e"
            && log["data"]
                .as_str()
                .is_some_and(|d| d.contains("Received Subscribe Resource request"))),
        "the server's log message reached the agent, named by its server: {logs:?}"
    );
    let server = &steps(&lines, "server")[0]["capabilities"];
    assert_eq!(server["resources"]["subscribe"], true, "{server}");
    assert!(server["logging"].is_object(), "{server}");
}

#[test]
fn an_agent_leaving_unsubscribes_the_server_from_what_only_it_wanted() {
    let data = allowed("e");
    let data = data.path();
    let _engine = StopsTheEngine(data);
    let uri = "demo://resource/dynamic/text/2";
    // Another agent hears the server's log, where server-everything says it was unsubscribed.
    let mut command = client_command(
        data,
        &python(),
        "py_sdk_client.py",
        "listener",
        &[],
        &[
            "--wait-log",
            &format!("Received Unsubscribe Resource request: {uri}"),
        ],
    );
    let mut listener = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the listener starts");
    let out = Gathered::from(listener.stdout.take().expect("stdout"));
    let mut listener = Reaped(listener);
    out.wait_for(
        "the listener is attached",
        r#""step": "tools""#,
        Duration::from_secs(60),
    );
    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "subscriber",
        &[],
        &["--subscribe", uri],
    );
    assert_eq!(steps(&lines, "subscribed"), vec![&Value::from(uri)]);
    let status = until(
        "the server is told to unsubscribe once the subscriber left",
        Duration::from_secs(40),
        || listener.0.try_wait().expect("wait").ok_or("listening"),
    );
    assert!(status.success(), "{}", out.text());
}

/// A server whose tool `change` says its tools, prompts and resources changed (its tools are
/// in fact the same).
const CHANGING: &str = r#"
def answer(method, params):
    if method == "tools/call":
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        send({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"})
        send({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
        return {"content": [{"type": "text", "text": "changed"}]}
    return {"tools/list": {"tools": [tool("change")]}, "prompts/list": {"prompts": []},
            "resources/list": {"resources": []}, "ping": {}}.get(method)
serve({"tools": {"listChanged": True}, "prompts": {"listChanged": True},
       "resources": {"listChanged": True}}, answer)
"#;

#[test]
fn a_servers_list_changed_reach_the_agent_even_when_its_tools_came_back_the_same() {
    let data = tempfile::tempdir().expect("temp dir");
    let data = data.path();
    crate::support::add_scripted(data, "s", CHANGING);
    ok(
        data,
        &["policy", "set", "s", "--source", "gateway", "allow"],
    );
    // The server connected before the agent comes: only the server's own notifications change
    // the agent's lists. Its tool list, listed again, is the same: the agent is told anyway,
    // as the server said it changed.
    let _engine = serve_with(data, &[]);
    crate::support::engine::wait_connected(data);
    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "py-agent",
        &[r#"s__change={}"#],
        &["--wait-lists-changed"],
    );
    assert_eq!(called(&lines, "s__change"), "changed");
    assert_eq!(steps(&lines, "lists-changed"), vec![&Value::Bool(true)]);
    let server = &steps(&lines, "server")[0]["capabilities"];
    assert_eq!(server["prompts"]["listChanged"], true, "{server}");
    assert_eq!(server["resources"]["listChanged"], true, "{server}");
}

#[test]
fn the_merged_tool_list_comes_in_pages_and_a_made_up_cursor_is_refused() {
    let data = allowed("e");
    let data = data.path();
    // The engine started here, with a small page size (the client's `gatehouse mcp` gets only
    // the Python SDK's default environment, so it would start one without it).
    let _engine = serve_with(data, &[("GATEHOUSE_GATEWAY_PAGE_SIZE", "5")]);
    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "py-agent",
        &[],
        &["--page-tools"],
    );
    let pages = steps(&lines, "tool-pages")[0]
        .as_array()
        .expect("pages")
        .clone();
    let first_list = steps(&lines, "tools")[0].as_array().expect("tools").len();
    assert!(first_list <= 5, "the first list is one page: {first_list}");
    assert!(
        pages.len() > 2,
        "server-everything's tools fill pages: {pages:?}"
    );
    let sizes: Vec<usize> = pages
        .iter()
        .map(|p| p.as_array().map_or(0, Vec::len))
        .collect();
    assert!(
        sizes[..sizes.len() - 1].iter().all(|s| *s == 5),
        "{sizes:?}"
    );
    let names: std::collections::HashSet<&str> = pages
        .iter()
        .flat_map(|p| p.as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(names.len(), sizes.iter().sum::<usize>(), "no tool twice");
    assert!(names.contains("e__echo"), "{names:?}");
    let refused = &steps(&lines, "bad-cursor")[0];
    assert_eq!(refused["code"], -32602, "{refused}");
}
