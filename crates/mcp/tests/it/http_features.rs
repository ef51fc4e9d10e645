//! The same features over server-everything's HTTP modes as over stdio: resources, templates,
//! subscriptions, prompts, completion, logging, ping, and a long-running tool with progress and
//! with cancellation, on Streamable HTTP and on legacy HTTP+SSE.

use crate::support;

use std::collections::BTreeMap;
use std::time::Duration;

use crate::support::HttpServer;
use gatehouse_mcp::{CallOptions, CompletionRef, HttpMode, LogLevel};
use serde_json::json;

async fn exercise(mode: &str, path: &str) {
    let server = HttpServer::everything(mode).await;
    let client = support::connect_http(&server.config(path), HttpMode::Auto)
        .await
        .expect("connect");

    let resources = client.list_resources().await.expect("resources/list");
    assert!(!resources.items.is_empty(), "{mode}: resources are listed");
    let templates = client.list_resource_templates().await.expect("templates");
    assert!(!templates.items.is_empty(), "{mode}: templates are listed");
    let read = client
        .read_resource("demo://resource/dynamic/text/2")
        .await
        .expect("read");
    assert!(
        read[0].text.as_deref().is_some_and(|t| !t.is_empty()),
        "{mode}: a text resource is read"
    );
    client
        .subscribe("demo://resource/dynamic/text/2")
        .await
        .expect("subscribe");
    client
        .unsubscribe("demo://resource/dynamic/text/2")
        .await
        .expect("unsubscribe");

    let filled = BTreeMap::from([("city".to_owned(), "Oslo".to_owned())]);
    let prompt = client
        .get_prompt("args-prompt", &filled)
        .await
        .expect("prompts/get");
    assert!(
        prompt.messages[0]
            .content
            .as_text()
            .is_some_and(|t| t.contains("Oslo")),
        "{mode}: prompt arguments arrive"
    );
    let completion = client
        .complete(
            &CompletionRef::Prompt {
                name: "completable-prompt".into(),
            },
            "department",
            "S",
            None,
        )
        .await
        .expect("completion/complete");
    assert!(
        !completion.values.is_empty(),
        "{mode}: completions come back"
    );
    client
        .set_log_level(LogLevel::Debug)
        .await
        .expect("logging/setLevel");
    client.ping().await.expect("ping");

    let (progress_tx, mut progress) =
        tokio::sync::mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let options = CallOptions {
        progress: Some(progress_tx),
        ..CallOptions::default()
    };
    let result = client
        .call_tool(
            "trigger-long-running-operation",
            Some(json!({"duration": 1, "steps": 3})),
            options,
        )
        .await
        .expect("a long call with progress");
    assert!(!result.is_error);
    let mut updates = 0;
    while progress.try_recv().is_ok() {
        updates += 1;
    }
    assert_eq!(
        updates, 3,
        "{mode}: every progress update arrives on this transport"
    );

    let abandoned = tokio::time::timeout(
        Duration::from_millis(300),
        client.call_tool(
            "trigger-long-running-operation",
            Some(json!({"duration": 5, "steps": 5})),
            CallOptions::default(),
        ),
    )
    .await;
    assert!(
        abandoned.is_err(),
        "{mode}: the call was still running when abandoned"
    );
    let echo = client
        .call_tool(
            "echo",
            Some(json!({"message": "still here"})),
            CallOptions::default(),
        )
        .await
        .expect("echo");
    assert!(
        echo.content[0]
            .as_text()
            .is_some_and(|t| t.contains("still here")),
        "{mode}: the connection survives a cancel"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn every_feature_works_over_streamable_http() {
    exercise("streamableHttp", "/mcp").await;
}

#[tokio::test]
async fn every_feature_works_over_legacy_sse() {
    exercise("sse", "/sse").await;
}
