//! `gatehouse connect AGENT`: a made-up home (`HOME`, `XDG_CONFIG_HOME` set on the command)
//! with Cursor's fixture (tests/fixtures/agents/cursor-mcp.json) at `~/.cursor/mcp.json`.
//! `--dry-run` prints the diff and writes nothing; connect, connect again (nothing to change),
//! `--undo` (the original byte for byte), `--undo` again (nothing to undo); and a connected
//! config really works: the TypeScript SDK's client started exactly as the rewritten file's
//! `gatehouse` entry says lists, through Gatehouse, the tools of the server imported from it.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::engine::serve;
use crate::support::gateway::{fixtures, steps};
use crate::support::{add_everything, sqlite3, stderr, stdout};

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

/// Records Cursor's entry `entry` as imported into Gatehouse as its server `server` (the
/// import's record, as `gatehouse import` writes it).
fn imported(data: &Path, file: &Path, entry: &str, server: &str) {
    let (done, err) = sqlite3(
        data,
        &format!(
            "CREATE TABLE IF NOT EXISTS agent_imports (server_id TEXT PRIMARY KEY NOT NULL \
             REFERENCES servers(id) ON DELETE CASCADE, agent TEXT NOT NULL, file TEXT NOT NULL, \
             section TEXT, entry TEXT NOT NULL, imported_at TEXT NOT NULL DEFAULT \
             (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))); \
             INSERT INTO agent_imports (server_id, agent, file, entry) \
             SELECT id, 'cursor', '{}', '{entry}' FROM servers WHERE name = '{server}';",
            file.display()
        ),
    );
    assert!(done, "{err}");
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
    let out = succeeds(connect(&made_up, &["cursor"]));
    assert!(out.contains("connected Cursor"), "{out}");
    assert!(
        out.contains("undo with `gatehouse connect cursor --undo`"),
        "{out}"
    );
    let connected = std::fs::read(&made_up.file).expect("read");
    assert_ne!(connected, original);
    let out = succeeds(connect(&made_up, &["cursor"]));
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
fn a_connected_config_reaches_the_servers_through_gatehouse() {
    let made_up = made_up_home();
    add_everything(&made_up.data, "e");
    imported(&made_up.data, &made_up.file, "docs", "e");
    let out = succeeds(connect(&made_up, &["cursor"]));
    assert!(out.contains("removed (imported): docs"), "{out}");
    assert!(
        out.contains("client `cursor` added; its profile: e"),
        "{out}"
    );

    // The entry, exactly as the agent will read it.
    let config: Value =
        serde_json::from_slice(&std::fs::read(&made_up.file).expect("read")).expect("JSON");
    let servers = &config["mcpServers"];
    assert!(servers.get("docs").is_none(), "{config}");
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

    let _engine = serve(&made_up.data);
    let output = std::process::Command::new("node")
        .current_dir(fixtures().join("clients"))
        .arg("ts_sdk_v1_client.mjs")
        .arg("--")
        .arg(command)
        .args(&args)
        .env_remove("GATEHOUSE_DATA_DIR")
        .output()
        .expect("the client runs");
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
        .collect();
    assert!(output.status.success(), "{}", stderr(&output));
    let tools = steps(&lines, "tools")[0].as_array().expect("tools").clone();
    assert!(
        tools.iter().any(|t| t["name"] == "e__echo"),
        "server-everything's tools through Gatehouse: {tools:?}"
    );
    // The engine saw the agent as the client named after it.
    let clients = crate::support::ok_json(&made_up.data, &["clients", "show", "cursor", "--json"]);
    assert_eq!(clients["client"]["name"], "cursor", "{clients}");
}
