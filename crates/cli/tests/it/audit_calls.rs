//! `gatehouse call` through the gate leaves its rows in the audit log, and no secret reaches
//! the audit log's rows, the database files (write-ahead log included) or its exports: a secret
//! env value the tool hands back (server-everything's `get-env` returns its environment), a
//! secret header value that turns up in a call's arguments and result, and an argument under a
//! token-like key.

use crate::support::{HttpFixture, add_everything, everything_js, ok, ok_json};
use serde_json::json;

/// The database files (the main file and its write-ahead log) as bytes.
fn database_bytes(data: &std::path::Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(data).expect("data dir").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.contains(".db") {
            bytes.extend(std::fs::read(entry.path()).unwrap_or_default());
        }
    }
    bytes
}

#[test]
fn a_call_is_audited_and_a_secret_it_returns_is_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let token = format!("tok-{}-{}", std::process::id(), "a7f3c9e1d2");
    let assignment = format!("GATEHOUSE_AUDIT_TOKEN={token}");
    ok(
        dir.path(),
        &[
            "server",
            "add",
            "leaky",
            "--command",
            "node",
            "--arg",
            &everything_js(),
            "--arg",
            "stdio",
            "--secret-env",
            &assignment,
        ],
    );
    let printed = ok(dir.path(), &["call", "leaky", "get-env"]);
    assert!(
        printed.contains(&token),
        "the tool really returns the secret to the person who called it (else this test shows nothing)"
    );
    add_everything(dir.path(), "plain");
    ok(
        dir.path(),
        &[
            "call",
            "plain",
            "echo",
            "--args",
            r#"{"message": "on record"}"#,
        ],
    );

    let from_server = ok_json(
        dir.path(),
        &["audit", "list", "--source", "server", "--json"],
    );
    assert!(
        from_server.to_string().contains("roots/list"),
        "the servers' own requests (server-everything asks for roots) are on record too: {from_server}"
    );
    let listed = ok_json(dir.path(), &["audit", "list", "--source", "user", "--json"]);
    let rows = listed["rows"].as_array().cloned().unwrap_or_default();
    let described: Vec<String> = rows
        .iter()
        .rev()
        .map(|r| {
            format!(
                "{} {} {}",
                r["kind"].as_str().unwrap_or("?"),
                r["server"].as_str().unwrap_or("?"),
                r["tool"].as_str().unwrap_or("?")
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            "request_received leaky get-env",
            "decision leaky get-env",
            "call_finished leaky get-env",
            "request_received plain echo",
            "decision plain echo",
            "call_finished plain echo",
        ],
        "every call through the CLI is on record"
    );

    // A secret header, whose value the person then passes along in the arguments (and the
    // tool echoes back), and an argument under a token-like key.
    let web = HttpFixture::start("streamableHttp");
    let header_value = format!("hdr-{}-5b8e0c", std::process::id());
    let header = format!("X-Api-Key: {header_value}");
    ok(
        dir.path(),
        &[
            "server",
            "add",
            "web",
            "--url",
            &web.url("/mcp"),
            "--secret-header",
            &header,
        ],
    );
    let argument_value = format!("arg-{}-c41d9f", std::process::id());
    let arguments = json!({
        "message": format!("relay {header_value} on record"),
        "access_token": argument_value,
    })
    .to_string();
    let echoed = ok(dir.path(), &["call", "web", "echo", "--args", &arguments]);
    assert!(
        echoed.contains(&header_value),
        "the tool really returns the header's value to its caller (else this shows nothing)"
    );

    let text = ok_json(dir.path(), &["audit", "list", "--json"]).to_string();
    assert!(text.contains("on record"), "the arguments are kept");
    assert!(
        text.contains("relay [redacted] on record")
            && text.contains(r#""access_token":"[redacted]""#),
        "each secret is replaced where it was"
    );
    let csv_path = dir.path().join("audit.csv");
    let csv_arg = csv_path.display().to_string();
    ok(
        dir.path(),
        &["audit", "export", "--format", "csv", "-o", &csv_arg],
    );
    let jsonl = ok(dir.path(), &["audit", "export", "--format", "jsonl"]);
    let places = [
        ("the audit log's rows", text.into_bytes()),
        (
            "the database files, the write-ahead log included",
            database_bytes(dir.path()),
        ),
        ("a JSONL export", jsonl.into_bytes()),
        (
            "a CSV export",
            std::fs::read(&csv_path).expect("the CSV export"),
        ),
    ];
    for (place, bytes) in &places {
        assert!(
            contains(bytes, "on record"),
            "{place} must hold the calls, or looking for secrets in it shows nothing"
        );
        for (secret, what) in [
            (&token, "the secret env value"),
            (&header_value, "the secret header value"),
            (&argument_value, "the token-like argument"),
        ] {
            assert!(
                !contains(bytes, secret),
                "{what} must not appear in {place}"
            );
        }
    }
    assert!(ok(dir.path(), &["audit", "verify"]).contains("intact"));
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

#[test]
fn reads_prompts_and_completions_pass_the_gate_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    add_everything(data, "ev");
    ok(data, &["read", "ev", "demo://resource/dynamic/text/2"]);
    ok(
        data,
        &[
            "prompt",
            "ev",
            "args-prompt",
            "--args",
            r#"{"city": "Oslo"}"#,
        ],
    );
    ok(
        data,
        &[
            "complete",
            "ev",
            "--prompt",
            "completable-prompt",
            "department",
            "S",
        ],
    );
    let listed = ok_json(data, &["audit", "list", "--source", "user", "--json"]);
    let rows = listed["rows"].as_array().cloned().unwrap_or_default();
    let seen: Vec<String> = rows
        .iter()
        .rev()
        .map(|r| {
            format!(
                "{} {}",
                r["kind"].as_str().unwrap_or("?"),
                r["method"].as_str().unwrap_or("?")
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            "request_received resources/read",
            "decision resources/read",
            "call_finished resources/read",
            "request_received prompts/get",
            "decision prompts/get",
            "call_finished prompts/get",
            "request_received completion/complete",
            "decision completion/complete",
            "call_finished completion/complete",
        ],
        "every request a person makes is decided and on record, not only tool calls"
    );
    let text = listed.to_string();
    assert!(
        text.contains("demo://resource/dynamic/text/2")
            && text.contains("Oslo")
            && text.contains("Sales"),
        "the rows say what was asked and answered: {text}"
    );
}
