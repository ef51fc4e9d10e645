//! Bad input and faults on the engine's control socket, against `gatehouse serve` as a real
//! process: a malformed, unversioned, hello-less or oversized message is answered with an error
//! carrying its typed code and the connection closed; a face that never reads what it asked for
//! is cut off with the engine's memory bounded; fifty faces calling at once are all served and
//! all audited; and `status` lists its own connection among the faces.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::engine::{Reaped, rss_kib, serve, status, wait_connected};
use crate::support::wait::until;

/// Sends `line` on a fresh connection; returns the reply and whether the engine then closed it.
fn send_raw(data: &Path, line: &[u8]) -> (Value, bool) {
    let mut stream = UnixStream::connect(data.join("engine.sock")).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream.write_all(line).expect("writes");
    stream.write_all(b"\n").expect("writes");
    let mut reader = BufReader::new(stream);
    let mut reply = String::new();
    reader.read_line(&mut reply).expect("a reply");
    let mut rest = String::new();
    let closed = matches!(reader.read_line(&mut rest), Ok(0));
    (
        serde_json::from_str(&reply).expect("the reply is JSON"),
        closed,
    )
}

/// A raw connection that has said `hello` as the face `name`, its reply read.
fn attached(data: &Path, name: &str) -> UnixStream {
    let mut stream = UnixStream::connect(data.join("engine.sock")).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let hello = json!({"jsonrpc": "2.0", "id": 0, "method": "hello",
        "params": {"version": 1, "face": "cli", "name": name, "pid": std::process::id()}});
    writeln!(stream, "{hello}").expect("hello");
    let mut reply = String::new();
    BufReader::new(stream.try_clone().expect("clone"))
        .read_line(&mut reply)
        .expect("hello's reply");
    assert!(reply.contains("\"result\""), "hello is answered: {reply}");
    stream
}

#[test]
fn bad_messages_are_refused_with_a_code_and_the_connection_closed_the_engine_unharmed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let _serve = serve(data);
    let oversized = format!("\"{}\"", "x".repeat(17 * 1024 * 1024));
    for (what, line) in [
        ("malformed JSON", &b"{this is not json"[..]),
        (
            "an unversioned hello",
            br#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"face":"cli","name":"x","pid":1}}"#,
        ),
        (
            "a wrong version",
            br#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"version":99,"face":"cli","name":"x","pid":1}}"#,
        ),
        ("no hello first", br#"{"jsonrpc":"2.0","id":1,"method":"status","params":{}}"#),
        ("an unknown method", br#"{"jsonrpc":"2.0","id":1,"method":"format","params":{}}"#),
        ("a 17 MiB line", oversized.as_bytes()),
    ] {
        let (reply, closed) = send_raw(data, line);
        assert_eq!(reply["error"]["data"]["code"], "protocol", "{what}: {reply}");
        assert!(closed, "{what}: the connection is closed after the error");
        if what == "a 17 MiB line" {
            let said = reply["error"]["message"].as_str().unwrap_or_default();
            assert!(
                said.contains("over the limit of 16777216"),
                "the error names the limit: {said}"
            );
        }
    }
    assert_eq!(
        status(data)["running"],
        true,
        "the engine still serves a normal face"
    );
}

/// Faces that never read, each asking for [`REPLY_MIB`] MiB replies [`ASKED`] times (under the 32
/// requests one connection may have running).
const FLOODERS: usize = 3;
const ASKED: usize = 30;
const REPLY_MIB: usize = 3;
/// How much the engine's memory may grow meanwhile: each face's queue holds at most 8 MiB
/// (`OUTGOING_BYTES`) plus the reply being written; the rest is the allocator's slack for the
/// replies being built. Without the byte bound the queued replies alone would be 270 MiB.
const FLOOD_GROWTH_KIB: u64 = 96 * 1024;

#[test]
fn a_face_that_never_reads_is_cut_off_with_the_engines_memory_bounded_others_served() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let serve = serve(data);
    wait_connected(data);
    crate::support::ok(data, &["policy", "set", "e", "--tool", "echo", "ask"]);
    // A question with large arguments waits, so that each `listApprovals` reply is that large.
    let mut asker = attached(data, "asker");
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "callTool", "params": {
        "server": "e", "tool": "echo",
        "arguments": {"message": "m".repeat(REPLY_MIB * 1024 * 1024)}}});
    writeln!(asker, "{big}").expect("the call is sent");
    until("the big question waits", Duration::from_secs(20), || {
        let listed = crate::support::ok_json(data, &["approvals", "list", "--json"]);
        match listed["approvals"].as_array().map(Vec::len) {
            Some(1) => Ok(()),
            _ => Err("not yet"),
        }
    });
    let before = rss_kib(serve.pid());

    let mut requests = String::new();
    for id in 1..=ASKED {
        requests.push_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"listApprovals\",\"params\":{{}}}}\n"
        ));
    }
    let mut floods: Vec<UnixStream> = (0..FLOODERS)
        .map(|_| attached(data, "never-reads"))
        .collect();
    for flood in &mut floods {
        flood
            .write_all(requests.as_bytes())
            .expect("the requests are sent");
    }

    // Another face is served meanwhile, promptly.
    let asked = Instant::now();
    let tools = crate::support::ok(data, &["tools", "e"]);
    assert!(tools.contains("echo"), "{tools}");
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "another face waited {:?}",
        asked.elapsed()
    );
    until(
        "the faces that never read are disconnected",
        Duration::from_secs(30),
        || {
            let faces = status(data)["faces"].clone();
            let there = faces
                .as_array()
                .is_some_and(|f| f.iter().any(|f| f["name"] == "never-reads"));
            if there { Err(faces) } else { Ok(()) }
        },
    );
    let after = rss_kib(serve.pid());
    assert!(
        after < before + FLOOD_GROWTH_KIB,
        "the engine grew from {before} KiB to {after} KiB, over the bound of {FLOOD_GROWTH_KIB} KiB"
    );
    // What each face was sent before it was cut off ends: the engine closed the connection.
    for mut flood in floods {
        let mut drained = Vec::new();
        let ended = std::io::Read::read_to_end(&mut flood, &mut drained);
        assert!(ended.is_ok(), "the connection ends: {ended:?}");
    }
    assert_eq!(status(data)["running"], true);
    drop(asker);
}

#[test]
fn fifty_faces_calling_at_once_are_all_served_and_all_audited() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let _serve = serve(data);
    wait_connected(data);
    let calls: Vec<(String, Reaped)> = (0..50)
        .map(|n| {
            let message = format!("face {n}");
            let child = crate::support::command(data)
                .args(["call", "e", "echo", "--args"])
                .arg(json!({ "message": message }).to_string())
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("gatehouse call starts");
            (message, Reaped(child))
        })
        .collect();
    for (message, mut call) in calls {
        let status = until("each call ends", Duration::from_secs(60), || {
            call.0.try_wait().expect("wait").ok_or("still running")
        });
        let mut out = String::new();
        std::io::Read::read_to_string(&mut call.0.stdout.take().expect("stdout"), &mut out)
            .expect("stdout");
        assert!(status.success(), "`{message}` failed: {status}");
        assert_eq!(out, format!("Echo: {message}\n"));
    }
    let audit = crate::support::ok_json(
        data,
        &[
            "audit", "list", "--tool", "echo", "--limit", "1000", "--json",
        ],
    );
    let received: Vec<&Value> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|row| row["kind"] == "request_received")
        .collect();
    for n in 0..50 {
        let message = format!("face {n}");
        let row = received
            .iter()
            .find(|row| row["detail"]["arguments"]["message"] == message.as_str());
        let row = row.unwrap_or_else(|| panic!("`{message}` is on record: {received:?}"));
        assert_eq!(row["detail"]["caller"], "cli", "{row}");
    }
    assert_eq!(received.len(), 50, "one request per call, none twice");
}

#[test]
fn status_lists_its_own_connection_among_the_faces() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let _serve = serve(data);
    let asking = crate::support::command(data)
        .args(["status", "--json"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("gatehouse status starts");
    let pid = asking.id();
    let output = asking.wait_with_output().expect("status ends");
    assert!(output.status.success());
    let status: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let faces = status["faces"].as_array().expect("faces");
    assert!(
        faces
            .iter()
            .any(|f| f["face"] == "cli" && f["name"] == "gatehouse" && f["pid"] == pid),
        "the asking command (pid {pid}) is attached while it asks: {faces:?}"
    );
}
