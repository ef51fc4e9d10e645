//! `gatehouse agents`: a made-up home (`HOME`, `XDG_CONFIG_HOME` set on the command) with each
//! agent's fixture (tests/fixtures/agents/) at that agent's real place, and a project beside it;
//! every agent, server, warning and skipped entry is listed, in `--json` and as text, the
//! plaintext secrets by name only (their values appear nowhere in the output), a broken file
//! with its line and column, a file over the size bound refused, and no data directory, engine
//! or keyring touched.

use std::process::Output;

use serde_json::Value;

use crate::support::agent_home::{MadeUp, made_up_home, put};
use crate::support::{stderr, stdout};

/// Every plaintext secret in the fixtures, and the password default of the registry's.
const SECRETS: &[&str] = &[
    "ghp_fixtureClaude0000aaaaBBBBccccDDDD",
    "brave-fixture-key-0001",
    "xoxb-1111111111-2222222222-fixtureDesktopTok",
    "sk-proj-fixtureCursor0123456789abcdef",
    "cursor-header-fixture-0002",
    "glpat-fixtureVscode0123456789",
    "exa-fixture-secret-0003",
    "AIzafixtureGemini0123456789abcdEFG",
    "sk_live_fixtureWindsurf0123456789",
    "zed-fixture-pw-0004",
    "registry-fixture-secret-0005",
    "orgtok-fixture-0006",
];

fn agents(made_up: &MadeUp, args: &[&str]) -> Output {
    made_up.run("agents", args)
}

fn listing(made_up: &MadeUp) -> (Value, Output) {
    let project = made_up.project.display().to_string();
    let output = agents(made_up, &["--project", &project, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = serde_json::from_slice(&output.stdout).expect("the output is JSON");
    (json, output)
}

fn assert_no_secret(output: &Output) {
    let all = format!("{}{}", stdout(output), stderr(output));
    for secret in SECRETS {
        assert!(!all.contains(secret), "{secret} is in the output:\n{all}");
        // Nor a masked or cut form of it.
        let inner = &secret[4..secret.len() - 4];
        assert!(!all.contains(inner), "part of {secret} is in the output");
    }
}

/// The server `name` of `agent` in the file whose path ends with `file` (and its section).
fn server<'a>(json: &'a Value, agent: &str, file: &str, name: &str) -> &'a Value {
    let files = json["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .find(|a| a["agent"] == agent)
        .unwrap_or_else(|| panic!("no agent {agent}"))["files"]
        .as_array()
        .expect("files");
    files
        .iter()
        .filter(|f| f["path"].as_str().is_some_and(|p| p.ends_with(file)))
        .flat_map(|f| f["servers"].as_array().expect("servers"))
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no server {name} in {agent} {file}"))
}

fn secret_names(server: &Value) -> Vec<String> {
    server["plaintext_secrets"]
        .as_array()
        .expect("plaintext_secrets")
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s["place"].as_str().unwrap_or(""),
                s["name"].as_str().unwrap_or("")
            )
        })
        .collect()
}

fn skipped(json: &Value, agent: &str) -> Vec<(String, String)> {
    json["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter(|a| a["agent"] == agent)
        .flat_map(|a| a["files"].as_array().expect("files"))
        .flat_map(|f| f["skipped"].as_array().expect("skipped"))
        .map(|s| {
            (
                s["name"].as_str().unwrap_or("").to_owned(),
                s["reason"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn json_lists_every_agent_server_and_secret_by_name() {
    let made_up = made_up_home();
    let (json, output) = listing(&made_up);
    assert_no_secret(&output);
    let ids: Vec<&str> = json["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["agent"].as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "claude-code",
            "claude-desktop",
            "cursor",
            "vscode",
            "codex",
            "gemini",
            "windsurf",
            "zed",
            "registry"
        ]
    );

    let github = server(&json, "claude-code", ".claude.json", "github");
    assert_eq!(github["kind"], "stdio");
    assert_eq!(github["command"], "npx");
    assert_eq!(
        github["env"],
        serde_json::json!(["GITHUB_PERSONAL_ACCESS_TOKEN"])
    );
    assert_eq!(secret_names(github), ["env GITHUB_PERSONAL_ACCESS_TOKEN"]);
    assert_eq!(github["through_gatehouse"], false);
    assert_eq!(
        server(&json, "claude-code", ".claude.json", "gatehouse")["through_gatehouse"],
        true
    );
    let brave = server(&json, "claude-code", ".claude.json", "brave");
    assert_eq!(secret_names(brave), ["env BRAVE_API_KEY"]);
    let api = server(&json, "claude-code", ".mcp.json", "api");
    assert_eq!(api["kind"], "streamable-http");
    assert_eq!(api["references"][0]["name"], "API_BASE_URL");
    assert_eq!(api["references"][0]["has_default"], true);
    assert_eq!(api["references"][1]["name"], "API_KEY");
    assert!(secret_names(api).is_empty());
    assert_eq!(
        server(&json, "claude-code", ".mcp.json", "events")["kind"],
        "sse"
    );
    assert!(
        skipped(&json, "claude-code")
            .iter()
            .any(|(n, r)| n == "broken" && r.contains("websocket"))
    );

    let slack = server(
        &json,
        "claude-desktop",
        "claude_desktop_config.json",
        "slack",
    );
    assert_eq!(secret_names(slack), ["env SLACK_BOT_TOKEN"]);

    let docs = server(&json, "cursor", ".cursor/mcp.json", "docs");
    assert_eq!(docs["kind"], "http");
    assert_eq!(
        docs["headers"],
        serde_json::json!(["X-API-Key", "Accept-Language"])
    );
    assert_eq!(secret_names(docs), ["header X-API-Key"]);
    assert_eq!(
        secret_names(server(&json, "cursor", ".cursor/mcp.json", "openai-tools")),
        ["env OPENAI_API_KEY", "arg args[2]"]
    );
    assert_eq!(
        server(&json, "cursor", ".cursor/mcp.json", "openai-tools")["args"],
        serde_json::json!(["openai-tools-mcp", "--org-token", "[secret]"])
    );
    assert!(
        skipped(&json, "cursor")
            .iter()
            .any(|(n, r)| n == "both" && r.contains("both a `command` and a `url`"))
    );

    let perplexity = server(&json, "vscode", "Code/User/mcp.json", "perplexity");
    assert_eq!(
        perplexity["warnings"][0],
        "unknown field `sandboxEnabled` (kept, not used)"
    );
    assert!(
        secret_names(perplexity).is_empty(),
        "an input is not in the file"
    );
    assert_eq!(perplexity["references"][0]["kind"], "input");
    assert_eq!(
        secret_names(server(&json, "vscode", "Code/User/mcp.json", "gitlab")),
        ["header Authorization"]
    );
    assert_eq!(
        server(&json, "vscode", ".vscode/mcp.json", "memory")["kind"],
        "stdio"
    );

    let figma = server(&json, "codex", "config.toml", "figma");
    assert_eq!(figma["bearer_token_env_var"], "FIGMA_OAUTH_TOKEN");
    assert_eq!(figma["kind"], "streamable-http");
    assert_eq!(
        server(&json, "codex", "config.toml", "old")["disabled"],
        true
    );
    assert_eq!(
        server(&json, "codex", "config.toml", "gatehouse")["through_gatehouse"],
        true
    );
    assert_eq!(
        secret_names(server(&json, "codex", "config.toml", "exa")),
        ["env EXA_API_KEY"]
    );

    let gemini = server(&json, "gemini", "settings.json", "github");
    assert_eq!(gemini["trust"], true);
    assert_eq!(gemini["exclude_tools"], serde_json::json!(["delete_repo"]));
    assert_eq!(
        server(&json, "gemini", "settings.json", "events")["kind"],
        "sse"
    );
    assert_eq!(
        server(&json, "gemini", "settings.json", "sandbox")["disabled"],
        true
    );

    assert_eq!(
        server(&json, "windsurf", "mcp_config.json", "gatehouse")["through_gatehouse"],
        true
    );
    assert_eq!(
        server(&json, "windsurf", "mcp_config.json", "figma")["disabled"],
        true
    );
    assert_eq!(
        secret_names(server(&json, "windsurf", "mcp_config.json", "stripe")),
        ["env STRIPE_SECRET_KEY"]
    );

    assert_eq!(
        secret_names(server(&json, "zed", "zed/settings.json", "postgres")),
        ["env POSTGRES_PASSWORD"]
    );
    assert_eq!(
        server(&json, "zed", "zed/settings.json", "older")["command"],
        "older-server"
    );
    assert!(
        skipped(&json, "zed")
            .iter()
            .any(|(n, r)| n == "mcp-server-context7" && r.contains("extension"))
    );

    let weather = server(
        &json,
        "registry",
        "server.json",
        "io.github.example/weather (npm #1)",
    );
    assert_eq!(secret_names(weather), ["env WEATHER_SIGNING"]);

    assert!(
        !made_up.data.exists(),
        "no data directory, database or engine"
    );
}

#[test]
fn text_lists_the_same_without_values() {
    let made_up = made_up_home();
    let project = made_up.project.display().to_string();
    let output = agents(&made_up, &["--project", &project]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_no_secret(&output);
    let text = stdout(&output);
    for line in [
        "Claude Code (claude-code)",
        "    - gatehouse (stdio): gatehouse mcp --client claude-code  [through Gatehouse]",
        "        plaintext secrets: 1 (env GITHUB_PERSONAL_ACCESS_TOKEN)",
        "    - broken: skipped: `type` is `websocket`, a transport Gatehouse does not know",
        "    - docs (http): https://docs.example.com/mcp",
        "    - openai-tools (stdio): uvx openai-tools-mcp --org-token [secret]",
        "        plaintext secrets: 2 (env OPENAI_API_KEY, arg args[2])",
        "        plaintext secrets: 1 (header X-API-Key)",
        "        warning: unknown field `sandboxEnabled` (kept, not used)",
        "    input perplexity-key: a password the agent asks for (not in the file)",
        "    - old (stdio): old-server  [disabled]",
        "        bearer token from $FIGMA_OAUTH_TOKEN",
        "    - mcp-server-context7: skipped: a Zed extension provides it (its command is the extension's)",
        "MCP registry server.json (registry)",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "no line {line:?} in:\n{text}"
        );
    }
    assert!(!made_up.data.exists());
}

#[test]
fn a_broken_file_is_named_with_its_line_and_column() {
    let made_up = made_up_home();
    let settings = made_up.home.join(".gemini/settings.json");
    put(
        &settings,
        "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\" }\n    \"b\": 3 ]\n}\n",
    );
    let codex = made_up.home.join(".codex/config.toml");
    put(&codex, "[mcp_servers.exa]\ncommand = npx\n");
    let (json, _) = listing(&made_up);
    let file = |agent: &str| {
        json["agents"]
            .as_array()
            .expect("agents")
            .iter()
            .find(|a| a["agent"] == agent)
            .expect("the agent is listed")["files"][0]
            .clone()
    };
    let gemini = file("gemini");
    assert_eq!(gemini["error"]["line"], 4, "{gemini}");
    assert_eq!(gemini["error"]["column"], 12, "{gemini}");
    assert!(gemini["servers"].as_array().expect("servers").is_empty());
    assert_eq!(file("codex")["error"]["line"], 2);
    // The other agents are still read.
    assert_eq!(file("cursor")["error"], Value::Null);

    let output = agents(&made_up, &[]);
    assert!(output.status.success());
    let text = stdout(&output);
    let expected = format!(
        "    error: {}:4:12: it is not valid JSON with comments:",
        settings.display()
    );
    assert!(
        text.lines().any(|l| l.starts_with(&expected)),
        "{expected:?} not in:\n{text}"
    );
    let expected = format!("    error: {}:2:11: it is not valid TOML:", codex.display());
    assert!(
        text.lines().any(|l| l.starts_with(&expected)),
        "{expected:?} not in:\n{text}"
    );
}

#[test]
fn a_file_over_the_bound_is_refused() {
    let made_up = made_up_home();
    let cursor = made_up.home.join(".cursor/mcp.json");
    let mut big = String::from("{\"mcpServers\": {}, \"padding\": \"");
    big.push_str(&"x".repeat(4 * 1024 * 1024));
    big.push_str("\"}");
    put(&cursor, &big);
    let output = agents(&made_up, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = format!(
        "    error: {}: it is larger than 4 MiB, the most Gatehouse reads of an agent's config",
        cursor.display()
    );
    let text = stdout(&output);
    assert!(
        text.lines().any(|l| l == expected),
        "{expected:?} not in:\n{text}"
    );
    assert!(
        text.contains("Claude Code (claude-code)"),
        "the others are still read"
    );
}

#[test]
fn nothing_found_and_a_project_that_is_not_a_directory() {
    let made_up = made_up_home();
    std::fs::remove_dir_all(&made_up.home).expect("the home is emptied");
    std::fs::create_dir_all(&made_up.home).expect("the home is made");
    let output = agents(&made_up, &[]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output).trim(),
        format!(
            "no agent's MCP config found under {}",
            made_up.home.display()
        )
    );
    let json = agents(&made_up, &["--json"]);
    let value: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(value, serde_json::json!({ "agents": [] }));
    let missing = made_up.project.join("nope").display().to_string();
    let output = agents(&made_up, &["--project", &missing]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("not a directory"),
        "{}",
        stderr(&output)
    );
}
