//! What the CLI prints when the reader or the server misbehaves: a reader that closes the pipe
//! early (`gatehouse call … | head -5`) ends the command quietly with exit status 141, and text
//! a server sends that is far too long for a person (a tool name of 200 000 characters) is
//! cut for display instead of crashing the table printer.

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use crate::support::{add_scripted, command, stderr};

/// A server with a tool `many` whose result is 20 000 lines, and 3 000 tools.
const TALKATIVE: &str = r#"
def answer(method, params):
    if method == "tools/list":
        return {"tools": [tool("many")] + [tool(f"t{i}", description="a tool") for i in range(3000)]}
    if method == "tools/call":
        text = "\n".join(f"line {i}" for i in range(20000))
        return {"content": [{"type": "text", "text": text}]}
    return None
serve({"tools": {}}, answer, name="talkative")
"#;

/// Runs `gatehouse args…`, reads `lines` lines of its stdout, closes the pipe, and returns
/// its exit status and stderr.
fn read_then_close(data: &std::path::Path, args: &[&str], lines: usize) -> (Option<i32>, String) {
    let mut child = command(data)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let mut reader = BufReader::new(stdout);
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
    }
    drop(reader);
    let step = format!(
        "`gatehouse {}` must end once its reader is gone",
        args.join(" ")
    );
    support::wait::until(&step, Duration::from_secs(30), || match child.try_wait() {
        Ok(Some(status)) => Ok(status),
        other => Err(format!("{other:?}")),
    });
    let output = child.wait_with_output().expect("output");
    (output.status.code(), stderr(&output))
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_the_command_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    add_scripted(data, "talkative", TALKATIVE);
    for args in [
        &["call", "talkative", "many"][..],
        &["call", "talkative", "many", "--json"][..],
        &["tools", "talkative"][..],
        &["tools", "talkative", "--json"][..],
    ] {
        let (status, err) = read_then_close(data, args, 5);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe") && !err.contains("error"),
            "`gatehouse {}` must end quietly: {err}",
            args.join(" ")
        );
        assert_eq!(
            status,
            Some(141),
            "`gatehouse {}` exits as a Unix tool killed by SIGPIPE would be reported",
            args.join(" ")
        );
    }
}

/// A server whose one tool has a name of 200 000 characters, and a description as long.
const LONG_NAMES: &str = r#"
def answer(method, params):
    if method == "tools/list":
        return {"tools": [tool("n" * 200000, description="d" * 200000, title=None), tool("short", description="fine")]}
    if method == "prompts/list":
        return {"prompts": [{"name": "p" * 200000, "description": "q" * 200000}]}
    return None
serve({"tools": {}, "prompts": {}}, answer, name="long" * 50000)
"#;

#[test]
fn a_tool_name_of_200_000_characters_is_cut_for_display() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    add_scripted(data, "long", LONG_NAMES);
    for args in [
        &["tools", "long"][..],
        &["prompts", "long"][..],
        &["info", "long"][..],
    ] {
        let output = command(data).args(args).output().expect("the binary runs");
        let (out, err) = (support::stdout(&output), stderr(&output));
        assert!(
            output.status.success(),
            "`gatehouse {}` must not fail on long names: {err}",
            args.join(" ")
        );
        let widest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(
            widest <= 400,
            "`gatehouse {}`: no line is stretched by a server's long text ({widest} characters)",
            args.join(" ")
        );
        assert!(out.contains('…'), "what was cut is marked: {out}");
    }
    let tools = support::stdout(
        &command(data)
            .args(["tools", "long"])
            .output()
            .expect("runs"),
    );
    assert!(tools.contains("short"), "the other tools are still listed");
    let json = command(data)
        .args(["tools", "long", "--json"])
        .output()
        .expect("runs");
    assert!(
        support::stdout(&json).contains(&"n".repeat(200_000)),
        "--json, for programs, keeps the name whole"
    );
}
