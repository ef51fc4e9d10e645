//! Interop with the reference servers server-filesystem (which takes its allowed directories
//! from the client's roots) and server-memory (a knowledge graph), over stdio.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use crate::support::{package_js, text};
use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use gatehouse_mcp::{CallOptions, Client, ClientOptions, StdioConfig};
use serde_json::{Value, json};

fn server(package: &str) -> StdioConfig {
    let mut config = StdioConfig::new("node");
    config.args = vec![package_js(package)];
    config
}

/// Answers `roots/list` with one directory.
struct OneRoot(String);

impl Handler for OneRoot {
    fn on_request(
        &self,
        method: String,
        _params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let uri = self.0.clone();
        Box::pin(async move {
            match method.as_str() {
                "roots/list" => Ok(json!({ "roots": [{ "uri": uri, "name": "workspace" }] })),
                _ => Err(RpcError {
                    code: -32601,
                    message: format!("method not found: {method}"),
                    data: None,
                }),
            }
        })
    }
}

fn file_uri(dir: &Path) -> String {
    format!("file://{}", dir.display())
}

#[tokio::test]
async fn server_filesystem_works_inside_the_roots_the_client_gives() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical");
    std::fs::write(root.join("hello.txt"), "hello from the root").expect("write");
    let mut options = ClientOptions::default();
    options
        .capabilities
        .insert("roots".into(), json!({ "listChanged": true }));
    // No directories on the command line: the server must take them from roots/list.
    let client = Client::connect_stdio(
        &server("server-filesystem"),
        options,
        Arc::new(OneRoot(file_uri(&root))),
    )
    .await
    .expect("connect");
    let allowed = support::wait::until(
        "the root becomes an allowed directory",
        std::time::Duration::from_secs(5),
        || async {
            let result = client
                .call_tool(
                    "list_allowed_directories",
                    Some(json!({})),
                    CallOptions::default(),
                )
                .await
                .expect("list_allowed_directories");
            let allowed = text(&result);
            if allowed.contains(&root.display().to_string()) {
                Ok(allowed)
            } else {
                Err(allowed)
            }
        },
    )
    .await;
    assert!(
        allowed.contains(&root.display().to_string()),
        "the root becomes an allowed directory: {allowed}"
    );
    let read = client
        .call_tool(
            "read_text_file",
            Some(json!({ "path": root.join("hello.txt") })),
            CallOptions::default(),
        )
        .await
        .expect("read_text_file");
    assert_eq!(text(&read), "hello from the root");
    let outside = client
        .call_tool(
            "read_text_file",
            Some(json!({ "path": "/etc/hostname" })),
            CallOptions::default(),
        )
        .await
        .expect("a refusal is a tool result");
    assert!(
        outside.is_error,
        "reading outside the roots must fail: {}",
        text(&outside)
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn server_memory_keeps_a_knowledge_graph() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = server("server-memory");
    config.env = vec![(
        "MEMORY_FILE_PATH".into(),
        dir.path().join("memory.jsonl").display().to_string(),
    )];
    let client = support::connect_stdio(&config).await.expect("connect");
    let entities = json!({"entities": [
        {"name": "Gatehouse", "entityType": "project", "observations": ["an MCP host"]},
        {"name": "Rust", "entityType": "language", "observations": []}
    ]});
    let created = client
        .call_tool("create_entities", Some(entities), CallOptions::default())
        .await
        .expect("create");
    assert!(!created.is_error, "{}", text(&created));
    let relation = json!({"relations": [{"from": "Gatehouse", "to": "Rust", "relationType": "is written in"}]});
    client
        .call_tool("create_relations", Some(relation), CallOptions::default())
        .await
        .expect("relate");
    let found = client
        .call_tool(
            "search_nodes",
            Some(json!({"query": "MCP host"})),
            CallOptions::default(),
        )
        .await
        .expect("search");
    assert!(
        text(&found).contains("Gatehouse"),
        "the observation is searchable: {}",
        text(&found)
    );
    let graph = client
        .call_tool("read_graph", Some(json!({})), CallOptions::default())
        .await
        .expect("read");
    assert!(
        text(&graph).contains("is written in"),
        "the relation is kept: {}",
        text(&graph)
    );
    client.close().await.expect("close");
}
