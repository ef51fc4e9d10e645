//! `gatehouse serve` as a real process and the real CLI attached to it: one engine per data
//! directory (a second is refused, naming the first), `status`, `tools` and `call` served by
//! the engine's live session (no second copy of the server), the standalone fallback, and a
//! graceful stop on SIGTERM.

use std::process::Stdio;
use std::time::Duration;

use crate::support::engine::{Reaped, engine_children, serve, status, wait_connected};
use crate::support::wait::until;
use serde_json::Value;

#[test]
fn the_cli_attaches_to_a_running_engine_and_uses_its_live_session() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    assert_eq!(status(data)["running"], false, "no engine yet");
    let serve = serve(data);
    wait_connected(data);
    let status = status(data);
    assert_eq!(status["running"], true);
    assert_eq!(status["kind"], "serve");
    assert_eq!(status["pid"], serve.pid());
    let servers = engine_children(&serve);
    assert_eq!(
        servers.len(),
        1,
        "the engine runs the server once: {servers:?}"
    );

    let tools = crate::support::ok_json(data, &["tools", "e", "--json"]);
    assert!(
        tools["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "echo")),
        "{tools}"
    );
    let called = crate::support::ok_json(
        data,
        &[
            "call",
            "e",
            "echo",
            "--args",
            r#"{"message":"through the engine"}"#,
            "--json",
        ],
    );
    assert!(
        called["content"].to_string().contains("through the engine"),
        "{called}"
    );
    assert_eq!(
        engine_children(&serve),
        servers,
        "the attached commands used the engine's session, no second copy of the server"
    );

    // --standalone runs in this process, with its own copy of the server, as without an engine.
    let standalone = crate::support::ok_json(
        data,
        &[
            "call",
            "e",
            "echo",
            "--args",
            r#"{"message":"alone"}"#,
            "--json",
            "--standalone",
        ],
    );
    assert!(
        standalone["content"].to_string().contains("alone"),
        "{standalone}"
    );

    // The audit says which face each call came through: the attached call names the CLI, the
    // standalone one (a person at their own host) names none.
    let audit = crate::support::ok_json(data, &["audit", "list", "--tool", "echo", "--json"]);
    let callers: Vec<(String, Value)> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|row| row["kind"] == "request_received")
        .map(|row| {
            (
                row["detail"]["arguments"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                row["detail"]["caller"].clone(),
            )
        })
        .collect();
    assert!(
        callers.contains(&("through the engine".to_owned(), Value::from("cli"))),
        "the attached call is the CLI's, through the engine: {callers:?}"
    );
    assert!(
        callers.contains(&("alone".to_owned(), Value::Null)),
        "the standalone call names no face: {callers:?}"
    );
}

#[test]
fn a_second_engine_is_refused_naming_the_first_and_sigterm_stops_it_cleanly() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let mut serve = serve(data);
    wait_connected(data);
    let server = engine_children(&serve);
    assert_eq!(server.len(), 1, "{server:?}");

    let second = crate::support::exits(data, &["serve"], 1);
    let said = crate::support::stderr(&second);
    assert!(
        said.contains(&format!("pid {}", serve.pid())) && said.contains("kill"),
        "the refusal names the running engine and how to stop it: {said}"
    );

    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(serve.pid()).expect("pid")),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
    let status = until("serve exits after SIGTERM", Duration::from_secs(20), || {
        serve.0.try_wait().expect("wait").ok_or("still running")
    });
    assert_eq!(status.code(), Some(0), "a graceful stop exits 0");
    assert!(!data.join("engine.sock").exists(), "the socket is removed");
    assert!(!data.join("engine.json").exists(), "engine.json is removed");
    let pid = server[0].parse::<i32>().expect("a pid");
    until(
        "the server process is gone",
        Duration::from_secs(10),
        || match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) {
            Err(_) => Ok(()),
            Ok(()) => Err("still there"),
        },
    );
    assert_eq!(crate::support::engine::status(data)["running"], false);
}

#[test]
fn an_ask_on_an_attached_call_is_answered_with_approvals_answer_from_another_process() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let none = crate::support::ok_json(data, &["approvals", "list", "--json"]);
    assert_eq!(
        none["running"], false,
        "no engine, nothing can wait: {none}"
    );
    crate::support::exits(data, &["approvals", "answer", "x", "deny"], 1);

    let _serve = serve(data);
    wait_connected(data);
    crate::support::ok(data, &["policy", "set", "e", "--tool", "echo", "ask"]);
    // The call waits in the engine for an answer (nobody is at this terminal).
    let call = crate::support::command(data)
        .args([
            "call",
            "e",
            "echo",
            "--args",
            r#"{"message":"answered elsewhere"}"#,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gatehouse call starts");
    let mut call = Reaped(call);
    let waiting = until(
        "the call's question is listed",
        Duration::from_secs(20),
        || {
            let listed = crate::support::ok_json(data, &["approvals", "list", "--json"]);
            match listed["approvals"].as_array().and_then(|a| a.first()) {
                Some(first) => Ok(first.clone()),
                None => Err(listed),
            }
        },
    );
    assert_eq!(waiting["source"], "user");
    assert_eq!(
        waiting["caller"], "cli",
        "the question names the CLI: {waiting}"
    );
    assert_eq!(waiting["question"]["tool"], "echo");
    let table = crate::support::ok(data, &["approvals", "list"]);
    assert!(
        table.contains("user (cli)") && table.contains("call echo"),
        "{table}"
    );

    let id = waiting["id"].as_str().expect("an id");
    let said = crate::support::ok(data, &["approvals", "answer", id, "allow-once"]);
    assert!(said.contains("allowed once"), "{said}");
    let status = until(
        "the call ends once allowed",
        Duration::from_secs(20),
        || call.0.try_wait().expect("wait").ok_or("still waiting"),
    );
    let mut out = String::new();
    std::io::Read::read_to_string(&mut call.0.stdout.take().expect("stdout"), &mut out)
        .expect("stdout");
    assert_eq!(status.code(), Some(0), "the allowed call succeeds");
    assert!(out.contains("answered elsewhere"), "{out}");
    // The first answer won: answering again is refused.
    crate::support::exits(data, &["approvals", "answer", id, "deny"], 1);
}
