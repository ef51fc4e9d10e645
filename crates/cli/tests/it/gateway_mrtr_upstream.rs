//! A 2026-07-28 server's own input requests through the gateway (basic/patterns/mrtr): the
//! conformance suite's Everything Server registered over Streamable HTTP, where Gatehouse speaks
//! 2026-07-28 with it. Its `InputRequiredResult` reaches the agent under the server's own keys,
//! the round whole; each request passes the gate on its way (a decision row answered by the
//! agent); and a request made inside one agent's call goes to that agent even while another
//! agent's call to the same server is in flight (before, two agents calling one server sent the
//! server's requests to the person). A 2025-era agent gets the same round as requests of its own
//! (the Python SDK client answering them), the gateway translating. What an agent cannot answer
//! is offered to the server only when the agent's profile asks the person for it; answers an
//! agent gives before the server asked go to the server with the call, on record.

use serde_json::{Value, json};

use crate::gateway_http::{bearer, client_with_token, exchange, http_engine, message, post};
use crate::support::gateway::{StopsTheEngine, called, fixtures, run_client, steps, texts};
use crate::support::ok;

/// A 2026-07-28 `tools/call` of `tool` declaring every capability, with `more` fields.
fn call(id: u64, tool: &str, more: Value) -> String {
    let every = json!({ "sampling": {}, "elicitation": {}, "roots": {} });
    declaring(id, tool, every, more)
}

/// A 2026-07-28 `tools/call` of `tool` declaring `capabilities`, with `more` fields.
fn declaring(id: u64, tool: &str, capabilities: Value, more: Value) -> String {
    let mut params = json!({
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": { "name": "raw-upstream", "version": "1" },
        },
        "name": tool,
        "arguments": {},
    });
    if let (Some(params), Some(more)) = (params.as_object_mut(), more.as_object()) {
        params.extend(more.clone());
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
}

/// Posts the 2026-07-28 `tools/call` of `tool` in `body` to the endpoint on `port` with
/// `token`: the HTTP status and the JSON-RPC response.
fn send_call(port: u16, token: &str, tool: &str, body: &str) -> (u16, Value) {
    let headers = [
        bearer(token),
        "MCP-Protocol-Version: 2026-07-28".to_owned(),
        "Mcp-Method: tools/call".to_owned(),
        format!("Mcp-Name: {tool}"),
    ];
    let host = format!("127.0.0.1:{port}");
    let (status, _, body) = exchange(port, &post("/mcp", &host, &headers, body));
    (status, message(&body))
}

fn keys(result: &Value) -> Vec<String> {
    let mut keys: Vec<String> = result["inputRequests"]
        .as_object()
        .map(|requests| requests.keys().cloned().collect())
        .unwrap_or_default();
    keys.sort();
    keys
}

#[test]
fn a_2026_servers_input_requests_reach_the_calling_agent_under_the_servers_keys() {
    let data = tempfile::tempdir().expect("temp dir");
    let data = data.path();
    let _fixture = crate::support::gateway::conformance_for_agents(data);
    let first = client_with_token(data, "agent-a");
    let second = client_with_token(data, "agent-b");
    let (port, _serve) = http_engine(data);
    let send = |token: &str, tool: &str, body: String| {
        let (status, reply) = send_call(port, token, tool, &body);
        assert_eq!(status, 200, "{reply}");
        reply["result"].clone()
    };
    let multiple = "c__test_input_required_result_multiple_inputs";
    let single = "c__test_input_required_result_elicitation";

    // The server's round of three, under its own keys, in one result.
    let asked = send(&first, multiple, call(1, multiple, json!({})));
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    assert_eq!(keys(&asked), ["client_roots", "greeting", "user_name"]);
    assert_eq!(
        asked["inputRequests"]["user_name"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        asked["inputRequests"]["greeting"]["method"],
        "sampling/createMessage"
    );
    let first_state = asked["requestState"].as_str().expect("a state").to_owned();

    // While agent-a's call waits (in flight to the server), agent-b's own call is asked of
    // agent-b, not of the person.
    let asked = send(&second, single, call(2, single, json!({})));
    assert_eq!(keys(&asked), ["user_name"], "{asked}");
    let retry = json!({
        "requestState": asked["requestState"],
        "inputResponses": { "user_name": { "action": "accept", "content": { "name": "Bea" } } },
    });
    let done = send(&second, single, call(3, single, retry));
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(texts(&done), "Hello, Bea!");

    let retry = json!({
        "requestState": first_state,
        "inputResponses": {
            "user_name": { "action": "accept", "content": { "name": "Ada" } },
            "greeting": {
                "role": "assistant", "content": { "type": "text", "text": "Good morning" },
                "model": "raw-model", "stopReason": "endTurn",
            },
            "client_roots": { "roots": [{ "uri": "file:///work", "name": "work" }] },
        },
    });
    let done = send(&first, multiple, call(4, multiple, retry));
    assert_eq!(done["resultType"], "complete", "{done}");
    let said = texts(&done);
    assert!(
        said.starts_with("Good morning, Ada!") && said.contains("file:///work"),
        "{said}"
    );

    // Each of the four passed the gate, answered by the agent whose call it served.
    let answered = crate::support::gateway::answered_by_agents(data);
    let expected = [
        ("agent-a", "elicitation/create"),
        ("agent-a", "roots/list"),
        ("agent-a", "sampling/createMessage"),
        ("agent-b", "elicitation/create"),
    ]
    .map(|(c, m)| (c.to_owned(), m.to_owned()));
    assert_eq!(answered, expected);
}

#[test]
fn a_2025_agent_answers_a_2026_servers_input_requests_sent_as_its_own_requests() {
    let data = tempfile::tempdir().expect("temp dir");
    let data = data.path();
    let _fixture = crate::support::gateway::conformance_for_agents(data);
    let _engine = StopsTheEngine(data);
    let tool = "c__test_input_required_result_multiple_inputs";
    let lines = run_client(
        data,
        &fixtures().join("python/.venv/bin/python"),
        "py_sdk_client.py",
        "py-legacy",
        &[&format!("{tool}={{}}")],
        &[
            "--sampling",
            "Good evening",
            "--elicit",
            r#"{"name":"Ada"}"#,
            "--roots",
            "file:///work",
        ],
    );
    for step in ["sampled", "elicited", "rooted"] {
        assert_eq!(steps(&lines, step).len(), 1, "{step} once: {lines:?}");
    }
    let said = called(&lines, tool);
    assert!(
        said.starts_with("Good evening, Ada!") && said.contains("file:///work"),
        "the agent's three answers reached the server: {said}"
    );
    crate::support::gateway::answered_by_agent(data, "py-legacy", 3);
}

#[test]
fn what_an_agent_cannot_answer_is_offered_as_its_profile_says_and_answers_given_early_go_on_record()
{
    let data = tempfile::tempdir().expect("temp dir");
    let data = data.path();
    let _fixture = crate::support::gateway::conformance_for_agents(data);
    let alone = client_with_token(data, "agent-alone");
    ok(
        data,
        &["clients", "profile", "agent-alone", "--ask-person", "off"],
    );
    let attended = client_with_token(data, "agent-attended");
    let (port, _serve) = http_engine(data);
    let send = |token: &str, tool: &str, body: String| send_call(port, token, tool, &body);
    let needs = "c__test_missing_capability";

    // Neither agent declared sampling. The person may answer for agent-attended, so the server
    // is offered it; not for agent-alone, so the server refuses in its own words (HTTP 400).
    let (status, reply) = send(&attended, needs, declaring(1, needs, json!({}), json!({})));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(texts(&reply["result"]), "The client declared sampling.");
    let (status, reply) = send(&alone, needs, declaring(2, needs, json!({}), json!({})));
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["error"]["code"], -32021, "{reply}");
    assert!(
        reply["error"]["data"]["requiredCapabilities"]["sampling"].is_object(),
        "the server's own data: {reply}"
    );

    // Answers given before the server asked (one it knows, one it does not) reach it: it asks
    // nothing and completes.
    let single = "c__test_input_required_result_elicitation";
    let early = json!({ "inputResponses": {
        "user_name": { "action": "accept", "content": { "name": "Early" } },
        "unknown_key": { "action": "accept", "content": { "foo": "bar" } },
    } });
    let (status, reply) = send(&alone, single, call(3, single, early));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    assert_eq!(texts(&reply["result"]), "Hello, Early!");
    let audit = crate::support::ok_json(data, &["audit", "list", "--json", "--limit", "200"]);
    let given: Vec<&Value> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["detail"].get("inputResponses"))
        .collect();
    assert_eq!(given.len(), 1, "on the call's first row: {audit}");
    assert_eq!(given[0]["user_name"]["content"]["name"], "Early");

    // More than the bound is refused before anything reaches the server.
    let flood = json!({ "inputResponses": {
        "user_name": { "action": "accept", "content": { "name": "x".repeat(70_000) } },
    } });
    let (_, reply) = send(&alone, single, call(4, single, flood));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
}
