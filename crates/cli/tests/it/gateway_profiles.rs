//! Client profiles and limits through the real gateway, with real SDK clients nobody here wrote
//! (the Python SDK's and the TypeScript SDK v1's) started as agents on `gatehouse mcp --client`:
//! a profile hiding one server and one tool (the lists omit them; the hidden tool called by its
//! real name is refused with `isError` and an audit row naming the profile; each row of the
//! agent's calls records its `clientInfo`; `audit list --client` lists that client's rows alone),
//! a profile changed while an agent waits (it is told its tools changed), and a flooding client
//! refused past its limits while another client is served.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::engine::{Gathered, Reaped, serve, wait_connected};
use crate::support::gateway::steps as step;
use crate::support::gateway::{StopsTheEngine, fixtures, run_client};
use crate::support::{add_stdio, exits, ok, ok_json, stderr};
use serde_json::Value;

fn python() -> std::path::PathBuf {
    fixtures().join("python/.venv/bin/python")
}

fn names(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect()
}

/// server-everything as `e` and server-memory as `m`, both allowed for agents, and their tools
/// known to Gatehouse (listed once).
fn two_servers() -> tempfile::TempDir {
    let data = crate::support::data_with_everything("e");
    let memory = fixtures()
        .join("node_modules/@modelcontextprotocol/server-memory/dist/index.js")
        .display()
        .to_string();
    add_stdio(data.path(), "m", "node", &[&memory]);
    for server in ["e", "m"] {
        ok(
            data.path(),
            &["policy", "set", server, "--source", "gateway", "allow"],
        );
        ok(data.path(), &["tools", server]);
    }
    data
}

#[test]
fn a_profile_hides_a_server_and_a_tool_and_the_hidden_tool_is_refused_by_its_real_name() {
    let data = two_servers();
    let data = data.path();
    ok(data, &["clients", "add", "py-agent"]);
    // A change naming an unknown server or tool is refused whole.
    let refused = exits(
        data,
        &[
            "clients", "profile", "py-agent", "--server", "m", "off", "--server", "nope", "off",
        ],
        1,
    );
    assert!(
        stderr(&refused).contains("no server named `nope`"),
        "{}",
        stderr(&refused)
    );
    let refused = exits(
        data,
        &[
            "clients",
            "profile",
            "py-agent",
            "--tool",
            "e/no-such-tool",
            "off",
        ],
        1,
    );
    assert!(
        stderr(&refused).contains("no tool `no-such-tool`"),
        "{}",
        stderr(&refused)
    );
    let unchanged = ok_json(data, &["clients", "profile", "py-agent", "--json"]);
    assert_eq!(
        unchanged["own"],
        serde_json::json!({}),
        "nothing was changed"
    );

    let profile = ok_json(
        data,
        &[
            "clients",
            "profile",
            "py-agent",
            "--server",
            "m",
            "off",
            "--tool",
            "e/get-sum",
            "off",
            "--json",
        ],
    );
    assert_eq!(profile["effective"]["servers"]["m"], false, "{profile}");
    let _engine = StopsTheEngine(data);

    let lines = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "py-agent",
        &[
            r#"e__get-sum={"a":1,"b":2}"#,
            r#"e__echo={"message":"seen"}"#,
        ],
        &[],
    );
    let listed = names(step(&lines, "tools")[0]);
    assert!(listed.contains(&"e__echo".to_owned()), "{listed:?}");
    assert!(
        !listed.contains(&"e__get-sum".to_owned()),
        "the hidden tool: {listed:?}"
    );
    assert!(
        !listed.iter().any(|n| n.starts_with("m__")),
        "the hidden server: {listed:?}"
    );

    let calls = step(&lines, "call");
    let hidden = &calls[0]["result"];
    assert_eq!(hidden["isError"], true, "{hidden}");
    let text = hidden["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("tool `e__get-sum` is not available to this client")
            && text.contains("the profile of client `py-agent`")
            && text.contains("gatehouse clients profile py-agent --tool e/get-sum on"),
        "{text}"
    );
    assert_eq!(calls[1]["result"]["content"][0]["text"], "Echo: seen");

    // Another client's rows are not listed with this one's.
    run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "other",
        &[r#"e__echo={"message":"x"}"#],
        &[],
    );
    let audit = ok_json(data, &["audit", "list", "--client", "py-agent", "--json"]);
    let rows = audit["rows"].as_array().expect("rows");
    assert!(
        rows.iter().all(|r| r["detail"]["caller"] == "py-agent"),
        "only py-agent's rows: {rows:?}"
    );
    let refusal = rows
        .iter()
        .find(|r| r["kind"] == "decision" && r["tool"] == "get-sum")
        .expect("the refusal is on record");
    assert_eq!(refusal["decision"], "deny");
    assert_eq!(refusal["source"], "gateway");
    assert_eq!(refusal["server"], "e");
    assert_eq!(refusal["detail"]["rule"], "profile");
    assert!(
        refusal["detail"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("the profile of client `py-agent`")),
        "{refusal}"
    );
    // Every row of the echo call records what the agent said of itself in `initialize`.
    let echo_rows: Vec<&Value> = rows.iter().filter(|r| r["tool"] == "echo").collect();
    assert!(
        echo_rows.len() >= 3,
        "received, decided, finished: {echo_rows:?}"
    );
    for row in echo_rows.iter().chain([&refusal]) {
        assert_eq!(row["detail"]["client_info"]["name"], "mcp", "{row}");
    }
    let show = ok_json(data, &["clients", "show", "py-agent", "--json"]);
    assert!(
        show["recent"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["tool"] == "get-sum")),
        "show lists the recent calls: {show}"
    );
}

/// `gatehouse clients profile WHO... --json`, its flags given as one string.
fn profile(data: &Path, flags: &str) -> Value {
    let mut args = vec!["clients", "profile"];
    args.extend(flags.split_whitespace());
    args.push("--json");
    ok_json(data, &args)
}

#[test]
fn a_clients_settings_handed_back_follow_the_default_profile_again() {
    let data = tempfile::tempdir().expect("tempdir");
    let data = data.path();
    add_stdio(data, "m", "node", &["-e", ""]);
    ok(data, &["clients", "add", "a"]);
    profile(data, "--default --server m off --resources off");
    let own = profile(data, "a --server m on --resources on --max-in-flight 3");
    assert_eq!(own["effective"]["servers"]["m"], true, "{own}");
    assert_eq!(own["limits"]["maxInFlight"], 3, "{own}");

    let back = profile(
        data,
        "a --server m default --resources default --default-limits",
    );
    assert_eq!(back["own"], serde_json::json!({}), "{back}");
    assert_eq!(
        back["effective"]["servers"]["m"], false,
        "the default's: {back}"
    );
    assert_eq!(back["effective"]["resources"], false, "{back}");
    assert_eq!(back["limits"]["maxInFlight"], 32, "Gatehouse's own: {back}");

    // The default profile's own settings go back to Gatehouse's.
    let gatehouse = profile(data, "--default --server m default");
    assert_eq!(gatehouse["effective"].get("servers"), None, "{gatehouse}");
    assert_eq!(
        gatehouse["effective"]["resources"], false,
        "untouched: {gatehouse}"
    );

    for (flags, says) in [
        ("--prefix default", "--prefix is the client's own choice"),
        ("--resources maybe", "`maybe` is not on, off or default"),
    ] {
        let mut args = vec!["clients", "profile", "a"];
        args.extend(flags.split_whitespace());
        let refused = exits(data, &args, 1);
        assert!(stderr(&refused).contains(says), "{}", stderr(&refused));
    }
}

#[test]
fn a_hidden_resource_and_prompt_are_refused_and_an_unknown_agent_gets_the_default_profile() {
    let data = crate::support::gateway::everything_for_agents();
    let data = data.path();
    ok(data, &["tools", "e"]);
    ok(
        data,
        &[
            "clients",
            "profile",
            "--default",
            "--prompts",
            "off",
            "--tool",
            "e/get-sum",
            "off",
        ],
    );
    ok(data, &["clients", "add", "ts-agent"]);
    ok(
        data,
        &["clients", "profile", "ts-agent", "--resources", "off"],
    );
    let _engine = StopsTheEngine(data);
    let lines = run_client(
        data,
        std::path::Path::new("node"),
        "ts_sdk_v1_client.mjs",
        "ts-agent",
        &[],
        &[
            "--read",
            "demo://resource/static/document/features.md",
            "--prompt",
            r#"e__args-prompt={"city":"Oslo"}"#,
        ],
    );
    let read = step(&lines, "read")[0];
    let message = read["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("is not available to this client")
            && message.contains("gatehouse clients profile ts-agent --resources on"),
        "{read}"
    );
    let prompt = step(&lines, "prompt")[0];
    let message = prompt["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("prompt `e__args-prompt` is not available")
            && message.contains("the profile of client `ts-agent`"),
        "the default's setting, which ts-agent does not override: {prompt}"
    );
    for listed in ["prompts", "resources"] {
        assert!(
            step(&lines, listed)
                .first()
                .is_none_or(|l| l.as_array().is_some_and(Vec::is_empty)),
            "{listed} are not listed: {lines:?}"
        );
    }
    // An agent Gatehouse does not know gets the default profile.
    let stranger = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "stranger",
        &[r#"e__get-sum={"a":1,"b":2}"#],
        &[],
    );
    assert!(!names(step(&stranger, "tools")[0]).contains(&"e__get-sum".to_owned()));
    let refused = &step(&stranger, "call")[0]["result"];
    let text = refused["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        refused["isError"] == true
            && text.contains("the default profile (`stranger` is not a client Gatehouse knows)")
            && text.contains("gatehouse clients profile --default --tool e/get-sum on"),
        "{refused}"
    );
    let refusals = ok_json(data, &["audit", "list", "--client", "ts-agent", "--json"]);
    let methods: Vec<&str> = refusals["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["decision"] == "deny" && r["detail"]["rule"] == "profile")
        .filter_map(|r| r["method"].as_str())
        .collect();
    assert!(
        methods.contains(&"resources/read") && methods.contains(&"prompts/get"),
        "{refusals}"
    );
}

/// Starts the TS SDK v1 client as `client`, waiting for `list_changed`; its stdout gathered.
fn waiting_agent(data: &Path, client: &str) -> (Reaped, Gathered) {
    let child = Command::new("node")
        .current_dir(fixtures().join("clients"))
        .args(["ts_sdk_v1_client.mjs", "--wait-list-changed", "--"])
        .arg(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("--data-dir")
        .arg(data)
        .args(["mcp", "--client", client])
        .env_remove("GATEHOUSE_DATA_DIR")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the client starts");
    let mut agent = Reaped(child);
    let out = Gathered::from(agent.0.stdout.take().expect("the client's stdout"));
    (agent, out)
}

#[test]
fn a_profile_changed_by_the_cli_while_an_agent_waits_tells_it_its_tools_changed() {
    let data = two_servers();
    let data = data.path();
    ok(data, &["clients", "add", "watcher"]);
    let _serve = serve(data);
    wait_connected(data);
    let (mut agent, out) = waiting_agent(data, "watcher");
    out.wait_for(
        "the agent has its first list",
        r#""step":"ready""#,
        Duration::from_secs(60),
    );
    ok(
        data,
        &["clients", "profile", "watcher", "--tool", "e/echo", "off"],
    );
    out.wait_for(
        "the agent is told its tools changed and lists them again",
        "tools-after-change",
        Duration::from_secs(10),
    );
    let status = crate::support::wait::until("the agent ends", Duration::from_secs(10), || {
        agent.0.try_wait().expect("wait").ok_or("running")
    });
    assert!(status.success(), "{}", out.text());
    let lines: Vec<Value> = out
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
        .collect();
    let before = names(step(&lines, "tools")[0]);
    let after = names(step(&lines, "tools-after-change")[0]);
    assert!(before.contains(&"e__echo".to_owned()), "{before:?}");
    assert!(!after.contains(&"e__echo".to_owned()), "{after:?}");
    assert!(after.contains(&"m__read_graph".to_owned()), "{after:?}");
}

#[test]
fn a_naming_choice_changed_by_the_cli_tells_the_waiting_agent_its_names_changed() {
    let data = two_servers();
    let data = data.path();
    ok(data, &["clients", "add", "namer"]);
    let _serve = serve(data);
    wait_connected(data);
    let (mut agent, out) = waiting_agent(data, "namer");
    out.wait_for(
        "the agent has its first list",
        r#""step":"ready""#,
        Duration::from_secs(60),
    );
    ok(data, &["clients", "profile", "namer", "--prefix", "off"]);
    out.wait_for(
        "the agent is told its tools changed and lists them again",
        "tools-after-change",
        Duration::from_secs(10),
    );
    let status = crate::support::wait::until("the agent ends", Duration::from_secs(10), || {
        agent.0.try_wait().expect("wait").ok_or("running")
    });
    assert!(status.success(), "{}", out.text());
    let lines: Vec<Value> = out
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line per step"))
        .collect();
    let before = names(step(&lines, "tools")[0]);
    let after = names(step(&lines, "tools-after-change")[0]);
    assert!(before.contains(&"e__echo".to_owned()), "{before:?}");
    assert!(
        after.contains(&"echo".to_owned()),
        "bare names now: {after:?}"
    );
    assert!(after.contains(&"read_graph".to_owned()), "{after:?}");
}

#[test]
fn a_client_over_its_limits_is_refused_while_another_is_served() {
    let data = crate::support::gateway::everything_for_agents();
    let data = data.path();
    ok(data, &["tools", "e"]);
    ok(data, &["clients", "add", "flood"]);
    // initialize, tools/list and two calls fit in the minute; the third call does not.
    ok(
        data,
        &[
            "clients",
            "profile",
            "flood",
            "--per-minute",
            "4",
            "--max-message-bytes",
            "2048",
        ],
    );
    let _engine = StopsTheEngine(data);
    let big = format!(r#"e__echo={{"message":"{}"}}"#, "x".repeat(4096));
    let flood = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "flood",
        &[
            &big,
            r#"e__echo={"message":"1"}"#,
            r#"e__echo={"message":"2"}"#,
            r#"e__echo={"message":"3"}"#,
        ],
        &[],
    );
    let calls = step(&flood, "call");
    let too_big = calls[0]["error"]["message"].as_str().unwrap_or_default();
    assert!(
        too_big.contains("over client `flood`'s limit of 2048 bytes"),
        "{flood:?}"
    );
    assert_eq!(
        calls[1]["result"]["content"][0]["text"], "Echo: 1",
        "{flood:?}"
    );
    let over = calls[3]["error"]["message"].as_str().unwrap_or_default();
    assert!(
        over.contains("over its limit of 4 requests per minute"),
        "the flooding client is refused: {flood:?}"
    );
    // Within the same minute, another client is served.
    let calm = run_client(
        data,
        &python(),
        "py_sdk_client.py",
        "calm",
        &[r#"e__echo={"message":"calm"}"#],
        &[],
    );
    assert_eq!(
        step(&calm, "call")[0]["result"]["content"][0]["text"],
        "Echo: calm"
    );
}
