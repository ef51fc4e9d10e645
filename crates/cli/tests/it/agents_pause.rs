//! `gatehouse agents pause|resume|status` against `gatehouse serve` as a real process: the
//! switch is the engine's, each change is on its audit log as the person's once, asking for the
//! state in force changes nothing, and with no engine `status` says none runs while `pause`
//! fails saying how to start one. (What a paused agent's requests meet is tested in the engine:
//! crates/host/tests/it/agents_pause.rs.)

use crate::support::engine::serve;
use crate::support::{gatehouse, ok_json, stderr};
use serde_json::{Value, json};

/// The `agents_paused` changes on the audit log, oldest first.
fn pause_rows(data: &std::path::Path) -> Vec<Value> {
    let rows = ok_json(data, &["audit", "list", "--json"]);
    let mut changes: Vec<Value> = rows["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|row| row["detail"]["change"] == json!("agents_paused"))
        .map(|row| json!([row["source"], row["detail"]["paused"]]))
        .collect();
    changes.reverse();
    changes
}

#[test]
fn agents_are_paused_and_resumed_in_the_running_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let no_engine = ok_json(data, &["agents", "status", "--json"]);
    assert_eq!(
        no_engine,
        json!({"running": false, "paused": false, "changed": false})
    );
    let refused = gatehouse(data, &["agents", "pause"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(
        stderr(&refused).contains("no engine runs on this data directory"),
        "{refused:?}"
    );

    let _engine = serve(data);
    let state = |args: &[&str]| ok_json(data, args);
    assert_eq!(
        state(&["agents", "status", "--json"]),
        json!({"running": true, "paused": false, "changed": false})
    );
    assert_eq!(
        state(&["agents", "pause", "--json"]),
        json!({"running": true, "paused": true, "changed": true})
    );
    assert_eq!(
        state(&["agents", "pause", "--json"]),
        json!({"running": true, "paused": true, "changed": false}),
        "pausing paused agents changes nothing"
    );
    assert_eq!(
        state(&["agents", "status", "--json"]),
        json!({"running": true, "paused": true, "changed": false})
    );
    let said = gatehouse(data, &["agents", "status"]);
    assert!(
        String::from_utf8_lossy(&said.stdout).starts_with("agents paused"),
        "{said:?}"
    );
    assert_eq!(
        state(&["agents", "resume", "--json"]),
        json!({"running": true, "paused": false, "changed": true})
    );
    assert_eq!(
        pause_rows(data),
        [json!(["user", true]), json!(["user", false])],
        "each change on record once, as the person's"
    );
}
