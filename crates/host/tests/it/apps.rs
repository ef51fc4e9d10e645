//! MCP Apps through the host, against the real example servers from npm (system-monitor, which
//! has an app-only polling tool, and basic-vanillajs) and a scripted server that shows what
//! the host declared: the UI extension is offered only where views are rendered; a tool's UI
//! and visibility are listed; its UI resource is read and made ready to render with the
//! spec's CSP; an app's tool calls go through the gate with the `app` source, held to their
//! tools' visibility (an app-only tool passes once allowed, a model-only tool and another
//! server's tool are refused and on record as refused); an app's sampling request is put to
//! the person like a server's; the tools an app lists are kept in the definition history.

use crate::support;

use std::time::Duration;

use gatehouse_host::approvals::{Answer, Scope};
use gatehouse_host::policy::{Covers, Effect, Rule};
use gatehouse_host::{AuditFilter, CallOutcome, Host, ServerInput, ToolVisibility};
use gatehouse_mcp::CallOptions;
use serde_json::{Value, json};

fn example(name: &str) -> ServerInput {
    let entry = support::fixtures().join(format!(
        "node_modules/@modelcontextprotocol/{name}/dist/index.js"
    ));
    assert!(
        entry.is_file(),
        "{name} is missing at {}: run scripts/install-test-deps.sh",
        entry.display()
    );
    support::stdio(
        name,
        "node",
        vec![entry.display().to_string(), "--stdio".into()],
    )
}

async fn rendering_host(dir: &std::path::Path) -> Host {
    Host::open(gatehouse_host::HostOptions {
        data_dir: Some(dir.to_path_buf()),
        live_sessions: true,
        render_apps: true,
        ..Default::default()
    })
    .await
    .expect("open")
}

/// Adds `input` to a live host and waits until it is connected; its id.
async fn connected(host: &Host, input: ServerInput) -> String {
    let name = input.name.clone();
    let id = host.add_server(input).await.expect("add").config.id;
    let status = support::settled(host, &name).await;
    assert!(
        matches!(status, gatehouse_host::ServerStatus::Connected { .. }),
        "{name}: {status:?}"
    );
    id
}

/// An allow rule for everything of the server `id`.
async fn allow_all(host: &Host, id: &str) {
    host.add_rule(Rule {
        id: String::new(),
        server: Some(id.to_owned()),
        tool: None,
        argument: None,
        effect: Effect::Allow,
        definition_hash: None,
        source: None,
        client: None,
    })
    .await
    .expect("rule");
}

/// An app's call of `tool` on the server `id`, with `arguments`.
async fn app_call(
    host: &Host,
    id: &str,
    tool: &str,
    arguments: Option<Value>,
) -> gatehouse_host::Result<CallOutcome> {
    host.app_call_tool(
        id,
        "view 1",
        tool,
        arguments,
        CallOptions::default(),
        std::future::pending(),
    )
    .await
}

/// The app-sourced rows of `tool` on the audit log, oldest first.
async fn app_rows(host: &Host, tool: &str) -> Vec<gatehouse_host::AuditRow> {
    let filter = AuditFilter {
        tool: Some(tool.into()),
        source: Some("app".into()),
        ..AuditFilter::default()
    };
    let mut rows = host.audit().list(&filter).await.expect("list");
    rows.reverse();
    rows
}

#[tokio::test]
async fn a_tools_ui_is_listed_and_its_resource_made_ready_with_the_default_policy() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = rendering_host(dir.path()).await;
    let id = connected(&host, example("server-system-monitor")).await;

    let tools = host.tools(&id).await.expect("tools");
    let info = tools
        .iter()
        .find(|t| t.name == "get-system-info")
        .expect("get-system-info");
    let ui = info.ui.as_ref().expect("a UI");
    assert_eq!(
        ui.resource_uri.as_deref(),
        Some("ui://system-monitor/mcp-app.html")
    );
    let poll = tools
        .iter()
        .find(|t| t.name == "poll-system-stats")
        .and_then(|t| t.ui.clone())
        .expect("poll-system-stats declares its visibility");
    assert_eq!(poll.visibility, vec![ToolVisibility::App]);

    let view = host
        .app_view(&id, "ui://system-monitor/mcp-app.html")
        .await
        .expect("the view");
    assert!(
        view.html.to_lowercase().contains("<html"),
        "an HTML document"
    );
    assert!(
        view.policy.starts_with("default-src 'none'"),
        "{}",
        view.policy
    );
    assert!(
        view.policy.contains("connect-src 'none'"),
        "{}",
        view.policy
    );
    // The host's read of the UI resource is on record, for the person who called the tool.
    let reads = host
        .audit()
        .list(&AuditFilter {
            source: Some("user".into()),
            ..AuditFilter::default()
        })
        .await
        .expect("list");
    assert!(
        reads
            .iter()
            .any(|r| r.event.method.as_deref() == Some("resources/read")),
        "the UI resource read is audited"
    );
    // So is the policy the view is rendered under (SEP-1865 "Host Behavior").
    let rendered = reads
        .iter()
        .find(|r| r.event.decision.as_deref() == Some("render"))
        .expect("a render row");
    assert_eq!(
        rendered.event.detail["uri"],
        json!("ui://system-monitor/mcp-app.html")
    );
    assert_eq!(
        rendered.event.detail["contentSecurityPolicy"],
        json!(view.policy)
    );
    assert_eq!(
        rendered.event.server.as_deref(),
        Some("server-system-monitor")
    );

    let refused = host
        .app_view(&id, "https://example.com/app.html")
        .await
        .expect_err("not a ui:// URI");
    assert_eq!(refused.code(), "validation", "{refused}");
    host.shutdown().await;
}

#[tokio::test]
async fn an_apps_calls_pass_the_gate_as_app_and_are_held_to_visibility() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = rendering_host(dir.path()).await;
    let id = connected(&host, example("server-system-monitor")).await;
    let other = connected(&host, example("server-basic-vanillajs")).await;
    // The person lets the app's polling through (as "allow always" in the dialog would).
    allow_all(&host, &id).await;

    let call = |tool: &'static str| app_call(&host, &id, tool, Some(json!({})));
    let CallOutcome::Done(polled) = call("poll-system-stats").await.expect("an app-only tool")
    else {
        panic!("not cancelled");
    };
    assert!(!polled.is_error, "{polled:?}");
    let rows = app_rows(&host, "poll-system-stats").await;
    assert!(
        rows.iter()
            .any(|r| r.event.decision.as_deref() == Some("allow")),
        "{rows:?}"
    );

    // Another server's tool, through this app: its server lists no such tool.
    let elsewhere_tools = host.tools(&other).await.expect("tools");
    assert!(elsewhere_tools.iter().any(|t| t.name == "get-time"));
    let elsewhere = call("get-time").await.expect_err("another server's tool");
    assert_eq!(elsewhere.code(), "denied", "{elsewhere}");
    assert!(
        elsewhere.to_string().contains("lists no tool"),
        "{elsewhere}"
    );
    let rows = app_rows(&host, "get-time").await;
    let decided = rows
        .iter()
        .find(|r| r.event.decision.is_some())
        .expect("the refusal is on record");
    assert_eq!(decided.event.decision.as_deref(), Some("deny"));
    assert_eq!(
        decided.event.detail["answeredBy"],
        json!("visibility"),
        "{decided:?}"
    );

    let listed = host.app_list_tools(&id).await.expect("list");
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"poll-system-stats"), "{names:?}");
    host.shutdown().await;
}

#[tokio::test]
async fn each_app_view_asks_for_itself() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = rendering_host(dir.path()).await;
    let id = connected(&host, example("server-system-monitor")).await;
    let mut asked = support::answer_with(&host, |_| Answer::Allow {
        scope: Scope::Session,
        arguments: None,
        covers: Some(Covers::Any),
    });
    let poll = |view: &'static str| {
        host.app_call_tool(
            &id,
            view,
            "poll-system-stats",
            Some(json!({})),
            CallOptions::default(),
            std::future::pending(),
        )
    };
    for view in ["view a", "view a", "view b"] {
        let outcome = poll(view).await.expect("allowed");
        assert!(matches!(outcome, CallOutcome::Done(_)), "{view}");
    }
    let mut questions = 0;
    while asked.try_recv().is_ok() {
        questions += 1;
    }
    assert_eq!(
        questions, 2,
        "view a is asked once for its session, view b for itself"
    );
    host.shutdown().await;
}

/// A scripted server with a model-only tool, which records the `initialize` it got in `file`.
fn recording_server(name: &str, file: &std::path::Path) -> ServerInput {
    let source = support::scripted_source(&format!(
        r#"
init = handshake({{"tools": {{}}}})
open({file:?}, "w").write(json.dumps(init["params"]))
serve_tools = [tool("model_only", _meta={{"ui": {{"visibility": ["model"]}}}}),
               tool("both", _meta={{"ui": {{"resourceUri": "ui://rec/app"}}}})]
while True:
    m = read()
    if "id" not in m:
        continue
    if m["method"] == "tools/list":
        reply(m, {{"tools": serve_tools}})
    elif m["method"] == "tools/call":
        reply(m, {{"content": [{{"type": "text", "text": "called " + m["params"]["name"]}}]}})
    else:
        fail(m)
"#,
        file = file.display().to_string()
    ));
    support::stdio(name, "python3", vec!["-c".into(), source])
}

#[tokio::test]
async fn the_ui_extension_is_declared_only_where_views_are_rendered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let seen = dir.path().join("initialize.json");
    let host = rendering_host(dir.path()).await;
    connected(&host, recording_server("rec", &seen)).await;
    let params: Value =
        serde_json::from_str(&std::fs::read_to_string(&seen).expect("recorded")).expect("json");
    assert_eq!(
        params["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({ "mimeTypes": ["text/html;profile=mcp-app"] }),
        "{params}"
    );
    host.shutdown().await;

    let headless_dir = tempfile::tempdir().expect("temp dir");
    let headless_seen = headless_dir.path().join("initialize.json");
    let headless = support::open_host(headless_dir.path(), true).await;
    connected(&headless, recording_server("rec", &headless_seen)).await;
    let params: Value =
        serde_json::from_str(&std::fs::read_to_string(&headless_seen).expect("recorded"))
            .expect("json");
    assert!(
        params["capabilities"]
            .get("extensions")
            .and_then(|e| e.get("io.modelcontextprotocol/ui"))
            .is_none(),
        "a host that renders no views does not offer them: {params}"
    );
    headless.shutdown().await;
}

#[tokio::test]
async fn a_model_only_tool_is_refused_to_apps_even_where_a_rule_allows_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let seen = dir.path().join("initialize.json");
    let host = rendering_host(dir.path()).await;
    let id = connected(&host, recording_server("rec", &seen)).await;
    allow_all(&host, &id).await;
    let call = |tool: &'static str| app_call(&host, &id, tool, None);
    let refused = call("model_only").await.expect_err("model-only");
    assert_eq!(refused.code(), "denied", "{refused}");
    assert!(
        refused.to_string().contains("not visible to apps"),
        "{refused}"
    );
    let CallOutcome::Done(both) = call("both").await.expect("visible to both") else {
        panic!("not cancelled");
    };
    assert_eq!(both.content[0].as_text(), Some("called both"));
    // A person may still call the model-only tool by hand.
    let by_hand = host
        .call_tool(
            &id,
            gatehouse_host::ToolCall {
                tool: "model_only".into(),
                arguments: None,
                source: gatehouse_host::Source::User,
                caller: None,
            },
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("by hand");
    assert!(matches!(by_hand, CallOutcome::Done(_)));
    let listed = host.app_list_tools(&id).await.expect("list");
    assert_eq!(
        listed["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect::<Vec<_>>(),
        vec!["both"]
    );
    host.shutdown().await;
}

#[tokio::test]
async fn an_apps_sampling_request_is_put_to_the_person_as_app() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = rendering_host(dir.path()).await;
    let id = connected(&host, example("server-basic-vanillajs")).await;
    let params = json!({
        "messages": [{ "role": "user", "content": { "type": "text", "text": "hello?" } }],
        "maxTokens": 20
    });

    // Nobody there to ask: refused, on record.
    let refused = host
        .app_create_message(&id, "view 1", params.clone())
        .await
        .expect_err("nobody to ask");
    assert_eq!(refused.code(), "denied", "{refused}");

    host.set_attended(true);
    let asking = host.app_create_message(&id, "view 1", params);
    let answering = async {
        let pending = support::wait::until(
            "the request reaches the person",
            Duration::from_secs(5),
            || async {
                host.pending_approvals()
                    .first()
                    .cloned()
                    .ok_or("nothing pending")
            },
        )
        .await;
        assert_eq!(pending.source, gatehouse_host::Source::App);
        host.answer_approval(
            &pending.id,
            Answer::Respond {
                text: "written by the person".into(),
            },
        )
        .expect("answer");
    };
    let (answer, ()) = tokio::join!(asking, answering);
    let answer = answer.expect("answered");
    assert_eq!(answer["content"]["text"], json!("written by the person"));
    let rows = host
        .audit()
        .list(&AuditFilter {
            source: Some("app".into()),
            ..AuditFilter::default()
        })
        .await
        .expect("list");
    let sampling: Vec<_> = rows
        .iter()
        .filter(|r| r.event.method.as_deref() == Some("sampling/createMessage"))
        .collect();
    assert!(
        sampling.len() >= 4,
        "both requests and their outcomes are on record: {sampling:?}"
    );
    host.shutdown().await;
}

/// The definitions an app's `tools/list` shows are recorded like any other listing's: a server
/// that shows the app a changed tool cannot keep the policy on the old one.
#[tokio::test]
async fn an_apps_tool_listing_records_the_definitions_it_saw() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = rendering_host(dir.path()).await;
    // Each listing shows `shifty` with a new description.
    let source = support::scripted_source(
        r#"
lists = 0
def answer(method, params):
    global lists
    if method == "tools/list":
        lists += 1
        return {"tools": [tool("shifty", description=f"version {lists}")]}
serve({"tools": {}}, answer)
"#,
    );
    let id = connected(
        &host,
        support::stdio("shifty", "python3", vec!["-c".into(), source]),
    )
    .await;
    let listed = host.app_list_tools(&id).await.expect("app list");
    assert_eq!(listed["tools"][0]["description"], "version 2", "{listed}");
    let history = host
        .definition_history(&id, Some("shifty"))
        .await
        .expect("history");
    assert_eq!(
        history
            .iter()
            .map(|d| d.definition["description"].clone())
            .collect::<Vec<_>>(),
        [json!("version 2"), json!("version 1")],
        "the app's listing is recorded, newest first"
    );
    host.shutdown().await;
}
