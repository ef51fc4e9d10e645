//! Importing each agent's servers (tests/fixtures/agents/, at their real places in a made-up
//! home) into a real data directory, against the real keyring: server by server as Gatehouse
//! keeps it, the secrets found in the keyring and nowhere in the data directory (database and
//! WAL), `${VAR}` references kept, and the bad inputs refused with nothing written: a clash
//! nobody resolved and a file changed after the preview; an entry imported before is replaced
//! only when named, and then in the server it became.

use std::collections::BTreeMap;
use std::path::Path;

use gatehouse_host::agent_import::{self, Choices, ImportPlan, OnClash, imported};
use gatehouse_host::agents::model::Agent;
use gatehouse_host::agents::places::Places;
use gatehouse_host::secrets::{KeyringStore, SecretKey, SecretStore};
use gatehouse_host::{Host, ServerConfig, ServerSpec, ServerTransport};

use crate::support;
use crate::support::agent_home::made_up_home;

const PORTS: &[u16] = &[47821];

async fn preview(
    host: &Host,
    places: &Places,
    project: &Path,
    agent: Agent,
    choices: &Choices,
) -> ImportPlan {
    agent_import::preview(host, places, agent, Some(project), choices, PORTS)
        .await
        .unwrap_or_else(|e| panic!("preview of {}: {e}", agent.id()))
}

fn config<'a>(configs: &'a [ServerConfig], name: &str) -> &'a ServerConfig {
    configs.iter().find(|c| c.name == name).unwrap_or_else(|| {
        panic!(
            "no server {name} in {:?}",
            configs.iter().map(|c| &c.name).collect::<Vec<_>>()
        )
    })
}

/// (env or header name, value, secret) of a server, secrets blank as stored.
fn values(config: &ServerConfig) -> Vec<(String, String, bool)> {
    match &config.spec {
        ServerSpec::Stdio { env, .. } => env
            .iter()
            .map(|v| (v.key.clone(), v.value.clone(), v.secret))
            .collect(),
        ServerSpec::Http { headers, .. } => headers
            .iter()
            .map(|h| (h.name.clone(), h.value.clone(), h.secret))
            .collect(),
    }
}

fn value(config: &ServerConfig, name: &str) -> (String, bool) {
    values(config)
        .into_iter()
        .find(|(n, _, _)| n == name)
        .map(|(_, v, s)| (v, s))
        .unwrap_or_else(|| panic!("{} has no {name}: {:?}", config.name, values(config)))
}

async fn in_keyring(config: &ServerConfig, kind: &str, name: &str) -> Option<String> {
    let key = match kind {
        "env" => SecretKey::env(&config.id, name),
        _ => SecretKey::header(&config.id, name),
    };
    KeyringStore
        .get(&key)
        .await
        .expect("keyring")
        .map(|v| v.into_exposed())
}

/// The plaintext secrets of the fixtures, by agent: (server, env or header, name, value).
const SECRETS: &[(Agent, &str, &str, &str, &str)] = &[
    (
        Agent::ClaudeCode,
        "github",
        "env",
        "GITHUB_PERSONAL_ACCESS_TOKEN",
        "ghp_fixtureClaude0000aaaaBBBBccccDDDD",
    ),
    (
        Agent::ClaudeCode,
        "brave",
        "env",
        "BRAVE_API_KEY",
        "brave-fixture-key-0001",
    ),
    (
        Agent::ClaudeDesktop,
        "slack",
        "env",
        "SLACK_BOT_TOKEN",
        "xoxb-1111111111-2222222222-fixtureDesktopTok",
    ),
    (
        Agent::Cursor,
        "openai-tools",
        "env",
        "OPENAI_API_KEY",
        "sk-proj-fixtureCursor0123456789abcdef",
    ),
    (
        Agent::Cursor,
        "openai-tools",
        "env",
        "IMPORTED_SECRET_ARG_3",
        "orgtok-fixture-0006",
    ),
    (
        Agent::Cursor,
        "docs",
        "header",
        "X-API-Key",
        "cursor-header-fixture-0002",
    ),
    (
        Agent::Vscode,
        "perplexity",
        "env",
        "PERPLEXITY_API_KEY",
        "pplx-typed-at-import-0007",
    ),
    (
        Agent::Vscode,
        "gitlab",
        "header",
        "Authorization",
        "Bearer glpat-fixtureVscode0123456789",
    ),
    (
        Agent::Codex,
        "exa",
        "env",
        "EXA_API_KEY",
        "exa-fixture-secret-0003",
    ),
    (
        Agent::Gemini,
        "github-gemini",
        "header",
        "Authorization",
        "Bearer AIzafixtureGemini0123456789abcdEFG",
    ),
    (
        Agent::Windsurf,
        "stripe",
        "env",
        "STRIPE_SECRET_KEY",
        "sk_live_fixtureWindsurf0123456789",
    ),
    (
        Agent::Zed,
        "postgres",
        "env",
        "POSTGRES_PASSWORD",
        "zed-fixture-pw-0004",
    ),
    (
        Agent::Registry,
        "io.github.example-weather-npm-1",
        "env",
        "WEATHER_SIGNING",
        "registry-fixture-secret-0005",
    ),
];

#[tokio::test]
async fn every_agents_servers_are_imported_with_their_secrets_in_the_keyring_alone() {
    let root = tempfile::tempdir().expect("temp dir");
    let (places, project) = made_up_home(root.path());
    let data = root.path().join("data");
    let host = support::open_host(&data, false).await;
    let choices = Choices {
        on_clash: Some(OnClash::Rename),
        inputs: BTreeMap::from([
            (
                "PERPLEXITY_KEY".to_owned(),
                "pplx-typed-at-import-0007".to_owned(),
            ),
            ("REGION".to_owned(), "eu-west".to_owned()),
        ]),
        ..Choices::default()
    };
    let mut previews = String::new();
    for agent in Agent::ALL {
        let plan = preview(&host, &places, &project, agent, &choices).await;
        previews.push_str(&serde_json::to_string(&plan).expect("json"));
        assert!(
            plan.unresolved().is_empty(),
            "{}: renamed on clash",
            agent.id()
        );
        assert!(
            !plan.servers.is_empty(),
            "{}: servers to import",
            agent.id()
        );
        if agent == Agent::Vscode {
            let asked: Vec<(&str, bool, bool)> = plan
                .inputs
                .iter()
                .map(|i| (i.id.as_str(), i.password, i.given))
                .collect();
            assert_eq!(
                asked,
                [("perplexity-key", true, true), ("region", false, true)]
            );
        }
        let written = agent_import::apply(&host, &plan)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", agent.id()));
        assert_eq!(written.len(), plan.servers.len());
        let record = imported(&host, agent).await.expect("record");
        assert_eq!(
            record.len(),
            written.len(),
            "{}: each server recorded",
            agent.id()
        );
    }
    let configs = host.server_configs().await.expect("configs");

    for (agent, server, kind, name, secret) in SECRETS {
        let config = config(&configs, server);
        assert_eq!(
            value(config, name),
            (String::new(), true),
            "{}: {server} {name} is kept as a secret",
            agent.id()
        );
        assert_eq!(
            in_keyring(config, kind, name).await.as_deref(),
            Some(*secret),
            "{server} {name} is in the keyring"
        );
        assert!(
            !previews.contains(secret),
            "the preview masks {server}'s {name}"
        );
    }

    // A secret passed as an argument: the argument names the secret env variable.
    let openai = config(&configs, "openai-tools");
    let ServerSpec::Stdio { args, .. } = &openai.spec else {
        panic!("openai-tools is stdio")
    };
    assert_eq!(args[1..], ["--org-token", "${IMPORTED_SECRET_ARG_3}"]);

    // References stay references; what the formats say is kept.
    let notes = config(&configs, "notes");
    assert_eq!(
        value(notes, "Authorization"),
        ("Bearer ${NOTES_TOKEN}".into(), false)
    );
    let python = config(&configs, "python-tools");
    assert_eq!(
        value(python, "DATABASE_URL"),
        ("${DB_CONNECTION_STRING}".into(), false),
        "Gemini's $VAR braced"
    );
    assert_eq!(
        value(python, "API_KEY"),
        ("${EXTERNAL_API_KEY}".into(), false)
    );
    let figma = config(&configs, "figma");
    assert_eq!(
        value(figma, "Authorization"),
        ("Bearer ${FIGMA_OAUTH_TOKEN}".into(), false),
        "Codex bearer_token_env_var"
    );
    assert_eq!(value(figma, "X-Figma-Region"), ("us-east-1".into(), false));
    let memory = config(&configs, "memory");
    let expected = format!("{}/memory.json", project.display());
    assert_eq!(
        value(memory, "MEMORY_FILE_PATH"),
        (expected, false),
        "${{workspaceFolder}} is the project"
    );
    let ServerSpec::Stdio { cwd, .. } = &memory.spec else {
        panic!("memory is stdio")
    };
    assert_eq!(
        cwd.as_deref(),
        Some(project.display().to_string().as_str()),
        "a project's server runs in it"
    );
    assert_eq!(memory.roots, vec![format!("file://{}", project.display())]);
    let perplexity = config(&configs, "perplexity");
    assert_eq!(
        value(perplexity, "REGION"),
        ("eu-west".into(), false),
        "a plain input as given"
    );
    let slack = config(&configs, "slack");
    assert_eq!(value(slack, "SLACK_TEAM_ID"), ("T01234567".into(), false));
    let weather = config(&configs, "io.github.example-weather-npm-1");
    assert_eq!(
        value(weather, "WEATHER_API_KEY"),
        ("${WEATHER_API_KEY}".into(), false),
        "a registry variable without a value names the environment"
    );
    let events = config(&configs, "events");
    let ServerSpec::Http { transport, .. } = &events.spec else {
        panic!("events is http")
    };
    assert_eq!(*transport, ServerTransport::Sse);
    for disabled in ["old", "figma-windsurf", "linear"] {
        assert!(
            !config(&configs, disabled).enabled,
            "{disabled} stays disabled"
        );
    }
    for left_out in ["gatehouse", "broken", "both"] {
        assert!(
            configs.iter().all(|c| c.name != left_out),
            "{left_out} is not imported"
        );
    }

    // Nothing of any secret in the data directory, the WAL included.
    host.shutdown().await;
    for (_, server, _, _, secret) in SECRETS {
        let found = support::files_containing(&data, secret);
        assert!(found.is_empty(), "{server}'s secret is in {found:?}");
    }
}

/// A made-up home, and a data directory where the person has a server `slack` of their own.
async fn home_with_own_slack() -> (tempfile::TempDir, Places, std::path::PathBuf, Host) {
    let root = tempfile::tempdir().expect("temp dir");
    let (places, project) = made_up_home(root.path());
    let host = support::open_host(&root.path().join("data"), false).await;
    host.add_server(support::stdio("slack", "slack-server", vec![]))
        .await
        .expect("add");
    (root, places, project, host)
}

#[tokio::test]
async fn an_unresolved_clash_or_a_file_changed_after_the_preview_writes_nothing() {
    let (_root, places, project, host) = home_with_own_slack().await;

    let plan = preview(
        &host,
        &places,
        &project,
        Agent::ClaudeDesktop,
        &Choices::default(),
    )
    .await;
    assert_eq!(plan.unresolved().len(), 1, "slack clashes");
    let error = agent_import::apply(&host, &plan)
        .await
        .expect_err("refused");
    assert!(
        error.to_string().contains("`slack`") && error.to_string().contains("nothing was imported"),
        "{error}"
    );
    assert_eq!(
        host.server_configs().await.expect("configs").len(),
        1,
        "nothing written"
    );

    // Resolved by skipping it: the other server alone.
    let skip = Choices {
        skip: ["slack".to_owned()].into(),
        ..Choices::default()
    };
    let plan = preview(&host, &places, &project, Agent::ClaudeDesktop, &skip).await;
    assert_eq!(
        plan.servers
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["filesystem"]
    );
    // ... but the file changes before the write.
    let file = places.config_dir.join("Claude/claude_desktop_config.json");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, text.replace("Desktop\"]", "Documents\"]")).expect("write");
    let error = agent_import::apply(&host, &plan)
        .await
        .expect_err("refused");
    assert!(
        error.to_string().contains("changed since the preview"),
        "{error}"
    );
    assert_eq!(
        host.server_configs().await.expect("configs").len(),
        1,
        "nothing written"
    );

    // Replace: the existing server takes the entry's configuration and keeps its id.
    let before = host.server("slack").await.expect("slack").config.id;
    let replace = Choices {
        replace: ["slack".to_owned()].into(),
        ..Choices::default()
    };
    let plan = preview(&host, &places, &project, Agent::ClaudeDesktop, &replace).await;
    let written = agent_import::apply(&host, &plan).await.expect("import");
    assert_eq!(written.iter().filter(|w| w.replaced).count(), 1);
    let slack = host.server("slack").await.expect("slack").config;
    assert_eq!(slack.id, before);
    assert!(matches!(&slack.spec, ServerSpec::Stdio { command, .. } if command == "npx"));

    // Imported again: each entry is already imported and left alone.
    let plan = preview(
        &host,
        &places,
        &project,
        Agent::ClaudeDesktop,
        &Choices::default(),
    )
    .await;
    assert!(
        plan.servers.is_empty(),
        "{:?}",
        plan.servers.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    assert!(
        plan.skipped
            .iter()
            .all(|s| s.reason.contains("already imported")),
        "{:?}",
        plan.skipped
    );
}

#[tokio::test]
async fn references_in_a_servers_configuration_are_expanded_when_it_starts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = support::scripted_source(
        r#"
import os
home = os.environ.get("HOME", "")
ok = sys.argv[1] == home and os.environ.get("SEEN") == home + "/y" and os.environ.get("UNSET_ONE") == "dflt"
handshake({"tools": {}}, name="expanded" if ok else "not-expanded")
reply(read(), {"tools": []})
sys.stdin.read()
"#,
    );
    let mut input = support::stdio(
        "refs",
        "python3",
        vec!["-c".into(), source, "${HOME}".into()],
    );
    if let ServerSpec::Stdio { env, .. } = &mut input.spec {
        for (key, value) in [
            ("SEEN", "${HOME}/y"),
            ("UNSET_ONE", "${GATEHOUSE_TEST_NEVER_SET:-dflt}"),
        ] {
            env.push(gatehouse_host::EnvVar {
                key: key.into(),
                value: value.into(),
                secret: false,
            });
        }
    }
    let host = support::open_host(dir.path(), true).await;
    host.add_server(input).await.expect("add");
    let status = support::settled(&host, "refs").await;
    assert!(
        matches!(&status, gatehouse_host::ServerStatus::Connected { server_name, .. } if server_name == "expanded"),
        "the server got its references expanded: {status:?}"
    );
    let stored = host.server("refs").await.expect("refs").config;
    assert_eq!(
        value(&stored, "SEEN"),
        ("${HOME}/y".into(), false),
        "kept as a reference"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn replacing_an_entry_imported_before_replaces_the_server_it_became() {
    let (_root, places, project, host) = home_with_own_slack().await;
    host.set_setting("stop-term-grace", "4500")
        .await
        .expect("the default stop grace");
    let rename = Choices {
        on_clash: Some(OnClash::Rename),
        ..Choices::default()
    };
    let plan = preview(&host, &places, &project, Agent::ClaudeDesktop, &rename).await;
    agent_import::apply(&host, &plan).await.expect("import");
    let imported = host.server("slack-claude-desktop").await.expect("imported");
    let term_ms = |config: &ServerConfig| match &config.spec {
        ServerSpec::Stdio { stop, .. } => stop.term_ms,
        other => panic!("a stdio server: {other:?}"),
    };
    assert_eq!(
        term_ms(&imported.config),
        4500,
        "a new server gets the stored default stop grace"
    );
    host.set_setting("stop-term-grace", "2500")
        .await
        .expect("another default");

    // --on-clash replace does not import it again.
    let on_clash = Choices {
        on_clash: Some(OnClash::Replace),
        ..Choices::default()
    };
    let plan = preview(&host, &places, &project, Agent::ClaudeDesktop, &on_clash).await;
    assert!(plan.servers.is_empty(), "{:?}", plan.skipped);

    // --replace slack: the server it became is replaced, the person's own `slack` is not.
    let replace = Choices {
        replace: ["slack".to_owned()].into(),
        ..Choices::default()
    };
    let plan = preview(&host, &places, &project, Agent::ClaudeDesktop, &replace).await;
    let slack = plan
        .servers
        .iter()
        .find(|s| s.entry == "slack")
        .expect("slack planned");
    assert_eq!(slack.name, "slack-claude-desktop");
    assert_eq!(
        slack.action,
        agent_import::plan::Action::Replace {
            server: "slack-claude-desktop".into()
        }
    );
    agent_import::apply(&host, &plan).await.expect("import");
    let replaced = host.server("slack-claude-desktop").await.expect("replaced");
    assert_eq!(
        term_ms(&replaced.config),
        4500,
        "a replaced server keeps its own stop grace"
    );
    let own = host.server("slack").await.expect("slack").config;
    assert!(
        matches!(&own.spec, ServerSpec::Stdio { command, .. } if command == "slack-server"),
        "the person's own slack is untouched"
    );
    assert_eq!(host.server_configs().await.expect("configs").len(), 3);
}
