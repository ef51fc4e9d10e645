//! `gatehouse call` against the real server-everything, over stdio and Streamable HTTP: how
//! results print, the `--json` shape, progress on stderr, exit status 3 for `isError`, Ctrl-C
//! cancelling with 130, and its usage (2) and operational (1) errors.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{
    add_stdio, command, data_with_everything, exits, gatehouse, ok, ok_json, stderr, stdout,
};
use serde_json::json;

#[test]
fn prints_text_plainly_and_summarises_other_content() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    assert_eq!(
        ok(
            data,
            &["call", "ev", "echo", "--args", r#"{"message": "hi"}"#]
        ),
        "Echo: hi\n",
        "text content is printed as is, nothing else on stdout"
    );
    let weather = ok(
        data,
        &[
            "call",
            "ev",
            "get-structured-content",
            "--args",
            r#"{"location": "Chicago"}"#,
        ],
    );
    assert!(
        weather.contains("structuredContent:\n{\n  \"temperature\": 36,"),
        "structured content is printed as JSON: {weather}"
    );
    let image = ok(data, &["call", "ev", "get-tiny-image"]);
    assert!(
        image.contains("[image: image/png, ") && image.contains(" bytes]"),
        "an image is summarised, never dumped as base64: {image}"
    );
    let links = ok(
        data,
        &[
            "call",
            "ev",
            "get-resource-links",
            "--args",
            r#"{"count": 1}"#,
        ],
    );
    assert!(
        links.contains("[resource link: demo://resource/dynamic/"),
        "a resource link shows its URI: {links}"
    );
    let reference = ok(
        data,
        &[
            "call",
            "ev",
            "get-resource-reference",
            "--args",
            r#"{"resourceId": 3}"#,
        ],
    );
    assert!(
        reference.contains("[resource: demo://resource/dynamic/text/3]\nResource 3:"),
        "an embedded text resource shows its URI and text: {reference}"
    );
}

#[test]
fn json_output_has_the_documented_shape() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    let result = ok_json(
        data,
        &[
            "call",
            "ev",
            "get-structured-content",
            "--args",
            r#"{"location": "New York"}"#,
            "--json",
        ],
    );
    assert_eq!(result["server"], "ev");
    assert_eq!(result["tool"], "get-structured-content");
    assert_eq!(
        result["content"][0]["type"], "text",
        "content blocks are raw MCP blocks"
    );
    assert_eq!(
        result["structuredContent"],
        json!({"temperature": 33, "conditions": "Cloudy", "humidity": 82})
    );
    assert_eq!(result["isError"], false);
    assert!(
        result["schemaProblem"].is_null(),
        "valid structured output has no schema problem: {result}"
    );
}

#[test]
fn a_tool_error_exits_3_with_its_message() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    let failed = exits(data, &["call", "ev", "echo"], 3);
    assert!(
        stdout(&failed).contains("Input validation error"),
        "the tool's explanation is printed: {}",
        stdout(&failed)
    );
    assert!(
        stderr(&failed).contains("`echo` reported an error"),
        "stderr says why the status is 3: {}",
        stderr(&failed)
    );
    let failed = exits(data, &["call", "ev", "echo", "--json"], 3);
    let result: serde_json::Value = serde_json::from_str(&stdout(&failed)).expect("JSON");
    assert_eq!(
        result["isError"], true,
        "scripts see isError in the JSON too"
    );
}

#[test]
fn progress_goes_to_stderr_one_line_per_update() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    let output = exits(
        data,
        &[
            "call",
            "ev",
            "trigger-long-running-operation",
            "--args",
            r#"{"duration": 1, "steps": 4}"#,
        ],
        0,
    );
    let err = stderr(&output);
    let updates: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert_eq!(
        updates,
        [
            "progress: 1/4 (25%)",
            "progress: 2/4 (50%)",
            "progress: 3/4 (75%)",
            "progress: 4/4 (100%)"
        ],
        "without a terminal every update is its own plain line"
    );
    assert!(
        stdout(&output).contains("Long running operation completed"),
        "the result stays on stdout"
    );
}

#[test]
fn ctrl_c_cancels_the_call_and_exits_130() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    let mut child = command(data)
        .args([
            "call",
            "ev",
            "trigger-long-running-operation",
            "--args",
            r#"{"duration": 60, "steps": 60}"#,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stderr.take().expect("piped stderr")).lines();
    let first = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.starts_with("progress: "));
    assert!(
        first.is_some(),
        "the call must be running before Ctrl-C is sent"
    );
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().expect("the CLI exits");
    assert!(
        sent.elapsed() < Duration::from_secs(15),
        "Ctrl-C must end a 60 s call promptly"
    );
    assert_eq!(status.code(), Some(130), "interrupted: {rest:?}");
    assert!(
        rest.iter().any(|l| l.contains("cancelled on the server")),
        "stderr says the call was cancelled: {rest:?}"
    );
}

#[test]
fn calls_over_streamable_http_with_progress_and_tool_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let _server = crate::support::add_everything_over_http(data, "web");
    let sum = ok_json(
        data,
        &[
            "call",
            "web",
            "get-sum",
            "--args",
            r#"{"a": 1, "b": 2}"#,
            "--json",
        ],
    );
    assert_eq!(sum["content"][0]["text"], "The sum of 1 and 2 is 3.");
    let long = exits(
        data,
        &[
            "call",
            "web",
            "trigger-long-running-operation",
            "--args",
            r#"{"duration": 1, "steps": 2}"#,
        ],
        0,
    );
    assert!(
        stderr(&long).contains("progress: 2/2 (100%)"),
        "progress arrives over the SSE answer stream: {}",
        stderr(&long)
    );
    exits(data, &["call", "web", "echo"], 3);
}

#[test]
fn usage_errors_exit_2_and_operational_errors_exit_1() {
    let dir = data_with_everything("ev");
    let data = dir.path();
    for (args, expected) in [
        (
            &["call", "ev", "echo", "--args", "[1]"][..],
            "must be a JSON object",
        ),
        (&["call", "ev", "echo", "--args", "{bad"], "not valid JSON"),
        (
            &["call", "ev", "echo", "--timeout", "0"],
            "not a positive number of seconds",
        ),
        (
            &["call", "ev", "echo", "--timeout", "soon"],
            "not a positive number of seconds",
        ),
        (&["call", "ev"], "<TOOL>"),
    ] {
        let output = exits(data, args, 2);
        assert!(
            stderr(&output).contains(expected),
            "`{}`: got {}",
            args.join(" "),
            stderr(&output)
        );
    }
    let output = exits(data, &["call", "ghost", "echo"], 1);
    assert!(stderr(&output).contains("no server named or with id `ghost`"));
    let output = exits(
        data,
        &[
            "call",
            "ev",
            "trigger-long-running-operation",
            "--args",
            r#"{"duration": 10, "steps": 1}"#,
            "--timeout",
            "0.5",
        ],
        1,
    );
    let err = stderr(&output);
    assert!(
        err.starts_with("error: ") && err.contains("timed out") && err.lines().count() == 1,
        "a timeout is one line on stderr: {err:?}"
    );
    ok(data, &["server", "disable", "ev"]);
    let output = exits(data, &["call", "ev", "echo"], 1);
    assert!(
        stderr(&output).contains("is disabled"),
        "a disabled server is not started"
    );
}

#[test]
fn a_tool_that_requires_a_task_reads_as_one_call_with_task_status_lines() {
    let dir = data_with_everything("everything");
    let output = gatehouse(
        dir.path(),
        &[
            "call",
            "everything",
            "simulate-research-query",
            "--args",
            r#"{"topic":"castles"}"#,
        ],
    );
    assert!(
        output.status.success(),
        "the task's result is the call's result: {}",
        stderr(&output)
    );
    assert!(
        stdout(&output).contains("castles"),
        "the report is printed: {}",
        stdout(&output)
    );
    let err = stderr(&output);
    assert!(
        err.contains("task working"),
        "the running task is shown: {err}"
    );
    assert!(err.contains("task completed"), "and its completion: {err}");

    // The legacy task is in the task log too.
    let log = ok_json(dir.path(), &["tasks", "everything", "--json"]);
    let tasks = log["tasks"].as_array().expect("tasks");
    assert_eq!(tasks.len(), 1, "{log}");
    assert_eq!(tasks[0]["tool"], "simulate-research-query");
    assert_eq!(tasks[0]["status"], "completed");
}

#[test]
fn a_modern_task_handle_is_followed_to_its_result_and_logged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/ts-sdk-v2/server.mjs")
        .display()
        .to_string();
    add_stdio(dir.path(), "ts", "node", &[&script, "stdio"]);
    let empty = ok(dir.path(), &["tasks", "ts"]);
    assert_eq!(empty.trim(), "ts has no tasks");

    let output = gatehouse(
        dir.path(),
        &[
            "call",
            "ts",
            "slow_task",
            "--args",
            r#"{"steps":3,"intervalMs":50}"#,
            "--json",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let result: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(
        result["structuredContent"],
        serde_json::json!({"steps": 3, "answer": null, "content": null}),
        "the task's result is the call's result"
    );
    let err = stderr(&output);
    assert!(
        err.contains("task working"),
        "the running task is shown: {err}"
    );
    assert!(err.contains("task completed"), "and its completion: {err}");

    let log = ok_json(dir.path(), &["tasks", "ts", "--json"]);
    let tasks = log["tasks"].as_array().expect("tasks");
    assert_eq!(tasks.len(), 1, "{log}");
    assert_eq!(tasks[0]["tool"], "slow_task");
    assert_eq!(tasks[0]["status"], "completed");
    assert_eq!(tasks[0]["statusMessage"], "done");
    assert_eq!(tasks[0]["pollMs"], 50);
    let table = ok(dir.path(), &["tasks", "ts"]);
    assert!(
        table.starts_with("TASK") && table.contains("slow_task") && table.contains("completed"),
        "{table}"
    );
}
