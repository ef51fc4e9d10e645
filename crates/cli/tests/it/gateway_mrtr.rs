//! A server's requests during a 2026-07-28 agent's call, put to the agent as the era's input
//! requests (basic/patterns/mrtr), with a real `gatehouse serve` and server-everything: the
//! TypeScript SDK v2 client (nobody here wrote it) answers the `input_required` results through
//! its sampling and elicitation handlers and retries by itself, over stdio and over HTTP; the
//! tools' results carry its answers and the audit says the agent answered. The attacks on the
//! `requestState` (raw JSON-RPC over HTTP): tampered, another client's, replayed after use:
//! refused with -32602, the server's request left waiting for the real answer.

use crate::gateway_http::{bearer, client_with_token, exchange, http_engine, message, post};
use crate::support::gateway::{StopsTheEngine, everything_for_agents, run_client};
use crate::support::gateway::{called, steps, texts};
use serde_json::{Value, json};

fn node() -> std::path::PathBuf {
    "node".into()
}

fn the_agent_answered(lines: &[Value]) {
    let sampled = steps(lines, "sampled");
    assert_eq!(sampled.len(), 1, "the agent was asked once: {lines:?}");
    assert!(
        sampled[0].to_string().contains("the gateway's question"),
        "the server's messages reach the agent: {}",
        sampled[0]
    );
    let sampling = called(lines, "e__trigger-sampling-request");
    assert!(
        sampling.contains("written by the agent") && sampling.contains("ts-agent"),
        "the agent's reply reached the server: {sampling}"
    );
    assert_eq!(steps(lines, "elicited").len(), 1, "{lines:?}");
    let elicitation = called(lines, "e__trigger-elicitation-request");
    assert!(
        elicitation.contains("Ada from the agent"),
        "the agent's form reached the server: {elicitation}"
    );
}

const CALLS: [&str; 2] = [
    r#"e__trigger-sampling-request={"prompt":"the gateway's question"}"#,
    r#"e__trigger-elicitation-request={}"#,
];
const ANSWERS: [&str; 4] = [
    "--sampling",
    "written by the agent",
    "--elicit",
    r#"{"name":"Ada from the agent"}"#,
];

#[test]
fn a_2026_agent_answers_its_calls_sampling_and_elicitation_as_input_requests() {
    let data = everything_for_agents();
    let data = data.path();
    let _engine = StopsTheEngine(data);
    let lines = run_client(
        data,
        &node(),
        "ts_sdk_v2_client.mjs",
        "ts-modern",
        &CALLS,
        &ANSWERS,
    );
    assert_eq!(steps(&lines, "server")[0]["era"], "modern", "{lines:?}");
    the_agent_answered(&lines);
    crate::support::gateway::answered_by_agent(data, "ts-modern", 2);
}

#[test]
fn over_http_a_2026_agent_answers_its_calls_input_requests_on_fresh_posts() {
    let data = everything_for_agents();
    let data = data.path();
    let token = client_with_token(data, "ts-modern-http");
    let (port, _serve) = http_engine(data);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut more = vec!["--url", url.as_str(), "--token", token.as_str()];
    more.extend(ANSWERS);
    let lines = run_client(
        data,
        &node(),
        "ts_sdk_v2_client.mjs",
        "unused",
        &CALLS,
        &more,
    );
    assert_eq!(steps(&lines, "server")[0]["era"], "modern", "{lines:?}");
    the_agent_answered(&lines);
    crate::support::gateway::answered_by_agent(data, "ts-modern-http", 2);
}

/// A 2026-07-28 `tools/call` of server-everything's sampling tool, declaring sampling; `more`
/// are the retry's fields.
fn sampling_call(id: u64, more: Value) -> String {
    let mut params = json!({
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { "sampling": {} },
            "io.modelcontextprotocol/clientInfo": { "name": "raw-mrtr", "version": "1" },
        },
        "name": "e__trigger-sampling-request",
        "arguments": { "prompt": "raw question" },
    });
    if let (Some(params), Some(more)) = (params.as_object_mut(), more.as_object()) {
        params.extend(more.clone());
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
}

fn answer(text: &str) -> Value {
    json!({ "r1": {
        "role": "assistant", "content": { "type": "text", "text": text },
        "model": "raw-model", "stopReason": "endTurn",
    } })
}

#[test]
fn a_tampered_foreign_or_replayed_request_state_is_refused_and_answers_nothing() {
    let data = everything_for_agents();
    let data = data.path();
    let mine = client_with_token(data, "mrtr-a");
    let theirs = client_with_token(data, "mrtr-b");
    let (port, _serve) = http_engine(data);
    let host = format!("127.0.0.1:{port}");
    let send = |token: &str, body: String| {
        let headers = [
            bearer(token),
            "MCP-Protocol-Version: 2026-07-28".to_owned(),
            "Mcp-Method: tools/call".to_owned(),
            "Mcp-Name: e__trigger-sampling-request".to_owned(),
        ];
        let (status, _, body) = exchange(port, &post("/mcp", &host, &headers, &body));
        (status, message(&body))
    };

    let (status, first) = send(&mine, sampling_call(1, json!({})));
    assert_eq!(status, 200, "{first}");
    let asked = &first["result"];
    assert_eq!(asked["resultType"], "input_required", "{first}");
    assert_eq!(
        asked["inputRequests"]["r1"]["method"],
        "sampling/createMessage"
    );
    assert!(
        asked["inputRequests"]["r1"]
            .to_string()
            .contains("raw question")
    );
    let state = asked["requestState"].as_str().expect("a state").to_owned();

    // Tampered: one character of the payload changed.
    let mut tampered = state.clone().into_bytes();
    tampered[3] = if tampered[3] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).expect("ascii");
    // Another client presenting this client's state.
    for (token, state) in [(&mine, tampered.as_str()), (&theirs, state.as_str())] {
        let retry = json!({ "requestState": state, "inputResponses": answer("forged") });
        let (_, refused) = send(token, sampling_call(2, retry));
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
    }

    // The real retry: the server gets this agent's answer, not the forged one.
    let retry = json!({ "requestState": state, "inputResponses": answer("the real answer") });
    let (status, done) = send(&mine, sampling_call(3, retry.clone()));
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    let text = texts(&done["result"]);
    assert!(
        text.contains("the real answer") && !text.contains("forged"),
        "{text}"
    );

    // Replayed after use.
    let (_, replayed) = send(&mine, sampling_call(4, retry));
    assert_eq!(replayed["error"]["code"], -32602, "{replayed}");
    crate::support::gateway::answered_by_agent(data, "mrtr-a", 1);
}

#[test]
fn a_retry_without_the_answer_is_asked_again() {
    let data = everything_for_agents();
    let data = data.path();
    let token = client_with_token(data, "mrtr-again");
    let (port, _serve) = http_engine(data);
    let host = format!("127.0.0.1:{port}");
    let send = |body: String| {
        let headers = [
            bearer(&token),
            "MCP-Protocol-Version: 2026-07-28".to_owned(),
            "Mcp-Method: tools/call".to_owned(),
            "Mcp-Name: e__trigger-sampling-request".to_owned(),
        ];
        let (_, _, body) = exchange(port, &post("/mcp", &host, &headers, &body));
        message(&body)
    };
    let first = send(sampling_call(1, json!({})));
    let state = first["result"]["requestState"].as_str().expect("a state");
    let again = send(sampling_call(
        2,
        json!({ "requestState": state, "inputResponses": {} }),
    ));
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert_eq!(
        again["result"]["inputRequests"]["r1"]["method"],
        "sampling/createMessage"
    );
    let state = again["result"]["requestState"]
        .as_str()
        .expect("a new state");
    let done = send(sampling_call(
        3,
        json!({ "requestState": state, "inputResponses": answer("at last") }),
    ));
    assert!(texts(&done["result"]).contains("at last"), "{done}");
}
