//! `gatehouse info|resources|templates|read|prompts|prompt|complete|ping` against the real
//! server-everything over stdio: the text a person reads, the documented `--json` shapes, and
//! the usage (2) and operational (1) errors, including a feature the server did not declare;
//! and `gatehouse tools` on a real server that offers prompts but no tools.

use crate::support::{
    add_offering_only, add_tools_only, data_with_everything, exits, ok, ok_json, stderr,
};
use serde_json::json;

#[test]
fn info_shows_the_handshake() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    let text = ok(data, &["info", "ev"]);
    for expected in [
        "transport:      stdio",
        "protocol:       2025-11-25",
        "era:            legacy (initialize handshake)",
        "resources (subscribe, listChanged)",
        "mcp-servers/everything",
        "instructions:\n  ",
    ] {
        assert!(text.contains(expected), "`{expected}` in: {text}");
    }
    let info = ok_json(data, &["info", "ev", "--json"]);
    assert_eq!(info["server"], "ev");
    assert_eq!(info["transport"], "stdio");
    assert_eq!(info["protocolVersion"], "2025-11-25");
    assert_eq!(
        info["era"], "legacy",
        "scripts can tell the handshake era apart"
    );
    assert_eq!(info["serverInfo"]["name"], "mcp-servers/everything");
    assert_eq!(info["capabilities"]["resources"]["subscribe"], true);
    assert!(
        info["instructions"].as_str().is_some_and(|i| !i.is_empty()),
        "server-everything sends instructions"
    );
}

#[test]
fn lists_resources_and_templates_and_reads_them() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    let table = ok(data, &["resources", "ev"]);
    assert!(
        table.starts_with("URI") && table.contains("demo://resource/static/document/features.md"),
        "got: {table}"
    );
    let listed = ok_json(data, &["resources", "ev", "--json"]);
    let features = listed["resources"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["name"] == "features.md"))
        .expect("features.md is listed");
    assert_eq!(features["mimeType"], "text/markdown");
    assert_eq!(listed["malformed"], json!([]));

    let templates = ok_json(data, &["templates", "ev", "--json"]);
    assert!(
        templates["resourceTemplates"].as_array().is_some_and(|t| t
            .iter()
            .any(|t| t["uriTemplate"] == "demo://resource/dynamic/text/{resourceId}")),
        "got: {templates}"
    );
    assert!(ok(data, &["templates", "ev"]).contains("Dynamic Blob Resource"));

    let text = ok(data, &["read", "ev", "demo://resource/dynamic/text/2"]);
    assert!(
        text.starts_with("Resource 2: This is a plaintext resource"),
        "text contents print as they are, for piping: {text}"
    );
    let blob = ok(data, &["read", "ev", "demo://resource/dynamic/blob/2"]);
    assert!(
        blob.contains("bytes, binary; see --json"),
        "a blob is summarised, not dumped: {blob}"
    );
    let read = ok_json(
        data,
        &["read", "ev", "demo://resource/dynamic/blob/2", "--json"],
    );
    assert_eq!(read["uri"], "demo://resource/dynamic/blob/2");
    assert!(
        read["contents"][0]["blob"]
            .as_str()
            .is_some_and(|b| b.starts_with("UmVzb3VyY2UgMjo")),
        "--json carries the base64 blob: {read}"
    );
}

#[test]
fn lists_prompts_and_fills_one_in() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    let table = ok(data, &["prompts", "ev"]);
    assert!(
        table.contains("args-prompt") && table.contains("city*, state"),
        "required arguments are starred: {table}"
    );
    let listed = ok_json(data, &["prompts", "ev", "--json"]);
    let args_prompt = listed["prompts"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "args-prompt"))
        .expect("args-prompt is listed");
    assert_eq!(args_prompt["arguments"][0]["name"], "city");
    assert_eq!(args_prompt["arguments"][0]["required"], true);

    let text = ok(
        data,
        &[
            "prompt",
            "ev",
            "args-prompt",
            "--args",
            r#"{"city": "Oslo"}"#,
        ],
    );
    assert_eq!(text, "[user]\nWhat's weather in Oslo?\n");
    let got = ok_json(
        data,
        &[
            "prompt",
            "ev",
            "resource-prompt",
            "--args",
            r#"{"resourceType": "Text", "resourceId": "5"}"#,
            "--json",
        ],
    );
    assert_eq!(got["prompt"], "resource-prompt");
    assert_eq!(got["messages"][1]["role"], "user");
    assert_eq!(
        got["messages"][1]["content"]["resource"]["uri"], "demo://resource/dynamic/text/5",
        "message content is the raw MCP block"
    );
}

#[test]
fn completes_arguments_and_pings() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    assert_eq!(
        ok(
            data,
            &[
                "complete",
                "ev",
                "--prompt",
                "completable-prompt",
                "department",
                "S"
            ]
        ),
        "Sales\nSupport\n",
        "one value a line, for scripts"
    );
    let names = ok(
        data,
        &[
            "complete",
            "ev",
            "--prompt",
            "completable-prompt",
            "name",
            "",
            "--context",
            "department=Marketing",
        ],
    );
    assert_eq!(
        names, "Grace\nHenry\nIris\n",
        "--context narrows the values"
    );
    let completion = ok_json(
        data,
        &[
            "complete",
            "ev",
            "--template",
            "demo://resource/dynamic/blob/{resourceId}",
            "resourceId",
            "12",
            "--json",
        ],
    );
    assert_eq!(completion["ref"]["type"], "ref/resource");
    assert_eq!(completion["values"], json!(["12"]));
    assert_eq!(completion["hasMore"], false);

    let pong = ok(data, &["ping", "ev"]);
    assert!(
        pong.starts_with("ev: pong in ") && pong.contains(" ms over stdio"),
        "got: {pong}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    for (args, expected) in [
        (
            &["prompt", "ev", "p", "--args", r#"{"n": 1}"#][..],
            "prompt arguments are strings, but `n` is a number",
        ),
        (
            &["prompt", "ev", "p", "--args", "[]"],
            "must be a JSON object",
        ),
        (&["complete", "ev", "arg", "x"], "--prompt"),
        (
            &[
                "complete",
                "ev",
                "--prompt",
                "p",
                "--template",
                "t",
                "a",
                "x",
            ],
            "cannot be used with",
        ),
        (
            &[
                "complete",
                "ev",
                "--prompt",
                "p",
                "a",
                "x",
                "--context",
                "novalue",
            ],
            "is not NAME=VALUE",
        ),
        (&["read", "ev"], "<URI>"),
        (&["info"], "<SERVER>"),
    ] {
        let output = exits(data, args, 2);
        assert!(
            stderr(&output).contains(expected),
            "`{}`: got {}",
            args.join(" "),
            stderr(&output)
        );
    }
}

#[test]
fn operational_errors_exit_1_with_one_line() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    add_tools_only(data, "bare");
    let cases: &[(&[&str], &str)] = &[
        (&["info", "ghost"], "no server named or with id `ghost`"),
        (&["ping", "ghost"], "no server named or with id `ghost`"),
        (
            &["read", "ev", "demo://nowhere"],
            "server error for `resources/read`",
        ),
        (
            &["prompt", "ev", "no-such-prompt"],
            "server error for `prompts/get`",
        ),
        (&["resources", "bare"], "does not support resources"),
        (
            &["prompts", "bare"],
            "did not declare the `prompts` capability",
        ),
        (
            &["complete", "bare", "--prompt", "p", "a", ""],
            "does not support completion",
        ),
    ];
    for (args, expected) in cases {
        let output = exits(data, args, 1);
        let err = stderr(&output);
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "`{}`: got {err:?}",
            args.join(" ")
        );
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    }
    assert!(
        ok(data, &["ping", "bare"]).starts_with("bare: pong"),
        "ping needs no capability"
    );
    ok(data, &["server", "disable", "ev"]);
    let output = exits(data, &["resources", "ev"], 1);
    assert!(stderr(&output).contains("is disabled"));
}

#[test]
fn tools_says_a_server_offers_no_tools() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    add_offering_only(data, "notes", "prompts");
    let text = ok(data, &["tools", "notes"]);
    assert_eq!(
        text.trim_end(),
        "notes offers no tools (it offers prompts)",
        "a server without tools is not an error, and the person learns what it does offer"
    );
    let json = ok_json(data, &["tools", "notes", "--json"]);
    assert_eq!(
        json["tools"],
        json!([]),
        "scripts read an empty list, not a failure"
    );
    assert_eq!(json["offers"], json!(["prompts"]), "got {json}");
    assert_eq!(json["serverInfo"]["name"], "gatehouse-prompts-only");
    assert_eq!(json["malformed"], json!([]));

    let everything = data_with_everything("ev");
    let listed = ok_json(everything.path(), &["tools", "ev", "--json"]);
    assert_eq!(
        listed["offers"],
        json!(["tools", "prompts", "resources", "completions", "logging"]),
        "`offers` names every declared feature in a fixed order"
    );
}
