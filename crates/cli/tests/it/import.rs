//! `gatehouse import AGENT` on a made-up home (tests/fixtures/agents/ at each agent's place):
//! the preview with secrets masked and nothing written on `--dry-run` or without a
//! confirmation; the import with `--yes`, its secrets in the keyring and nowhere in the data
//! directory (database, WAL, logs) or the output; clashes refused until resolved; an unknown
//! agent, a file that does not parse and a keyring that cannot be reached, each a clear message
//! with nothing written.

use std::process::Output;

use gatehouse_host::secrets::{KeyringStore, SecretKey, SecretStore};
use serde_json::Value;

use crate::support::agent_home::{MadeUp, made_up_home, put};
use crate::support::{ok_json, stderr, stdout};

const SLACK_TOKEN: &str = "xoxb-1111111111-2222222222-fixtureDesktopTok";
const OPENAI_KEY: &str = "sk-proj-fixtureCursor0123456789abcdef";

fn import(made_up: &MadeUp, args: &[&str]) -> Output {
    made_up.run("import", args)
}

fn servers(made_up: &MadeUp) -> Vec<Value> {
    ok_json(&made_up.data, &["server", "list", "--json"])
        .as_array()
        .expect("a list")
        .clone()
}

fn assert_nowhere(made_up: &MadeUp, output: &Output, secret: &str) {
    let all = format!("{}{}", stdout(output), stderr(output));
    assert!(!all.contains(secret), "the output shows the secret:\n{all}");
    let found = files_containing(&made_up.data, secret);
    assert!(found.is_empty(), "the secret is in {found:?}");
}

/// Every file under `dir` (recursively) whose bytes contain `needle`.
fn files_containing(dir: &std::path::Path, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if std::fs::read(&path)
                .is_ok_and(|b| b.windows(needle.len()).any(|w| w == needle.as_bytes()))
            {
                found.push(path.display().to_string());
            }
        }
    }
    found
}

#[test]
fn a_preview_masks_secrets_and_nothing_is_written_before_a_confirmation() {
    let made_up = made_up_home();
    let dry = import(&made_up, &["cursor", "--dry-run"]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    let text = stdout(&dry);
    assert!(
        text.contains("add `openai-tools`") && text.contains("add `docs`"),
        "{text}"
    );
    assert!(
        text.contains("env OPENAI_API_KEY=sk-…(37 characters)  → keyring"),
        "{text}"
    );
    assert!(
        text.contains("header X-API-Key=cursor-…") || text.contains("header X-API-Key=cur…"),
        "{text}"
    );
    assert!(text.contains("`both` not imported"), "{text}");
    assert!(text.contains("dry run: nothing was written"), "{text}");
    assert_nowhere(&made_up, &dry, OPENAI_KEY);

    // VS Code's inputs: without their values the servers that use them wait, and the preview
    // says which variable gives each.
    let project = made_up.project.display().to_string();
    let vscode = import(&made_up, &["vscode", "--project", &project, "--dry-run"]);
    let text = stdout(&vscode);
    assert!(
        text.contains("? input `perplexity-key` (Perplexity API Key): the agent asks for it when it starts a server; set GATEHOUSE_INPUT_PERPLEXITY_KEY"),
        "{text}"
    );
    assert!(
        text.contains(
            "`perplexity` not imported: it needs the value of the input `perplexity-key`"
        ),
        "{text}"
    );
    let given = made_up
        .command("import", &["vscode", "--project", &project, "--dry-run"])
        .env(
            "GATEHOUSE_INPUT_PERPLEXITY_KEY",
            "pplx-given-0123456789abcdefXYZ",
        )
        .env("GATEHOUSE_INPUT_REGION", "eu")
        .output()
        .expect("runs");
    let text = stdout(&given);
    assert!(
        text.contains("add `perplexity`")
            && text.contains("env PERPLEXITY_API_KEY=ppl…(30 characters)  → keyring"),
        "{text}"
    );
    assert!(!text.contains("pplx-given-0123456789abcdefXYZ"));

    // Without a terminal to ask on, --yes is needed.
    let unconfirmed = import(&made_up, &["cursor"]);
    assert!(!unconfirmed.status.success());
    assert!(
        stderr(&unconfirmed).contains("confirm the import with --yes"),
        "{}",
        stderr(&unconfirmed)
    );
    assert!(servers(&made_up).is_empty(), "nothing written");
}

#[tokio::test]
async fn an_import_puts_the_servers_in_gatehouse_and_their_secrets_in_the_keyring_alone() {
    let made_up = made_up_home();
    let output = import(&made_up, &["claude-desktop", "--yes", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let written = json["written"].as_array().expect("written");
    assert_eq!(written.len(), 2, "{json}");
    let slack = servers(&made_up)
        .into_iter()
        .find(|s| s["name"] == "slack")
        .expect("slack imported");
    let env = slack["spec"]["env"].as_array().expect("env").clone();
    let token = env
        .iter()
        .find(|v| v["key"] == "SLACK_BOT_TOKEN")
        .expect("token listed");
    assert_eq!(
        (token["secret"].as_bool(), token["value"].as_str()),
        (Some(true), Some(""))
    );
    let id = slack["id"].as_str().expect("id");
    let kept = KeyringStore
        .get(&SecretKey::env(id, "SLACK_BOT_TOKEN"))
        .await
        .expect("keyring")
        .map(|v| v.into_exposed());
    assert_eq!(kept.as_deref(), Some(SLACK_TOKEN));
    assert_nowhere(&made_up, &output, SLACK_TOKEN);

    // Again: already imported, nothing to do.
    let again = import(&made_up, &["claude-desktop", "--yes"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains("already imported as server `slack`"),
        "{}",
        stdout(&again)
    );
    assert!(stdout(&again).contains("nothing to import"));
}

#[test]
fn a_clash_is_refused_until_the_person_resolves_it() {
    let made_up = made_up_home();
    crate::support::add_stdio(&made_up.data, "slack", "slack-server", &[]);
    let refused = import(&made_up, &["claude-desktop", "--yes"]);
    assert!(!refused.status.success());
    assert!(
        stdout(&refused).contains("`slack` clashes with the server `slack`"),
        "{}",
        stdout(&refused)
    );
    assert!(
        stderr(&refused).contains("nothing was imported"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(servers(&made_up).len(), 1, "nothing written");

    let renamed = import(
        &made_up,
        &["claude-desktop", "--yes", "--on-clash", "rename"],
    );
    assert!(renamed.status.success(), "{}", stderr(&renamed));
    let names: Vec<String> = servers(&made_up)
        .iter()
        .map(|s| s["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(
        names.contains(&"slack-claude-desktop".to_owned())
            && names.contains(&"filesystem".to_owned()),
        "{names:?}"
    );
}

#[test]
fn bad_inputs_are_named_and_nothing_is_written() {
    let made_up = made_up_home();
    let unknown = import(&made_up, &["notepad", "--yes"]);
    assert!(
        stderr(&unknown).contains("unknown agent `notepad`: use one of claude-code"),
        "{}",
        stderr(&unknown)
    );

    put(
        &made_up.home.join(".cursor/mcp.json"),
        "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\" },,\n  }\n}\n",
    );
    let broken = import(&made_up, &["cursor", "--yes"]);
    assert!(
        stdout(&broken).contains("cannot be read") && stdout(&broken).contains("line 3"),
        "{}",
        stdout(&broken)
    );
    assert!(
        stdout(&broken).contains("nothing to import"),
        "{}",
        stdout(&broken)
    );

    // No keyring: a secret cannot be kept, so nothing is imported.
    let no_keyring = made_up
        .command("import", &["claude-desktop", "--yes"])
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/gatehouse-test-bus",
        )
        .output()
        .expect("runs");
    assert!(!no_keyring.status.success());
    assert!(
        stderr(&no_keyring).contains("keyring"),
        "{}",
        stderr(&no_keyring)
    );
    assert!(servers(&made_up).is_empty(), "nothing written");
    assert_nowhere(&made_up, &no_keyring, SLACK_TOKEN);
}
