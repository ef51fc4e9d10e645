//! `gatehouse connect AGENT`: a made-up home (`HOME`, `XDG_CONFIG_HOME` set on the command)
//! with Cursor's fixture (tests/fixtures/agents/cursor-mcp.json) at `~/.cursor/mcp.json`.
//! `--dry-run` prints the diff and writes nothing; connect, connect again (nothing to change),
//! `--undo` (the original byte for byte), `--undo` again (nothing to undo); and a connected
//! config really works: after `gatehouse import cursor`, the TypeScript SDK's client started
//! exactly as the rewritten file's `gatehouse` entry says lists and calls, through Gatehouse,
//! the tools of the server imported from it.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::engine::serve;
use crate::support::gateway::{fixtures, steps};
use crate::support::{everything_js, stderr, stdout};

/// Cursor's plaintext secrets in the fixture: never printed.
const SECRETS: &[&str] = &[
    "sk-proj-fixtureCursor0123456789abcdef",
    "cursor-header-fixture-0002",
    "orgtok-fixture-0006",
];

struct MadeUp {
    _root: tempfile::TempDir,
    home: PathBuf,
    data: PathBuf,
    file: PathBuf,
}

fn made_up_home() -> MadeUp {
    let root = tempfile::tempdir().expect("a temporary directory");
    let home = root.path().join("home");
    let file = home.join(".cursor/mcp.json");
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("made");
    std::fs::copy(fixtures().join("agents/cursor-mcp.json"), &file).expect("the fixture is put");
    MadeUp {
        data: root.path().join("data"),
        _root: root,
        home,
        file,
    }
}

fn connect(made_up: &MadeUp, args: &[&str]) -> Output {
    crate::support::command(&made_up.data)
        .arg("connect")
        .args(args)
        .env("HOME", &made_up.home)
        .env("XDG_CONFIG_HOME", made_up.home.join(".config"))
        .env_remove("CODEX_HOME")
        .env_remove("APPDATA")
        .output()
        .expect("the binary runs")
}

fn succeeds(output: Output) -> String {
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    let all = format!("{}{}", stdout(&output), stderr(&output));
    for secret in SECRETS {
        assert!(!all.contains(secret), "{secret} is in the output:\n{all}");
    }
    stdout(&output)
}

#[test]
fn a_dry_run_prints_the_diff_and_writes_nothing() {
    let made_up = made_up_home();
    let original = std::fs::read(&made_up.file).expect("read");
    let out = succeeds(connect(&made_up, &["cursor", "--dry-run"]));
    let path = made_up.file.display().to_string();
    assert!(
        out.starts_with(&format!("--- {path}\n+++ {path}\n@@ ")),
        "{out}"
    );
    assert!(out.contains("\n+    \"gatehouse\": {\n"), "{out}");
    assert!(out.contains("dry run: nothing was written"), "{out}");
    // Nothing imported: every entry is kept, and its plaintext secrets are named.
    assert!(
        out.contains(&format!(
            "Gatehouse did not import these; their secrets are still in {path}:\n  openai-tools: OPENAI_API_KEY\n"
        )),
        "{out}"
    );
    assert!(out.contains("  docs: X-API-Key\n"), "{out}");
    assert_eq!(std::fs::read(&made_up.file).expect("read"), original);
    let json: Value = serde_json::from_str(&succeeds(connect(
        &made_up,
        &["cursor", "--dry-run", "--json"],
    )))
    .expect("JSON");
    assert_eq!(json["file"], path);
    assert_eq!(json["written"], false);
    assert_eq!(json["removed"], serde_json::json!([]));
    assert_eq!(
        json["kept"],
        serde_json::json!(["openai-tools", "docs", "both"])
    );
    assert!(
        json["diff"]
            .as_str()
            .is_some_and(|d| d.contains("+    \"gatehouse\""))
    );
    let left = json["plaintextSecretsLeft"].as_array().expect("a list");
    assert!(left.contains(&serde_json::json!({"server": "docs", "name": "X-API-Key"})));
    assert_eq!(std::fs::read(&made_up.file).expect("read"), original);
    assert!(!made_up.data.join("agent-backups").exists());
}

#[test]
fn connect_then_undo_gives_back_the_original() {
    let made_up = made_up_home();
    let original = std::fs::read(&made_up.file).expect("read");
    // Without a terminal to ask on, the write needs --yes.
    let unasked = connect(&made_up, &["cursor"]);
    assert!(!unasked.status.success());
    assert!(
        stderr(&unasked).contains("confirm the connect with --yes"),
        "{}",
        stderr(&unasked)
    );
    assert_eq!(std::fs::read(&made_up.file).expect("read"), original);
    let out = succeeds(connect(&made_up, &["cursor", "--yes"]));
    assert!(out.contains("connected Cursor"), "{out}");
    assert!(
        out.contains("undo with `gatehouse connect cursor --undo`"),
        "{out}"
    );
    let connected = std::fs::read(&made_up.file).expect("read");
    assert_ne!(connected, original);
    let out = succeeds(connect(&made_up, &["cursor", "--yes"]));
    assert!(out.contains("nothing to change"), "{out}");
    assert_eq!(std::fs::read(&made_up.file).expect("read"), connected);
    let out = succeeds(connect(&made_up, &["cursor", "--undo"]));
    assert!(out.starts_with("restored "), "{out}");
    assert_eq!(std::fs::read(&made_up.file).expect("read"), original);
    let again = connect(&made_up, &["cursor", "--undo"]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("Cursor has no connect to undo"),
        "{}",
        stderr(&again)
    );
    let unknown = connect(&made_up, &["emacs"]);
    assert!(!unknown.status.success());
    assert!(stderr(&unknown).contains("not an agent Gatehouse connects"));
}

#[test]
fn an_imported_then_connected_agent_reaches_its_server_through_gatehouse() {
    let made_up = made_up_home();
    // Cursor's config with a server that really runs (server-everything), beside the fixture's.
    let mut config: Value =
        serde_json::from_slice(&std::fs::read(&made_up.file).expect("read")).expect("JSON");
    config["mcpServers"]["everything"] =
        serde_json::json!({"command": "node", "args": [everything_js(), "stdio"]});
    std::fs::write(
        &made_up.file,
        serde_json::to_string_pretty(&config).expect("JSON"),
    )
    .expect("written");
    let import = crate::support::command(&made_up.data)
        .args(["import", "cursor", "--only", "everything", "--yes"])
        .env("HOME", &made_up.home)
        .env("XDG_CONFIG_HOME", made_up.home.join(".config"))
        .output()
        .expect("the binary runs");
    assert!(import.status.success(), "{}", stderr(&import));
    // Agents' calls of it allowed (by default the person is asked).
    crate::support::ok(
        &made_up.data,
        &[
            "policy",
            "set",
            "everything",
            "--source",
            "gateway",
            "allow",
        ],
    );
    let out = succeeds(connect(&made_up, &["cursor", "--yes"]));
    assert!(out.contains("removed (imported): everything"), "{out}");
    assert!(
        out.contains("client `cursor` added; its profile: everything"),
        "{out}"
    );

    // The entry, exactly as the agent will read it.
    let config: Value =
        serde_json::from_slice(&std::fs::read(&made_up.file).expect("read")).expect("JSON");
    let servers = &config["mcpServers"];
    assert!(servers.get("everything").is_none(), "{config}");
    assert!(servers.get("docs").is_some(), "{config}");
    let entry = &servers["gatehouse"];
    let command = entry["command"].as_str().expect("a command");
    let args: Vec<&str> = entry["args"]
        .as_array()
        .expect("args")
        .iter()
        .map(|a| a.as_str().expect("text"))
        .collect();
    assert!(entry.get("env").is_none(), "{entry}");
    assert!(Path::new(command).is_absolute(), "{command}");

    // The agent, as Cursor would start it: the TypeScript SDK's client runs the entry's
    // command and arguments, with the engine running.
    let _engine = serve(&made_up.data);
    let output = std::process::Command::new("node")
        .current_dir(fixtures().join("clients"))
        .arg("ts_sdk_v1_client.mjs")
        .arg("--call")
        .arg(r#"everything__echo={"message":"through the config"}"#)
        .arg("--")
        .arg(command)
        .args(&args)
        .env_remove("GATEHOUSE_DATA_DIR")
        .output()
        .expect("the client runs");
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
        .collect();
    let tools = steps(&lines, "tools")[0].as_array().expect("tools").clone();
    assert!(
        tools.iter().any(|t| t["name"] == "everything__echo"),
        "server-everything's tools through Gatehouse: {tools:?}"
    );
    let call = steps(&lines, "call")[0];
    assert_eq!(
        call["result"]["content"][0]["text"], "Echo: through the config",
        "{call}"
    );
    // The engine saw the agent as the client named after it, served its profile.
    let shown = crate::support::ok_json(&made_up.data, &["clients", "show", "cursor", "--json"]);
    assert_eq!(
        shown["profile"]["own"]["servers"]["everything"], true,
        "{shown}"
    );
    let recent = shown["recent"].as_array().expect("recent calls");
    assert!(
        recent
            .iter()
            .any(|r| r["tool"] == "echo" && r["detail"]["caller"] == "cursor"),
        "{shown}"
    );
}
