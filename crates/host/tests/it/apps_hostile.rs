//! The engine side of MCP Apps against the hostile fixture (tests/fixtures/python/hostile_app.py,
//! on the official Python SDK) next to server-everything: its tools carry their UI and
//! visibility (SEP-1865 "Resource Discovery"), its UI resource is made ready to render with the
//! CSP built from the one origin it declares, and what its app may call is held to visibility
//! and to its own server ("Visibility": a model-only tool and another server's tool are refused
//! even when a rule allows every call of that server), on record with the source `app`. The
//! report file the fixture writes shows from the server's side that a refused tool never ran,
//! and that the host declared the UI extension with its mimeType. The person's global app site
//! lists take the declared origin out of the view's policy, and back in.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{python_server, settled};
use gatehouse_host::policy::{Effect, Rule};
use gatehouse_host::{
    AuditFilter, AuditKind, CallOutcome, Host, HostError, HostOptions, ServerStatus, SiteList,
    ToolVisibility,
};
use gatehouse_mcp::CallOptions;
use serde_json::{Value, json};

const DECLARED: &str = "http://127.0.0.1:4599";
/// How a view names the declared origin refused because it is on this computer.
const LOOPBACK_REFUSED: &str = "http://127.0.0.1:4599 (this computer (loopback))";
const UI_URI: &str = "ui://hostile/app";

fn hostile(report: &Path) -> gatehouse_host::ServerInput {
    python_server(
        "hostile",
        "hostile_app.py",
        vec![
            "--declared-origin".into(),
            DECLARED.into(),
            "--report-file".into(),
            report.display().to_string(),
        ],
    )
}

/// A live host on `data` as a face that renders views has it (it declares the UI extension),
/// with the hostile server added, reporting to `report`.
async fn host_with_hostile(data: &Path, report: &Path) -> Host {
    let host = Host::open(HostOptions {
        data_dir: Some(data.to_path_buf()),
        live_sessions: true,
        render_apps: true,
        ..Default::default()
    })
    .await
    .expect("open");
    host.add_server(hostile(report)).await.expect("add hostile");
    host
}

async fn connected(host: &Host, name: &str) -> String {
    let status = settled(host, name).await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "{name} must connect: {status:?}"
    );
    host.server(name).await.expect("exists").config.id
}

/// A rule allowing every call of the server `server_id`.
fn allow_all(server_id: &str) -> Rule {
    Rule {
        id: String::new(),
        server: Some(server_id.to_owned()),
        tool: None,
        argument: None,
        effect: Effect::Allow,
        definition_hash: None,
        source: None,
        client: None,
    }
}

/// The report the fixture wrote.
fn report_of(file: &Path) -> Value {
    let text = std::fs::read_to_string(file).expect("the fixture writes its report file");
    serde_json::from_str(&text).expect("the report is JSON")
}

async fn app_call(
    host: &Host,
    server_id: &str,
    tool: &str,
    arguments: Value,
) -> gatehouse_host::Result<CallOutcome> {
    host.app_call_tool(
        server_id,
        "view 1",
        tool,
        Some(arguments),
        CallOptions::default(),
        std::future::pending(),
    )
    .await
}

#[tokio::test]
async fn the_hostile_apps_calls_are_held_to_visibility_and_to_its_own_server() {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report.json");
    let host = host_with_hostile(&dir.path().join("data"), &report).await;
    host.add_server(support::everything("everything"))
        .await
        .expect("add everything");
    let hostile_id = connected(&host, "hostile").await;
    let everything_id = connected(&host, "everything").await;

    // The tools, with their UI and who may call them.
    let tools: BTreeMap<_, _> = host
        .tools("hostile")
        .await
        .expect("tools")
        .into_iter()
        .map(|t| (t.name.clone(), t.ui))
        .collect();
    let ui = |name: &str| {
        tools[name]
            .clone()
            .unwrap_or_else(|| panic!("{name} has _meta.ui"))
    };
    assert_eq!(ui("hostile").resource_uri.as_deref(), Some(UI_URI));
    assert_eq!(
        ui("hostile").visibility,
        [ToolVisibility::Model, ToolVisibility::App]
    );
    assert_eq!(ui("report").resource_uri, None);
    assert_eq!(ui("report").visibility, [ToolVisibility::App]);
    assert_eq!(ui("model_only").visibility, [ToolVisibility::Model]);

    // The origin it declares is on this computer: refused until the person allows it.
    let refused = host.app_view(&hostile_id, UI_URI).await.expect("app view");
    assert!(refused.csp.connect_domains.is_empty(), "{:?}", refused.csp);
    assert!(
        refused.policy.contains("connect-src 'none'"),
        "{}",
        refused.policy
    );
    assert_eq!(refused.refused, [LOOPBACK_REFUSED]);
    host.add_app_site(SiteList::Allow, "127.0.0.1")
        .await
        .expect("allow this computer for apps");

    // The UI resource, with the CSP built from the one origin it declares.
    let view = host.app_view(&hostile_id, UI_URI).await.expect("app view");
    assert!(view.refused.is_empty(), "{:?}", view.refused);
    assert!(
        view.html
            .contains("<h1 id=\"hostile-title\">Hostile app</h1>")
    );
    assert!(
        view.html.contains(DECLARED),
        "the page knows the declared origin"
    );
    assert_eq!(view.csp.connect_domains, [DECLARED]);
    let connect_src = view
        .policy
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("connect-src"))
        .unwrap_or_else(|| panic!("a connect-src directive in {}", view.policy));
    assert_eq!(
        connect_src,
        format!("connect-src {DECLARED}"),
        "{}",
        view.policy
    );
    assert_eq!(view.prefers_border, Some(true));

    // Only the tools apps may call are listed to the app.
    let listed = host.app_list_tools(&hostile_id).await.expect("app tools");
    let mut names: Vec<_> = listed["tools"]
        .as_array()
        .expect("a tools array")
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["hostile", "report", "wipe"]);

    // Every call of both servers is allowed by rule: what refuses is the app guard.
    host.policy()
        .add(allow_all(&hostile_id))
        .await
        .expect("rule");
    host.policy()
        .add(allow_all(&everything_id))
        .await
        .expect("rule");

    let reported = app_call(
        &host,
        &hostile_id,
        "report",
        json!({"name": "probe", "kind": "info", "detail": "from the host test"}),
    )
    .await
    .expect("the app-only report tool is the app's to call");
    assert!(
        matches!(reported, CallOutcome::Done(ref r) if !r.is_error),
        "{reported:?}"
    );
    let after_report = report_of(&report);
    assert_eq!(after_report["results"][0]["name"], "probe");
    // SEP-1865 "Capability Negotiation": the server saw the extension with its mimeTypes.
    assert_eq!(
        after_report["client_ui_extension"],
        json!({"mimeTypes": ["text/html;profile=mcp-app"]})
    );

    for (tool, why) in [
        ("model_only", "visible to apps"),
        ("echo", "only call its own server's tools"),
    ] {
        match app_call(&host, &hostile_id, tool, json!({"message": "from the app"})).await {
            Err(HostError::Denied { reason, rule }) => {
                assert!(reason.contains(why), "{tool}: {reason}");
                assert_eq!(rule, None, "{tool}: refused by visibility, not by a rule");
            }
            other => panic!("the app's call of {tool} must be refused, got {other:?}"),
        }
    }
    assert_eq!(
        report_of(&report)["model_only_calls"],
        0,
        "model_only never ran"
    );
    // The person may still call the model-only tool themselves.
    host.call_tool(
        &hostile_id,
        gatehouse_host::ToolCall {
            tool: "model_only".into(),
            arguments: Some(json!({})),
            source: gatehouse_host::Source::User,
            caller: None,
        },
        CallOptions::default(),
        std::future::pending(),
    )
    .await
    .expect("the person's own call of model_only");
    assert_eq!(report_of(&report)["model_only_calls"], 1);

    // On record: the app's calls with the source app, the refusals as deny decisions.
    for (tool, finished) in [("report", true), ("model_only", false), ("echo", false)] {
        let rows = host
            .audit()
            .list(&AuditFilter {
                tool: Some(tool.into()),
                source: Some("app".into()),
                ..AuditFilter::default()
            })
            .await
            .expect("audit");
        assert!(!rows.is_empty(), "the app's {tool} call is audited");
        for row in &rows {
            assert_eq!(row.event.source.as_deref(), Some("app"));
            assert_eq!(
                row.event.server.as_deref(),
                Some("hostile"),
                "{tool}: {row:?}"
            );
        }
        let ok = rows
            .iter()
            .any(|r| r.event.kind == AuditKind::CallFinished && r.outcome() == "ok");
        assert_eq!(ok, finished, "{tool}: {rows:#?}");
        if !finished {
            assert!(
                rows.iter().any(|r| r.event.kind == AuditKind::Decision
                    && r.event.decision.as_deref() == Some("deny")),
                "{tool}: the refusal is a deny decision on record: {rows:#?}"
            );
        }
    }
}

#[tokio::test]
async fn the_persons_site_lists_narrow_what_the_app_may_reach() {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report.json");
    let data = dir.path().join("data");
    let host = host_with_hostile(&data, &report).await;
    let id = connected(&host, "hostile").await;
    let connect_src = |policy: &str| {
        policy
            .split("; ")
            .find(|d| d.starts_with("connect-src"))
            .map(str::to_owned)
            .unwrap_or_default()
    };

    // Blocked: the declared origin is taken out of the policy, and the view says so.
    let lists = host
        .add_app_site(SiteList::Block, " http://127.0.0.1:4599/ ")
        .await
        .expect("block");
    assert_eq!(lists.block, ["127.0.0.1"]);
    let view = host.app_view(&id, UI_URI).await.expect("view");
    assert!(view.csp.connect_domains.is_empty(), "{:?}", view.csp);
    assert_eq!(connect_src(&view.policy), "connect-src 'none'");
    assert_eq!(view.withheld, [DECLARED]);
    let rows = host
        .audit()
        .list(&AuditFilter {
            decision: Some("render".into()),
            ..AuditFilter::default()
        })
        .await
        .expect("render rows");
    assert_eq!(rows[0].event.detail["withheld"], json!([DECLARED]));
    assert_eq!(
        connect_src(
            rows[0].event.detail["contentSecurityPolicy"]
                .as_str()
                .unwrap_or_default()
        ),
        "connect-src 'none'"
    );

    // Moved to the allow list: the declared origin is kept, and nothing else could be added.
    let lists = host
        .add_app_site(SiteList::Allow, "127.0.0.1")
        .await
        .expect("allow");
    assert_eq!(
        (lists.allow.as_slice(), lists.block.len()),
        (&["127.0.0.1".to_owned()][..], 0)
    );
    let view = host.app_view(&id, UI_URI).await.expect("view");
    assert_eq!(connect_src(&view.policy), format!("connect-src {DECLARED}"));
    assert!(view.withheld.is_empty());

    // An allow list that does not cover the declared origin withholds it; set from another
    // host on the same data (as the CLI is), it applies to this host's next view.
    let other = Host::open(HostOptions {
        data_dir: Some(data.clone()),
        ..Default::default()
    })
    .await
    .expect("a second host");
    other
        .add_app_site(SiteList::Allow, "example.com")
        .await
        .expect("allow example.com");
    let lists = other.remove_app_site("127.0.0.1").await.expect("remove");
    assert_eq!(lists.allow, ["example.com"]);
    let view = host.app_view(&id, UI_URI).await.expect("view");
    // Not covered by the allow list, and on this computer: refused, saying so.
    assert_eq!(view.refused, [LOOPBACK_REFUSED]);
    assert_eq!(connect_src(&view.policy), "connect-src 'none'");

    // Bad input is refused with a reason, and every change is on record.
    let bad = host.add_app_site(SiteList::Block, "*.example.com").await;
    assert!(
        matches!(&bad, Err(HostError::Validation(m)) if m.contains("not a domain")),
        "{bad:?}"
    );
    let absent = host.remove_app_site("nowhere.example").await;
    assert!(
        matches!(&absent, Err(HostError::Validation(m)) if m.contains("neither")),
        "{absent:?}"
    );
    let mut changes = host
        .audit()
        .list(&AuditFilter::default())
        .await
        .expect("rows");
    changes.retain(|r| r.event.kind == AuditKind::PolicyChange);
    changes.reverse();
    let said: Vec<(String, String)> = changes
        .iter()
        .map(|r| {
            (
                r.event.detail["change"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                r.event.detail["domain"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            ("app site blocked".to_owned(), "127.0.0.1".to_owned()),
            ("app site allowed".to_owned(), "127.0.0.1".to_owned()),
            ("app site allowed".to_owned(), "example.com".to_owned()),
            ("app site removed".to_owned(), "127.0.0.1".to_owned()),
        ]
    );
    assert_eq!(changes[1].event.detail["was"], json!("block"));
}
