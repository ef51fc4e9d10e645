//! Each agent's parser on a fixture written the way that agent documents its MCP config
//! (tests/fixtures/agents/), server by server: transport, command or URL, env and headers,
//! references kept unresolved, disabled entries, unknown fields warned about, entries
//! Gatehouse cannot represent skipped with the reason, the plaintext secrets by name, and
//! whether an entry already goes through Gatehouse; then the whole discovery on a made-up home.

use gatehouse_host::agents::discover::{discover, parse};
use gatehouse_host::agents::model::{
    Agent, Launch, Remote, RemoteTransport, Scope, ServerEntry, Setting, Stdio,
};
use gatehouse_host::agents::plaintext::{SecretPlace, plaintext_secrets};
use gatehouse_host::agents::references::Reference;
use gatehouse_host::agents::section::Section;
use gatehouse_host::agents::through::{DEFAULT_GATEWAY_PORT, through_gatehouse};

use crate::support::agent_home::{fixture, made_up_home};

fn sections(agent: Agent, scope: Scope, name: &str) -> Vec<Section> {
    let text = fixture(name).replace("@PROJECT@", "/work/project");
    parse(agent, scope, &text, None).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn one(agent: Agent, scope: Scope, name: &str) -> Section {
    let mut all = sections(agent, scope, name);
    assert_eq!(all.len(), 1, "{name}: one section");
    all.remove(0)
}

fn server<'a>(section: &'a Section, name: &str) -> &'a ServerEntry {
    section
        .servers
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no server {name} in {:?}", names(section)))
}

fn names(section: &Section) -> Vec<&str> {
    section.servers.iter().map(|s| s.name.as_str()).collect()
}

fn stdio(entry: &ServerEntry) -> &Stdio {
    match &entry.launch {
        Launch::Stdio(s) => s,
        Launch::Remote(_) => panic!("{} is remote", entry.name),
    }
}

fn remote(entry: &ServerEntry) -> &Remote {
    match &entry.launch {
        Launch::Remote(r) => r,
        Launch::Stdio(_) => panic!("{} is stdio", entry.name),
    }
}

fn setting<'a>(settings: &'a [Setting], name: &str) -> Option<&'a str> {
    settings
        .iter()
        .find(|s| s.name == name)
        .and_then(|s| s.value.as_deref())
}

/// `(place, name)` of each plaintext secret.
fn secrets(entry: &ServerEntry) -> Vec<(SecretPlace, String)> {
    plaintext_secrets(entry)
        .into_iter()
        .map(|s| (s.place, s.name))
        .collect()
}

fn through(entry: &ServerEntry) -> bool {
    through_gatehouse(entry, &[DEFAULT_GATEWAY_PORT])
}

fn env_ref(name: &str, default: Option<&str>) -> Reference {
    Reference::Env {
        name: name.into(),
        default: default.map(Into::into),
    }
}

#[test]
fn claude_code_user_file_and_its_projects() {
    let all = sections(Agent::ClaudeCode, Scope::User, "claude.json");
    assert_eq!(all.len(), 3, "the user section and two projects");
    let user = &all[0];
    assert_eq!(user.section, None);
    assert_eq!(names(user), ["github", "notes", "gatehouse"]);
    let github = server(user, "github");
    assert_eq!(stdio(github).command, "npx");
    assert_eq!(
        stdio(github).args,
        ["-y", "@modelcontextprotocol/server-github"]
    );
    assert_eq!(
        secrets(github),
        [(SecretPlace::Env, "GITHUB_PERSONAL_ACCESS_TOKEN".to_owned())]
    );
    assert!(!through(github));
    let notes = server(user, "notes");
    assert_eq!(
        remote(notes).transport,
        Some(RemoteTransport::StreamableHttp)
    );
    assert_eq!(
        setting(&remote(notes).headers, "Authorization"),
        Some("Bearer ${NOTES_TOKEN}")
    );
    assert_eq!(notes.references(), [env_ref("NOTES_TOKEN", None)]);
    assert!(secrets(notes).is_empty(), "a reference is not a secret");
    assert!(through(server(user, "gatehouse")));

    assert_eq!(
        all[1].section.as_deref(),
        Some("projects[\"/work/project\"].mcpServers")
    );
    let brave = server(&all[1], "brave");
    assert_eq!(
        secrets(brave),
        [(SecretPlace::Env, "BRAVE_API_KEY".to_owned())]
    );
    assert_eq!(names(&all[2]), ["elsewhere"]);
}

#[test]
fn claude_code_project_file() {
    let project = one(Agent::ClaudeCode, Scope::Project, "claude-project.mcp.json");
    assert_eq!(names(&project), ["api", "events"]);
    let api = server(&project, "api");
    assert_eq!(
        remote(api).url,
        "${API_BASE_URL:-https://api.example.com}/mcp"
    );
    assert_eq!(
        api.references(),
        [
            env_ref("API_BASE_URL", Some("https://api.example.com")),
            env_ref("API_KEY", None)
        ]
    );
    assert_eq!(
        remote(server(&project, "events")).transport,
        Some(RemoteTransport::Sse)
    );
    assert_eq!(project.skipped.len(), 1);
    assert_eq!(project.skipped[0].name, "broken");
    assert!(
        project.skipped[0].reason.contains("`websocket`"),
        "{:?}",
        project.skipped
    );
}

#[test]
fn claude_desktop() {
    let file = one(
        Agent::ClaudeDesktop,
        Scope::User,
        "claude_desktop_config.json",
    );
    assert_eq!(names(&file), ["filesystem", "slack"]);
    assert!(
        secrets(server(&file, "filesystem")).is_empty(),
        "a path argument is not a secret"
    );
    let slack = server(&file, "slack");
    assert_eq!(
        setting(&stdio(slack).env, "SLACK_TEAM_ID"),
        Some("T01234567")
    );
    assert_eq!(
        secrets(slack),
        [(SecretPlace::Env, "SLACK_BOT_TOKEN".to_owned())]
    );
}

#[test]
fn cursor() {
    let file = one(Agent::Cursor, Scope::User, "cursor-mcp.json");
    assert_eq!(names(&file), ["openai-tools", "docs"]);
    let tools = server(&file, "openai-tools");
    assert_eq!(
        stdio(tools).env_file.as_deref(),
        Some("${userHome}/.config/openai-tools.env")
    );
    assert_eq!(
        secrets(tools),
        [
            (SecretPlace::Env, "OPENAI_API_KEY".to_owned()),
            (SecretPlace::Arg, "args[2]".to_owned())
        ]
    );
    let docs = server(&file, "docs");
    assert_eq!(remote(docs).transport, None, "Cursor chooses the transport");
    assert_eq!(
        secrets(docs),
        [(SecretPlace::Header, "X-API-Key".to_owned())]
    );
    assert_eq!(file.skipped[0].name, "both");
    assert!(
        file.skipped[0]
            .reason
            .contains("both a `command` and a `url`")
    );
}

#[test]
fn vscode_with_inputs_and_comments() {
    let file = one(Agent::Vscode, Scope::User, "vscode-mcp.json");
    assert_eq!(names(&file), ["perplexity", "gitlab", "legacy-sse"]);
    assert_eq!(file.inputs.len(), 2);
    assert!(file.inputs[0].password && file.inputs[0].id == "perplexity-key");
    assert!(!file.inputs[1].password);
    let perplexity = server(&file, "perplexity");
    assert_eq!(
        perplexity.references(),
        [
            Reference::Input {
                id: "perplexity-key".into()
            },
            Reference::Input {
                id: "region".into()
            },
            Reference::Predefined {
                name: "workspaceFolder".into()
            }
        ]
    );
    assert!(
        secrets(perplexity).is_empty(),
        "an input is asked for, not written"
    );
    assert_eq!(
        perplexity.warnings,
        ["unknown field `sandboxEnabled` (kept, not used)"]
    );
    assert!(perplexity.unknown.contains_key("sandboxEnabled"));
    let gitlab = server(&file, "gitlab");
    assert_eq!(
        remote(gitlab).transport,
        Some(RemoteTransport::StreamableHttp)
    );
    assert_eq!(
        secrets(gitlab),
        [(SecretPlace::Header, "Authorization".to_owned())]
    );
    assert_eq!(
        remote(server(&file, "legacy-sse")).transport,
        Some(RemoteTransport::Sse)
    );
}

#[test]
fn codex_toml() {
    let file = one(Agent::Codex, Scope::User, "codex-config.toml");
    assert_eq!(names(&file), ["exa", "figma", "old", "gatehouse"]);
    let exa = server(&file, "exa");
    assert_eq!(secrets(exa), [(SecretPlace::Env, "EXA_API_KEY".to_owned())]);
    assert!(exa.warnings.is_empty(), "{:?}", exa.warnings);
    let figma = server(&file, "figma");
    let figma_remote = remote(figma);
    assert_eq!(
        figma_remote.transport,
        Some(RemoteTransport::StreamableHttp)
    );
    assert_eq!(
        figma_remote.bearer_token_env_var.as_deref(),
        Some("FIGMA_OAUTH_TOKEN")
    );
    assert_eq!(
        setting(&figma_remote.headers, "X-Figma-Region"),
        Some("us-east-1")
    );
    assert_eq!(
        figma.include_tools.as_deref(),
        Some(&["get_file".to_owned(), "get_node".to_owned()][..])
    );
    assert!(secrets(figma).is_empty());
    assert!(server(&file, "old").disabled);
    assert!(!exa.disabled);
    assert!(through(server(&file, "gatehouse")));
}

#[test]
fn gemini() {
    let file = one(Agent::Gemini, Scope::User, "gemini-settings.json");
    assert_eq!(
        names(&file),
        ["python-tools", "github", "events", "sandbox"]
    );
    let python = server(&file, "python-tools");
    assert_eq!(stdio(python).cwd.as_deref(), Some("./mcp-servers/python"));
    assert_eq!(python.trust, Some(false));
    assert_eq!(
        python.include_tools.as_deref(),
        Some(&["safe_tool".to_owned(), "file_reader".to_owned()][..])
    );
    assert!(
        secrets(python).is_empty(),
        "`$VAR` and `${{VAR}}` are references"
    );
    let github = server(&file, "github");
    assert_eq!(
        remote(github).transport,
        Some(RemoteTransport::StreamableHttp)
    );
    assert_eq!(github.trust, Some(true));
    assert_eq!(
        github.exclude_tools.as_deref(),
        Some(&["delete_repo".to_owned()][..])
    );
    assert_eq!(
        secrets(github),
        [(SecretPlace::Header, "Authorization".to_owned())]
    );
    assert_eq!(
        remote(server(&file, "events")).transport,
        Some(RemoteTransport::Sse),
        "Gemini's `url` is SSE"
    );
    assert!(server(&file, "sandbox").disabled, "mcp.excluded");
    assert!(!python.disabled);
}

#[test]
fn windsurf() {
    let file = one(Agent::Windsurf, Scope::User, "windsurf-mcp_config.json");
    assert_eq!(names(&file), ["stripe", "figma", "gatehouse"]);
    let stripe = server(&file, "stripe");
    assert_eq!(
        secrets(stripe),
        [(SecretPlace::Env, "STRIPE_SECRET_KEY".to_owned())]
    );
    assert_eq!(
        stripe.exclude_tools.as_deref(),
        Some(&["create_refund".to_owned()][..])
    );
    let figma = server(&file, "figma");
    assert_eq!(remote(figma).url, "https://mcp.figma.com/mcp");
    assert!(figma.disabled);
    let gatehouse = server(&file, "gatehouse");
    assert!(through(gatehouse));
    assert!(!through(figma));
}

#[test]
fn zed_jsonc_and_its_older_form() {
    let file = one(Agent::Zed, Scope::User, "zed-settings.json");
    assert_eq!(names(&file), ["postgres", "older", "linear"]);
    let postgres = server(&file, "postgres");
    assert_eq!(
        secrets(postgres),
        [(SecretPlace::Env, "POSTGRES_PASSWORD".to_owned())]
    );
    assert!(postgres.warnings.is_empty(), "{:?}", postgres.warnings);
    let older = server(&file, "older");
    assert_eq!(stdio(older).command, "older-server");
    assert_eq!(stdio(older).args, ["--stdio"]);
    let linear = server(&file, "linear");
    assert!(linear.disabled);
    assert_eq!(
        remote(linear).transport,
        Some(RemoteTransport::StreamableHttp)
    );
    assert_eq!(file.skipped.len(), 1);
    assert_eq!(file.skipped[0].name, "mcp-server-context7");
    assert!(file.skipped[0].reason.contains("extension"));
}

#[test]
fn registry_server_json() {
    let file = one(Agent::Registry, Scope::Project, "server.json");
    assert_eq!(
        names(&file),
        [
            "io.github.example/weather (npm #1)",
            "io.github.example/weather (remote #1)"
        ]
    );
    let npm = server(&file, "io.github.example/weather (npm #1)");
    let package = stdio(npm);
    assert_eq!(package.command, "npx");
    assert_eq!(
        package.args,
        ["-y", "@example/weather-mcp@1.2.0", "--units", "metric"]
    );
    let key = package
        .env
        .iter()
        .find(|s| s.name == "WEATHER_API_KEY")
        .expect("no error");
    assert!(
        key.marked_secret && key.value.is_none(),
        "the person supplies it"
    );
    assert_eq!(setting(&package.env, "WEATHER_REGION"), Some("eu"));
    assert_eq!(
        secrets(npm),
        [(SecretPlace::Env, "WEATHER_SIGNING".to_owned())]
    );
    let remote_entry = server(&file, "io.github.example/weather (remote #1)");
    let header = &remote(remote_entry).headers[0];
    assert!(header.marked_secret && header.value.is_none());
    assert!(file.skipped[0].name.contains("mcpb"), "{:?}", file.skipped);
    assert!(file.skipped[0].reason.contains("installed by the agent"));
}

#[test]
fn broken_files_name_the_line_and_column() {
    let json = parse(
        Agent::Cursor,
        Scope::User,
        "{\n  \"mcpServers\": {\n    \"a\": }\n}",
        None,
    )
    .expect_err("an error");
    assert_eq!((json.line, json.column), (Some(3), Some(10)), "{json:?}");
    let toml = parse(
        Agent::Codex,
        Scope::User,
        "[mcp_servers.a]\ncommand = npx\n",
        None,
    )
    .expect_err("an error");
    assert_eq!(toml.line, Some(2), "{toml:?}");
    let zed = parse(
        Agent::Zed,
        Scope::User,
        "{\n // c\n \"context_servers\": {,,}\n}",
        None,
    )
    .expect_err("an error");
    assert_eq!(zed.line, Some(3), "{zed:?}");
    let shape =
        parse(Agent::Vscode, Scope::User, "{ \"servers\": [] }", None).expect_err("an error");
    assert!(shape.message.contains("`servers` is a list"), "{shape:?}");
}

#[test]
fn hostile_entries_are_skipped_not_panicked_on() {
    let text = r#"{ "mcpServers": {
        "n": null, "num": 3, "cmd": { "command": 7 }, "args": { "command": "a", "args": "x" },
        "env": { "command": "a", "env": { "K": [1] } }, "empty": { "command": " " },
        "url": { "url": "not a url" }, "none": {}
    } }"#;
    let section = parse(Agent::ClaudeDesktop, Scope::User, text, None)
        .expect("no error")
        .remove(0);
    assert!(section.servers.is_empty(), "{:?}", names(&section));
    let skipped: Vec<&str> = section.skipped.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        skipped,
        ["n", "num", "cmd", "args", "env", "empty", "url", "none"]
    );
    assert!(section.skipped.iter().all(|s| !s.reason.is_empty()));
}

#[test]
fn discovery_finds_each_agent_at_its_place() {
    let root = tempfile::tempdir().expect("no error");
    let (places, project) = made_up_home(root.path());
    let found = discover(&places, Some(&project));
    let listed: Vec<(Agent, Scope, String)> = found
        .iter()
        .map(|f| {
            let path = f
                .path
                .strip_prefix(root.path())
                .expect("no error")
                .display()
                .to_string();
            (f.agent, f.scope, path)
        })
        .collect();
    use Agent::*;
    use Scope::*;
    let expected = [
        (ClaudeCode, User, "home/.claude.json"),
        (ClaudeCode, Project, "home/.claude.json"),
        (ClaudeCode, Project, "project/.mcp.json"),
        (
            ClaudeDesktop,
            User,
            "home/.config/Claude/claude_desktop_config.json",
        ),
        (Cursor, User, "home/.cursor/mcp.json"),
        (Vscode, User, "home/.config/Code/User/mcp.json"),
        (Vscode, Project, "project/.vscode/mcp.json"),
        (Codex, User, "home/.codex/config.toml"),
        (Gemini, User, "home/.gemini/settings.json"),
        (Windsurf, User, "home/.codeium/windsurf/mcp_config.json"),
        (Zed, User, "home/.config/zed/settings.json"),
        (Registry, Project, "project/server.json"),
    ]
    .map(|(a, s, p)| (a, s, p.to_owned()));
    assert_eq!(
        listed, expected,
        "only the project's own section of ~/.claude.json"
    );
    assert!(found.iter().all(|f| f.error.is_none()));
    // Without a project: no project files, and every project section of ~/.claude.json.
    let found = discover(&places, None);
    assert_eq!(found.iter().filter(|f| f.scope == Project).count(), 2);
    assert!(found.iter().all(|f| f.agent != Registry));
}
