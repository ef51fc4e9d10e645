//! A connected config, used by a real agent: Gemini CLI (`@google/gemini-cli`, pinned in
//! tests/fixtures) with a made-up home whose `~/.gemini/settings.json` has server-everything and
//! a plaintext API key. `gatehouse import gemini` takes the server (the key to the keyring),
//! `gatehouse connect gemini` rewrites the settings, and with the engine running
//! `gemini mcp list`, which starts and connects to every configured server, reports the
//! `gatehouse` entry connected. The settings hold the key no more.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::engine::serve;
use crate::support::gateway::fixtures;
use crate::support::wait::until;
use crate::support::{everything_js, stderr, stdout};

const SECRET: &str = "sk-geminiFixtureKey0123456789abcdefXYZ";

fn gemini_bin() -> PathBuf {
    let bin = fixtures().join("node_modules/.bin/gemini");
    assert!(
        bin.exists(),
        "Gemini CLI is missing at {}: run scripts/install-test-deps.sh",
        bin.display()
    );
    bin
}

#[test]
fn gemini_cli_reaches_gatehouse_through_the_connected_settings() {
    let root = tempfile::tempdir().expect("a temporary directory");
    let home = root.path().join("home");
    let project = root.path().join("project");
    let data = root.path().join("data");
    let settings = home.join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().expect("a parent")).expect("made");
    std::fs::create_dir_all(&project).expect("made");
    let config = json!({
        "theme": "GitHub",
        "mcpServers": {
            "everything": {
                "command": "node",
                "args": [everything_js(), "stdio"],
                "env": { "EVERYTHING_API_KEY": SECRET }
            }
        }
    });
    std::fs::write(
        &settings,
        serde_json::to_string_pretty(&config).expect("JSON"),
    )
    .expect("written");
    // Gemini CLI starts no server in a folder the person has not trusted.
    let trusted = json!({ project.display().to_string(): "TRUST_FOLDER" });
    std::fs::write(
        home.join(".gemini/trustedFolders.json"),
        trusted.to_string(),
    )
    .expect("written");

    let gatehouse = |args: &[&str]| {
        let output = crate::support::command(&data)
            .args(args)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .output()
            .expect("the binary runs");
        assert!(
            output.status.success(),
            "{args:?}: {}\n{}",
            stdout(&output),
            stderr(&output)
        );
        assert!(!stdout(&output).contains(SECRET) && !stderr(&output).contains(SECRET));
    };
    gatehouse(&["import", "gemini", "--yes"]);
    gatehouse(&["connect", "gemini", "--yes"]);
    let written = std::fs::read_to_string(&settings).expect("read");
    assert!(
        !written.contains(SECRET),
        "the key left the settings:\n{written}"
    );
    let rewritten: Value = serde_json::from_str(&written).expect("JSON");
    assert_eq!(rewritten["theme"], "GitHub", "the rest kept");
    assert!(
        rewritten["mcpServers"].get("everything").is_none(),
        "{rewritten}"
    );

    let _engine = serve(&data);
    let mut child = Command::new(gemini_bin())
        .args(["mcp", "list"])
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("GATEHOUSE_DATA_DIR")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gemini starts");
    until(
        "gemini mcp list ends",
        Duration::from_secs(90),
        || match child.try_wait() {
            Ok(Some(status)) => Ok(status),
            Ok(None) => Err("still running".to_owned()),
            Err(e) => Err(e.to_string()),
        },
    );
    let output = child.wait_with_output().expect("its output");
    // Gemini CLI prints the list on stderr (its console goes there), so both are read.
    let listed = plain(&format!("{}{}", stdout(&output), stderr(&output)));
    let line = listed
        .lines()
        .find(|l| l.contains("gatehouse:"))
        .unwrap_or_else(|| panic!("no gatehouse entry listed:\n{listed}"));
    assert!(
        line.contains("✓") && line.contains("Connected"),
        "Gemini CLI connects through Gatehouse: {line}"
    );
}

/// `text` without its terminal colour sequences (`ESC [ … letter`).
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for next in chars.by_ref() {
                if next.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
