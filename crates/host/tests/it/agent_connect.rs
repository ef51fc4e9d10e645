//! `gatehouse connect` on a real data directory and real files: each agent's fixture
//! (tests/fixtures/agents/) at its place in a made-up home, some of its entries imported by the
//! real `gatehouse import` (secrets to the keyring), then connect: the rewritten file read back
//! by the agents' own parser (Gatehouse's entry there and recognised, the imported entries and
//! their secrets gone, every other entry and key the same, comments kept), the diff with its
//! secrets masked, the client and its profile made, a second connect a no-op, and undo giving
//! back the original byte for byte; a project's files (VS Code's `.vscode/mcp.json`, Claude
//! Code's section of `~/.claude.json`). Then the refusals: a file changed between the preview
//! and the write, an undo after a later edit, a missing file, a file that does not parse, a
//! backup that cannot be kept.

use std::path::{Path, PathBuf};

use gatehouse_host::Host;
use gatehouse_host::agent_connect::sealed::BackupKey;
use gatehouse_host::agent_connect::{ConnectRequest, GatewayLaunch, apply, preview, undo};
use gatehouse_host::agent_import::{self, Choices};
use gatehouse_host::agents::discover::{parse, user_files};
use gatehouse_host::agents::model::{Agent, Launch, Scope};
use gatehouse_host::agents::places::Places;
use gatehouse_host::agents::read::{parse_jsonc, parse_toml};
use gatehouse_host::agents::through::{DEFAULT_GATEWAY_PORT, through_gatehouse};
use serde_json::Value;

use crate::support::{fixtures, open_host};

const EXE: &str = "/opt/gatehouse/bin/gatehouse";

/// The plaintext secrets the fixtures' files hold (each agent's has one or more).
const SECRETS_IN_FILES: &[&str] = &[
    "ghp_fixtureClaude0000aaaaBBBBccccDDDD",
    "xoxb-1111111111-2222222222-fixtureDesktopTok",
    "sk-proj-fixtureCursor0123456789abcdef",
    "glpat-fixtureVscode0123456789",
    "exa-fixture-secret-0003",
    "AIzafixtureGemini0123456789abcdEFG",
    "sk_live_fixtureWindsurf0123456789",
    "zed-fixture-pw-0004",
];

struct Home {
    _root: tempfile::TempDir,
    places: Places,
    project: PathBuf,
    data: PathBuf,
}

fn home() -> Home {
    let root = tempfile::tempdir().expect("a temporary directory");
    let home = root.path().join("home");
    let project = root.path().join("project");
    std::fs::create_dir_all(&project).expect("the project is made");
    Home {
        places: Places {
            config_dir: home.join(".config"),
            codex_home: home.join(".codex"),
            home,
        },
        data: root.path().join("data"),
        project,
        _root: root,
    }
}

/// Puts the agent's fixture at its place; its path.
fn put(home: &Home, agent: Agent, fixture: &str) -> PathBuf {
    let path = user_files(agent, &home.places).remove(0);
    let text = std::fs::read_to_string(fixtures().join("agents").join(fixture))
        .expect("the fixture is read")
        .replace("@PROJECT@", &home.project.display().to_string());
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("its directory is made");
    std::fs::write(&path, text).expect("the fixture is written");
    path
}

/// Imports `entries` of `agent`'s files with the real `gatehouse import` (secrets to the
/// keyring, each recorded for connect); the entries it imported.
async fn imported(host: &Host, home: &Home, agent: Agent, project: bool, entries: &[&str]) {
    let choices = Choices {
        only: entries.iter().map(|e| e.to_string()).collect(),
        inputs: [
            ("perplexity-key", "pplx-input-value-0123"),
            ("region", "eu"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect(),
        ..Choices::default()
    };
    let project = project.then_some(home.project.as_path());
    let plan = agent_import::preview(
        host,
        &home.places,
        agent,
        project,
        &choices,
        &[DEFAULT_GATEWAY_PORT],
    )
    .await
    .unwrap_or_else(|e| panic!("{agent:?}: the import's preview: {e}"));
    let written = agent_import::apply(host, &plan)
        .await
        .unwrap_or_else(|e| panic!("{agent:?}: the import: {e}"));
    let mut got: Vec<&str> = written.iter().map(|w| w.entry.as_str()).collect();
    got.sort();
    let mut wanted = entries.to_vec();
    wanted.sort();
    assert_eq!(got, wanted, "{agent:?}: what the import took");
}

fn request(home: &Home, agent: Agent, project: Option<&Path>) -> ConnectRequest {
    ConnectRequest {
        agent,
        places: home.places.clone(),
        project: project.map(Path::to_path_buf),
        launch: GatewayLaunch::new(Path::new(EXE), Some(&home.data), agent),
    }
}

/// The file as a JSON value (TOML for Codex).
fn value(agent: Agent, text: &str) -> Value {
    match agent {
        Agent::Codex => parse_toml(text),
        _ => parse_jsonc(text),
    }
    .expect("the file parses")
}

struct Case {
    agent: Agent,
    fixture: &'static str,
    servers_key: &'static str,
    imported: &'static [&'static str],
    /// Entries that went through Gatehouse before, replaced.
    replaced: &'static [&'static str],
    kept: &'static [&'static str],
    /// Text that must survive (comments).
    comments: &'static [&'static str],
    /// Imported secrets: gone from the file.
    secrets_gone: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        agent: Agent::ClaudeCode,
        fixture: "claude.json",
        servers_key: "mcpServers",
        imported: &["github"],
        replaced: &["gatehouse"],
        kept: &["notes"],
        comments: &[],
        secrets_gone: &["ghp_fixtureClaude0000aaaaBBBBccccDDDD"],
    },
    Case {
        agent: Agent::ClaudeDesktop,
        fixture: "claude_desktop_config.json",
        servers_key: "mcpServers",
        imported: &["slack"],
        replaced: &[],
        kept: &["filesystem"],
        comments: &[],
        secrets_gone: &["xoxb-1111111111-2222222222-fixtureDesktopTok"],
    },
    Case {
        agent: Agent::Cursor,
        fixture: "cursor-mcp.json",
        servers_key: "mcpServers",
        imported: &["openai-tools", "docs"],
        replaced: &[],
        kept: &["both"],
        comments: &[],
        secrets_gone: &[
            "sk-proj-fixtureCursor0123456789abcdef",
            "cursor-header-fixture-0002",
        ],
    },
    Case {
        agent: Agent::Vscode,
        fixture: "vscode-mcp.json",
        servers_key: "servers",
        // perplexity's envFile names ${workspaceFolder}: not imported without a project.
        imported: &["gitlab"],
        replaced: &[],
        kept: &["perplexity", "legacy-sse"],
        comments: &["// VS Code's user-profile MCP servers (JSON with comments)."],
        secrets_gone: &["glpat-fixtureVscode0123456789"],
    },
    Case {
        agent: Agent::Codex,
        fixture: "codex-config.toml",
        servers_key: "mcp_servers",
        imported: &["exa", "figma"],
        replaced: &["gatehouse"],
        kept: &["old"],
        comments: &["# Codex's config: the model and its MCP servers.\n"],
        secrets_gone: &["exa-fixture-secret-0003"],
    },
    Case {
        agent: Agent::Gemini,
        fixture: "gemini-settings.json",
        servers_key: "mcpServers",
        imported: &["python-tools", "github"],
        replaced: &[],
        kept: &["events", "sandbox"],
        comments: &[],
        secrets_gone: &["AIzafixtureGemini0123456789abcdEFG"],
    },
    Case {
        agent: Agent::Windsurf,
        fixture: "windsurf-mcp_config.json",
        servers_key: "mcpServers",
        imported: &["stripe"],
        replaced: &["gatehouse"],
        kept: &["figma"],
        comments: &[],
        secrets_gone: &["sk_live_fixtureWindsurf0123456789"],
    },
    Case {
        agent: Agent::Zed,
        fixture: "zed-settings.json",
        servers_key: "context_servers",
        imported: &["postgres", "linear"],
        replaced: &[],
        kept: &["older", "mcp-server-context7"],
        comments: &[
            "// Zed settings\n//\n// For information on how to configure Zed, see the Zed documentation.\n",
            "/* MCP servers */",
            "// The form older Zed versions wrote.",
        ],
        secrets_gone: &["zed-fixture-pw-0004"],
    },
];

#[tokio::test]
async fn each_agent_is_connected_and_undone() {
    for case in CASES {
        connect_and_undo(case).await;
    }
}

async fn connect_and_undo(case: &Case) {
    let agent = case.agent;
    let home = home();
    let path = put(&home, agent, case.fixture);
    let original = std::fs::read(&path).expect("read");
    let host = open_host(&home.data, false).await;
    imported(&host, &home, agent, false, case.imported).await;

    let plan = preview(&host, &request(&home, agent, None))
        .await
        .unwrap_or_else(|e| panic!("{agent:?}: {e}"));
    assert_eq!(plan.file, path);
    let mut removed = plan.removed.clone();
    removed.sort();
    let mut expected: Vec<String> = case.imported.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(removed, expected, "{agent:?}");
    assert_eq!(plan.replaced, case.replaced, "{agent:?}");
    assert_eq!(plan.kept, case.kept, "{agent:?}");
    assert!(
        plan.diff.starts_with(&format!("--- {}\n", path.display())),
        "{}",
        plan.diff
    );
    assert_eq!(
        std::fs::read(&path).expect("read"),
        original,
        "{agent:?}: the preview wrote"
    );

    let applied = apply(&host, &plan)
        .await
        .unwrap_or_else(|e| panic!("{agent:?}: {e}"));
    let text = std::fs::read_to_string(&path).expect("read");
    assert_ne!(text.as_bytes(), original.as_slice());
    // The backup is sealed: the original's bytes (and the secrets in them) are not in it, and
    // it opens with the data directory's key from the keyring into the original.
    let kept = std::fs::read(&applied.backup).expect("the backup");
    assert_ne!(kept, original);
    let key = BackupKey::of(&host).await.expect("the backup key");
    assert_eq!(key.open(&kept).expect("it opens"), original);
    for secret in SECRETS_IN_FILES {
        assert!(
            !kept.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{agent:?}: {secret} in the backup"
        );
    }

    // Read back by the agent's own parser.
    let sections = parse(agent, Scope::User, &text, None).expect("the new file parses");
    let section = &sections[0];
    let gatehouse = section
        .servers
        .iter()
        .find(|s| s.name == "gatehouse")
        .unwrap_or_else(|| panic!("{agent:?}: no gatehouse entry in {text}"));
    assert!(
        through_gatehouse(gatehouse, &[DEFAULT_GATEWAY_PORT]),
        "{agent:?}"
    );
    let Launch::Stdio(launch) = &gatehouse.launch else {
        panic!("{agent:?}: the gatehouse entry is remote");
    };
    assert_eq!(launch.command, EXE);
    let data = home.data.display().to_string();
    assert_eq!(
        launch.args,
        ["--data-dir", data.as_str(), "mcp", "--client", agent.id()]
    );
    for name in case.imported {
        assert!(
            !section.servers.iter().any(|s| s.name == *name),
            "{agent:?}: {name} left"
        );
    }
    for secret in case.secrets_gone {
        assert!(
            !text.contains(secret),
            "{agent:?}: {secret} left in the file"
        );
    }
    for comment in case.comments {
        assert!(
            text.contains(comment),
            "{agent:?}: {comment:?} lost:\n{text}"
        );
    }
    // Everything else is the same: the kept entries, every other key.
    let (mut before, mut after) = (
        value(agent, &String::from_utf8_lossy(&original)),
        value(agent, &text),
    );
    let key = case.servers_key;
    for name in case.kept {
        assert_eq!(
            before[key][name], after[key][name],
            "{agent:?}: {name} changed"
        );
    }
    for value in [&mut before, &mut after] {
        value.as_object_mut().expect("an object").remove(key);
    }
    assert_eq!(before, after, "{agent:?}: other keys changed");

    // The client and its profile.
    let client = host
        .clients()
        .get(agent.id())
        .await
        .expect("the client is added");
    assert_eq!(client.name, agent.id());
    let profile = host
        .client_profiles()
        .get(Some(agent.id()))
        .await
        .expect("its profile");
    for name in case.imported {
        assert_eq!(
            profile.own.servers.get(*name),
            Some(&true),
            "{agent:?}: {name}"
        );
    }

    // A second connect changes nothing.
    let again = preview(&host, &request(&home, agent, None))
        .await
        .expect("a preview");
    assert!(again.unchanged(), "{agent:?}: {}", again.diff);
    assert!(apply(&host, &again).await.is_err());

    // Undo: the original, byte for byte; then nothing more to undo.
    let undone = undo(&host, agent, None, false).await.expect("undone");
    assert_eq!(undone.file, path);
    assert!(!undone.forced);
    assert_eq!(std::fs::read(&path).expect("read"), original, "{agent:?}");
    let error = undo(&host, agent, None, false)
        .await
        .expect_err("nothing to undo");
    assert!(error.to_string().contains("no connect to undo"), "{error}");
    host.shutdown().await;
}

#[tokio::test]
async fn claude_codes_project_section_is_the_one_the_import_used() {
    let home = home();
    let path = put(&home, Agent::ClaudeCode, "claude.json");
    let original = std::fs::read(&path).expect("read");
    let host = open_host(&home.data, false).await;
    let section = format!(
        "projects[{:?}].mcpServers",
        home.project.display().to_string()
    );
    imported(&host, &home, Agent::ClaudeCode, true, &["brave"]).await;
    let plan = preview(
        &host,
        &request(&home, Agent::ClaudeCode, Some(&home.project)),
    )
    .await
    .expect("a preview");
    assert_eq!(plan.file, path);
    assert_eq!(plan.section.as_deref(), Some(section.as_str()));
    assert_eq!(plan.removed, ["brave"]);
    apply(&host, &plan).await.expect("connected");
    let after: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
    let before: Value = serde_json::from_slice(&original).expect("JSON");
    let project = home.project.display().to_string();
    let servers = &after["projects"][&project]["mcpServers"];
    assert!(servers.get("brave").is_none());
    assert_eq!(servers["gatehouse"]["args"][4], "claude-code");
    // The person's own servers and the other project are untouched.
    assert_eq!(after["mcpServers"], before["mcpServers"]);
    assert_eq!(
        after["projects"]["/somewhere/else"],
        before["projects"]["/somewhere/else"]
    );
    let elsewhere = home.places.home.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("made");
    let error = undo(&host, Agent::ClaudeCode, Some(&elsewhere), false)
        .await
        .expect_err("not that project's");
    assert!(
        error.to_string().contains("no connect to undo in project"),
        "{error}"
    );
    undo(&host, Agent::ClaudeCode, Some(&home.project), false)
        .await
        .expect("undone");
    assert_eq!(std::fs::read(&path).expect("read"), original);
    host.shutdown().await;
}

#[tokio::test]
async fn a_file_changed_after_the_preview_is_not_written() {
    let home = home();
    let path = put(&home, Agent::Cursor, "cursor-mcp.json");
    let host = open_host(&home.data, false).await;
    imported(&host, &home, Agent::Cursor, false, &["docs"]).await;
    let plan = preview(&host, &request(&home, Agent::Cursor, None))
        .await
        .expect("a preview");
    let edited = std::fs::read_to_string(&path)
        .expect("read")
        .replace("\"en\"", "\"fr\"");
    std::fs::write(&path, &edited).expect("the agent writes");
    let error = apply(&host, &plan).await.expect_err("refused");
    assert!(
        error.to_string().contains("changed since the preview"),
        "{error}"
    );
    assert!(error.to_string().contains("nothing was written"), "{error}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
    assert!(
        undo(&host, Agent::Cursor, None, false).await.is_err(),
        "nothing was recorded"
    );
    assert!(
        host.clients().get("cursor").await.is_err(),
        "no client was added"
    );
    let backups = home.data.join("agent-backups");
    assert!(!backups.exists() || std::fs::read_dir(&backups).expect("list").count() == 0);
    host.shutdown().await;
}

#[tokio::test]
async fn an_undo_after_a_later_edit_is_refused_unless_forced() {
    let home = home();
    let path = put(&home, Agent::Zed, "zed-settings.json");
    let original = std::fs::read(&path).expect("read");
    let host = open_host(&home.data, false).await;
    imported(&host, &home, Agent::Zed, false, &["postgres"]).await;
    let plan = preview(&host, &request(&home, Agent::Zed, None))
        .await
        .expect("a preview");
    apply(&host, &plan).await.expect("connected");
    let edited = std::fs::read_to_string(&path)
        .expect("read")
        .replace("15", "16");
    std::fs::write(&path, &edited).expect("the person edits");
    let error = undo(&host, Agent::Zed, None, false)
        .await
        .expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("changed after Gatehouse connected it"),
        "{error}"
    );
    assert!(error.to_string().contains("--force"), "{error}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
    let undone = undo(&host, Agent::Zed, None, true).await.expect("forced");
    assert!(undone.forced);
    assert_eq!(std::fs::read(&path).expect("read"), original);
    host.shutdown().await;
}

#[tokio::test]
async fn a_missing_or_broken_file_is_refused_with_nothing_written() {
    let home = home();
    let host = open_host(&home.data, false).await;
    let error = preview(&host, &request(&home, Agent::Gemini, None))
        .await
        .expect_err("missing");
    assert!(
        error.to_string().contains("no Gemini CLI config found"),
        "{error}"
    );
    let path = user_files(Agent::Gemini, &home.places).remove(0);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("made");
    std::fs::write(
        &path,
        "{\n  \"mcpServers\": {\n    \"a\": { \"command\" \"a\" }\n  }\n}\n",
    )
    .expect("written");
    let error = preview(&host, &request(&home, Agent::Gemini, None))
        .await
        .expect_err("broken");
    assert!(
        error
            .to_string()
            .contains(&format!("{}:3:", path.display())),
        "{error}"
    );
    let error = preview(&host, &request(&home, Agent::Registry, None))
        .await
        .expect_err("not an agent");
    assert!(
        error.to_string().contains("not an agent's config"),
        "{error}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn no_backup_no_write() {
    let home = home();
    let path = put(&home, Agent::Cursor, "cursor-mcp.json");
    let original = std::fs::read(&path).expect("read");
    let host = open_host(&home.data, false).await;
    // Where the backups go is taken by a file: the original cannot be kept.
    std::fs::write(home.data.join("agent-backups"), "not a directory").expect("written");
    let plan = preview(&host, &request(&home, Agent::Cursor, None))
        .await
        .expect("a preview");
    let error = apply(&host, &plan).await.expect_err("refused");
    assert!(error.to_string().contains("agent-backups"), "{error}");
    assert_eq!(std::fs::read(&path).expect("read"), original);
    assert!(undo(&host, Agent::Cursor, None, false).await.is_err());
    host.shutdown().await;
}

#[tokio::test]
async fn a_projects_file_is_connected_with_project() {
    let home = home();
    let file = home.project.join(".vscode/mcp.json");
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("made");
    std::fs::copy(fixtures().join("agents/vscode-project-mcp.json"), &file)
        .expect("the fixture is put");
    let original = std::fs::read(&file).expect("read");
    let host = open_host(&home.data, false).await;
    imported(&host, &home, Agent::Vscode, true, &["memory"]).await;
    let plan = preview(&host, &request(&home, Agent::Vscode, Some(&home.project)))
        .await
        .expect("a preview");
    assert_eq!(plan.file, file);
    assert_eq!(plan.removed, ["memory"]);
    apply(&host, &plan).await.expect("connected");
    let text = std::fs::read_to_string(&file).expect("read");
    let sections = parse(Agent::Vscode, Scope::Project, &text, None).expect("parses");
    let names: Vec<&str> = sections[0]
        .servers
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["gatehouse"]);
    assert!(through_gatehouse(
        &sections[0].servers[0],
        &[DEFAULT_GATEWAY_PORT]
    ));
    assert_eq!(
        value(Agent::Vscode, &text)["servers"]["gatehouse"]["type"],
        "stdio"
    );
    // The person's own VS Code file is not the project's: nothing to undo there.
    let error = undo(&host, Agent::Vscode, Some(&home.places.home), false)
        .await
        .expect_err("not the home's");
    assert!(error.to_string().contains("no connect to undo"), "{error}");
    undo(&host, Agent::Vscode, Some(&home.project), false)
        .await
        .expect("undone");
    assert_eq!(std::fs::read(&file).expect("read"), original);
    host.shutdown().await;
}
