//! The same features over server-everything's HTTP modes as over stdio: resources, templates,
//! subscriptions, prompts, completion, logging, ping, and a long-running tool with progress and
//! with cancellation, on Streamable HTTP and on legacy HTTP+SSE.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use gatehouse_mcp::peer::RefusingHandler;
use gatehouse_mcp::{
    CallOptions, Client, ClientOptions, CompletionRef, HttpConfig, HttpMode, LogLevel,
};
use serde_json::json;
use tokio::process::{Child, Command};

struct HttpServer {
    _child: Child,
    port: u16,
}

async fn start(mode: &str) -> HttpServer {
    let js = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        js.is_file(),
        "server-everything is missing: run scripts/install-test-deps.sh"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let child = Command::new("node")
        .arg(&js)
        .arg(mode)
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("node starts");
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return HttpServer {
                _child: child,
                port,
            };
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("server-everything {mode} did not listen within 10 s");
}

async fn exercise(mode: &str, path: &str) {
    let server = start(mode).await;
    let url = url::Url::parse(&format!("http://127.0.0.1:{}{path}", server.port)).expect("url");
    let client = Client::connect_http(
        &HttpConfig::new(url),
        HttpMode::Auto,
        ClientOptions::default(),
        Arc::new(RefusingHandler),
    )
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

    let (progress_tx, mut progress) = tokio::sync::mpsc::unbounded_channel();
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
