//! Bad input on the engine's control socket, against `gatehouse serve` as a real process: a
//! malformed, unversioned or hello-less message is answered with an error carrying its typed
//! code and the connection closed, and the engine goes on serving other faces.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

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

#[test]
fn bad_messages_are_refused_with_a_code_and_the_connection_closed_the_engine_unharmed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let _serve = crate::support::engine::serve(data);
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
    ] {
        let (reply, closed) = send_raw(data, line);
        assert_eq!(reply["error"]["data"]["code"], "protocol", "{what}: {reply}");
        assert!(closed, "{what}: the connection is closed after the error");
    }
    let status = crate::support::ok_json(data, &["status", "--json"]);
    assert_eq!(
        status["running"], true,
        "the engine still serves a normal face: {status}"
    );
}
