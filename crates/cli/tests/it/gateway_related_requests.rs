//! A 2025-era server over Streamable HTTP sends the requests it makes for a call on that call's
//! own response stream (2025-11-25 basic/transports). Through the gateway each such request goes
//! to the agent whose call it serves, even while another agent's call to the same server is in
//! flight (over stdio nothing tells the two apart, and the person is asked). server-everything
//! over Streamable HTTP, two Python SDK clients through `gatehouse mcp`.

use std::process::Stdio;
use std::time::Duration;

use crate::support::engine::{Gathered, Reaped};
use crate::support::gateway::{
    StopsTheEngine, called, client_command, fixtures, run_client, steps,
};
use crate::support::ok;
use crate::support::wait::until;
use serde_json::Value;

#[test]
fn each_agents_call_gets_its_own_sampling_while_another_agents_call_to_the_server_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let _server = crate::support::add_everything_over_http(data, "web");
    ok(
        data,
        &["policy", "set", "web", "--source", "gateway", "allow"],
    );
    let _engine = StopsTheEngine(data);
    let python = fixtures().join("python/.venv/bin/python");
    let hold = data.join("answer-now");
    let hold_arg = hold.to_string_lossy().into_owned();

    // Agent A's call waits on A's answer, which A holds back.
    let mut first = client_command(
        data,
        &python,
        "py_sdk_client.py",
        "agent-a",
        &[r#"web__trigger-sampling-request={"prompt":"asked of a"}"#],
        &["--sampling", "answered by a", "--sampling-hold", &hold_arg],
    );
    let mut first = Reaped(
        first
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("agent a starts"),
    );
    let first_out = Gathered::from(first.0.stdout.take().expect("agent a's stdout"));
    first_out.wait_for(
        "agent a is asked for its call's sampling",
        r#""step": "sampled""#,
        Duration::from_secs(60),
    );

    // Meanwhile agent B calls the same server: its sampling reaches B, not A and not the person.
    let second = run_client(
        data,
        &python,
        "py_sdk_client.py",
        "agent-b",
        &[r#"web__trigger-sampling-request={"prompt":"asked of b"}"#],
        &["--sampling", "answered by b"],
    );
    let asked_b = steps(&second, "sampled");
    assert_eq!(asked_b.len(), 1, "{second:?}");
    assert!(
        asked_b[0].to_string().contains("asked of b"),
        "{}",
        asked_b[0]
    );
    assert!(
        called(&second, "web__trigger-sampling-request").contains("answered by b"),
        "{second:?}"
    );

    std::fs::write(&hold, b"").expect("let agent a answer");
    let status = until("agent a ends", Duration::from_secs(30), || {
        first.0.try_wait().expect("wait").ok_or("running")
    });
    assert!(status.success(), "{}", first_out.text());
    let first_lines: Vec<Value> = first_out
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
        .collect();
    let asked_a = steps(&first_lines, "sampled");
    assert_eq!(asked_a.len(), 1, "{first_lines:?}");
    assert!(
        asked_a[0].to_string().contains("asked of a"),
        "{}",
        asked_a[0]
    );
    assert!(
        called(&first_lines, "web__trigger-sampling-request").contains("answered by a"),
        "{first_lines:?}"
    );

    // On record: each request decided and answered by the agent whose call it served.
    let answered = crate::support::gateway::answered_by_agents(data);
    let sampling = "sampling/createMessage".to_owned();
    assert_eq!(
        answered,
        [
            ("agent-a".to_owned(), sampling.clone()),
            ("agent-b".to_owned(), sampling)
        ]
    );
}
