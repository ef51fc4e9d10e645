//! The demo server a first run offers (`gatehouse demo-server`), as a real stdio server through
//! the engine: added by `Host::add_demo_server` with the default stop graces, its tools listed
//! and called, its resources and template read, its template's and prompt's arguments
//! completed, its prompt got, every request through the gate and the call on the audit log.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use gatehouse_host::server_requests::HostHandler;
use gatehouse_host::{
    AuditFilter, AuditKind, CallOutcome, DEMO_SERVER, ServerSpec, Source, ToolCall,
};
use gatehouse_mcp::{CallOptions, CompletionRef};
use serde_json::json;

use crate::support::open_engine;

#[tokio::test]
async fn the_demo_server_lists_calls_reads_completes_and_prompts_through_the_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = open_engine(dir.path()).await;
    host.set_setting("stop-term-grace", "1500")
        .await
        .expect("set the default stop grace");
    let gatehouse = Path::new(env!("CARGO_BIN_EXE_gatehouse"));
    let added = host.add_demo_server(gatehouse).await.expect("add");
    assert_eq!(added.config.name, DEMO_SERVER);
    let ServerSpec::Stdio { args, stop, .. } = &added.config.spec else {
        panic!("a stdio server: {:?}", added.config.spec);
    };
    assert_eq!(args, &["demo-server"]);
    assert_eq!(
        stop.term_ms, 1500,
        "the default stop grace from the settings"
    );
    let again = host.add_demo_server(gatehouse).await.expect("add again");
    assert_eq!(again.config.id, added.config.id, "added once");

    let connection = host
        .connect(DEMO_SERVER, |config| {
            Arc::new(HostHandler::for_config(config))
        })
        .await
        .expect("connect");
    let declared = connection
        .client()
        .initialize_result()
        .server_info
        .extra
        .get("icons")
        .cloned();
    let icon = gatehouse_host::icons::ServerIcons::new()
        .resolve(
            "demo",
            declared.as_ref(),
            None,
            &gatehouse_host::icons::IconOrigin::Any,
        )
        .await;
    assert!(
        icon.is_some_and(|uri| uri.starts_with("data:image/png;base64,iVBOR")),
        "the demo server's inline icon passes the window's checks"
    );
    let tools: Vec<String> = connection
        .list_tools()
        .await
        .expect("tools")
        .items
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(tools, ["echo", "add", "current_time"]);

    let call = |tool: &str, arguments: serde_json::Value| ToolCall {
        tool: tool.into(),
        arguments: Some(arguments),
        source: Source::User,
        caller: None,
    };
    let outcome = connection
        .call_tool(
            call("add", json!({ "a": 2, "b": 40.5 })),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("add");
    let CallOutcome::Done(result) = outcome else {
        panic!("not cancelled");
    };
    assert_eq!(result.structured_content, Some(json!({ "sum": 42.5 })));
    let outcome = connection
        .call_tool(
            call("add", json!({ "a": "two" })),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("a tool error is a result");
    let CallOutcome::Done(refused) = outcome else {
        panic!("not cancelled");
    };
    assert!(refused.is_error, "{refused:?}");

    let readme = connection
        .read_resource("demo://readme", Source::User)
        .await
        .expect("read");
    assert_eq!(readme[0].mime_type.as_deref(), Some("text/markdown"));
    assert!(
        readme[0]
            .text
            .as_deref()
            .unwrap_or("")
            .contains("demo server")
    );
    let logo = connection
        .read_resource("demo://logo", Source::User)
        .await
        .expect("read the blob");
    assert!(logo[0].blob.as_deref().unwrap_or("").starts_with("iVBOR"));
    let greeting = connection
        .read_resource("demo://greeting/Grace", Source::User)
        .await
        .expect("read through the template");
    assert_eq!(
        greeting[0].text.as_deref(),
        Some("Hello, Grace! This greeting came from the demo server.")
    );
    assert!(
        connection
            .read_resource("demo://nothing", Source::User)
            .await
            .is_err()
    );

    let template = CompletionRef::ResourceTemplate {
        uri: "demo://greeting/{name}".into(),
    };
    let names = connection
        .complete(&template, "name", "a", None, Source::User)
        .await
        .expect("complete");
    assert_eq!(names.values, ["Ada", "Alan"]);
    let prompt = CompletionRef::Prompt {
        name: "greet".into(),
    };
    let styles = connection
        .complete(&prompt, "style", "p", None, Source::User)
        .await
        .expect("complete");
    assert_eq!(styles.values, ["pirate"]);

    let arguments = BTreeMap::from([
        ("name".to_owned(), "Ada".to_owned()),
        ("style".to_owned(), "formal".to_owned()),
    ]);
    let got = connection
        .get_prompt("greet", &arguments, Source::User)
        .await
        .expect("prompt");
    let messages = serde_json::to_value(&got.messages).expect("JSON");
    assert_eq!(
        messages[0]["content"]["text"],
        "Please greet Ada in a formal way."
    );
    assert_eq!(messages[1]["content"]["type"], "resource");
    connection.close(Ok(())).await.expect("close");

    let rows = host
        .audit()
        .list(&AuditFilter {
            server: Some(DEMO_SERVER.into()),
            tool: Some("add".into()),
            ..Default::default()
        })
        .await
        .expect("audit");
    assert!(
        rows.iter().any(|r| r.event.kind == AuditKind::CallFinished),
        "the call is on the audit log: {rows:?}"
    );
}
