//! The typed features against the real `@modelcontextprotocol/server-everything` over stdio:
//! resources and templates, reading, subscriptions, prompts, completion, logging and ping.
//! Pagination and the capability checks are shown with a small script server, because
//! server-everything lists everything on one page and declares every capability.

use crate::support;

use std::collections::BTreeMap;
use std::time::Duration;

use crate::support::{everything, scripted};
use gatehouse_mcp::content::KnownContent;
use gatehouse_mcp::{
    CallOptions, Client, CompletionRef, Content, LogLevel, McpError, Role, StdioConfig,
};

async fn connect(config: &StdioConfig) -> Client {
    support::connect_stdio(config)
        .await
        .expect("the server must initialize")
}

#[tokio::test]
async fn lists_resources_and_templates() {
    let client = connect(&everything()).await;
    let resources = client.list_resources().await.expect("resources/list");
    let uris: Vec<&str> = resources.items.iter().map(|r| r.uri.as_str()).collect();
    assert!(
        uris.contains(&"demo://resource/static/document/features.md"),
        "the static documents are listed: {uris:?}"
    );
    assert!(
        resources.items.len() > 1 && resources.malformed.is_empty(),
        "every document is a valid resource: {uris:?}"
    );
    let features = resources
        .items
        .iter()
        .find(|r| r.name == "features.md")
        .expect("features.md by name");
    assert_eq!(
        features.mime_type.as_deref(),
        Some("text/markdown"),
        "the MIME type tells the UI how to show a resource"
    );

    let templates = client
        .list_resource_templates()
        .await
        .expect("resources/templates/list");
    let patterns: Vec<&str> = templates
        .items
        .iter()
        .map(|t| t.uri_template.as_str())
        .collect();
    assert!(
        patterns.contains(&"demo://resource/dynamic/text/{resourceId}")
            && patterns.contains(&"demo://resource/dynamic/blob/{resourceId}"),
        "both dynamic templates are listed: {patterns:?}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn reads_text_and_blob_resources() {
    let client = connect(&everything()).await;
    let text = client
        .read_resource("demo://resource/static/document/features.md")
        .await
        .expect("read a static document");
    assert_eq!(text.len(), 1);
    assert!(
        text[0].text.as_deref().is_some_and(|t| !t.is_empty()) && text[0].blob.is_none(),
        "a text resource comes back as text"
    );

    let blob = client
        .read_resource("demo://resource/dynamic/blob/1")
        .await
        .expect("read a template-made blob");
    assert_eq!(blob[0].uri, "demo://resource/dynamic/blob/1");
    assert!(
        blob[0]
            .blob
            .as_deref()
            .is_some_and(|b| b.starts_with("UmVzb3VyY2UgMTogVGhpcyBpcyBhIGJhc2U2NCBi")),
        "the blob is the base64 of `Resource 1: This is a base64 b…`: {:?}",
        blob[0]
    );
    assert!(blob[0].text.is_none(), "a blob has no text");

    let missing = client.read_resource("demo://resource/nowhere").await;
    assert!(
        matches!(missing, Err(McpError::Rpc { .. })),
        "an unknown resource is the server's error, not a crash: {missing:?}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn subscribes_and_unsubscribes() {
    let client = connect(&everything()).await;
    assert!(
        client.server_declares("resources.subscribe"),
        "server-everything offers subscriptions"
    );
    let uri = "demo://resource/static/document/features.md";
    client.subscribe(uri).await.expect("resources/subscribe");
    client
        .unsubscribe(uri)
        .await
        .expect("resources/unsubscribe");
    client.close().await.expect("close");
}

#[tokio::test]
async fn lists_and_gets_prompts_with_arguments() {
    let client = connect(&everything()).await;
    let prompts = client.list_prompts().await.expect("prompts/list");
    let args_prompt = prompts
        .items
        .iter()
        .find(|p| p.name == "args-prompt")
        .expect("args-prompt is listed");
    let arguments: Vec<(&str, bool)> = args_prompt
        .arguments
        .iter()
        .map(|a| (a.name.as_str(), a.required))
        .collect();
    assert_eq!(
        arguments,
        [("city", true), ("state", false)],
        "required-ness tells the UI which fields must be filled"
    );

    let filled = BTreeMap::from([
        ("city".to_owned(), "Paris".to_owned()),
        ("state".to_owned(), "TX".to_owned()),
    ]);
    let result = client
        .get_prompt("args-prompt", &filled)
        .await
        .expect("prompts/get");
    assert_eq!(result.messages.len(), 1);
    assert_eq!(result.messages[0].role, Role::User);
    assert_eq!(
        result.messages[0].content.as_text(),
        Some("What's weather in Paris, TX?"),
        "the arguments reach the server"
    );

    let embedded = BTreeMap::from([
        ("resourceType".to_owned(), "Text".to_owned()),
        ("resourceId".to_owned(), "3".to_owned()),
    ]);
    let result = client
        .get_prompt("resource-prompt", &embedded)
        .await
        .expect("a prompt with an embedded resource");
    assert!(
        result.messages.iter().any(|m| matches!(
            &m.content,
            Content::Known(KnownContent::Resource { resource, .. })
                if resource.uri == "demo://resource/dynamic/text/3"
        )),
        "the embedded resource is parsed: {:?}",
        result.messages
    );

    let missing = client.get_prompt("args-prompt", &BTreeMap::new()).await;
    assert!(
        matches!(missing, Err(McpError::Rpc { .. })),
        "a missing required argument is refused by the server: {missing:?}"
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn completes_prompt_arguments_and_template_variables() {
    let client = connect(&everything()).await;
    let prompt = CompletionRef::Prompt {
        name: "completable-prompt".into(),
    };
    let departments = client
        .complete(&prompt, "department", "S", None)
        .await
        .expect("completion/complete for a prompt");
    assert_eq!(departments.values, ["Sales", "Support"]);

    let context = BTreeMap::from([("department".to_owned(), "Engineering".to_owned())]);
    let names = client
        .complete(&prompt, "name", "", Some(&context))
        .await
        .expect("completion with context");
    assert_eq!(
        names.values,
        ["Alice", "Bob", "Charlie"],
        "the context narrows the second argument"
    );

    let template = CompletionRef::ResourceTemplate {
        uri: "demo://resource/dynamic/text/{resourceId}".into(),
    };
    let ids = client
        .complete(&template, "resourceId", "7", None)
        .await
        .expect("completion/complete for a template variable");
    assert_eq!(ids.values, ["7"]);
    client.close().await.expect("close");
}

#[tokio::test]
async fn sets_the_log_level_and_pings() {
    let client = connect(&everything()).await;
    for level in [LogLevel::Debug, LogLevel::Error] {
        client
            .set_log_level(level)
            .await
            .expect("logging/setLevel is accepted");
    }
    let rtt = client.ping().await.expect("ping");
    assert!(
        rtt < Duration::from_secs(5),
        "a local server answers ping quickly: {rtt:?}"
    );
    client.close().await.expect("close");
}

/// A script server that lists resources on three pages and declares only `resources`.
const PAGINATING: &str = r#"
handshake({"resources": {}}, name="pages")
pages = {None: ("p2", ["a", "b"]), "p2": ("p3", ["c"]), "p3": (None, ["d"])}
while True:
    line = sys.stdin.readline()
    if not line: break
    req = json.loads(line)
    if req.get("method") == "ping":
        send({"jsonrpc": "2.0", "id": req["id"], "result": {}})
        continue
    if req.get("method") != "resources/list":
        send({"jsonrpc": "2.0", "id": req.get("id"), "error": {"code": -32601, "message": "nope"}})
        continue
    cursor = (req.get("params") or {}).get("cursor")
    nxt, names = pages[cursor]
    result = {"resources": [{"uri": "x://" + n, "name": n} for n in names]}
    if nxt: result["nextCursor"] = nxt
    send({"jsonrpc": "2.0", "id": req["id"], "result": result})
"#;

#[tokio::test]
async fn follows_every_page_and_refuses_undeclared_features() {
    let client = connect(&scripted(PAGINATING)).await;
    let resources = client.list_resources().await.expect("three pages");
    let names: Vec<&str> = resources.items.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        ["a", "b", "c", "d"],
        "every page is followed, in order, with its cursor"
    );

    let subscribe = client.subscribe("x://a").await;
    assert!(
        matches!(&subscribe, Err(McpError::NotSupported { capability, .. }) if capability == "resources.subscribe"),
        "subscribing without `resources.subscribe` is refused before sending: {subscribe:?}"
    );
    let prompts = client.list_prompts().await;
    assert!(
        matches!(&prompts, Err(McpError::NotSupported { capability, .. }) if capability == "prompts"),
        "an undeclared feature is never requested (the script would answer -32601): {prompts:?}"
    );
    for refused in [
        client.set_log_level(LogLevel::Info).await.err(),
        client
            .complete(&CompletionRef::Prompt { name: "p".into() }, "a", "", None)
            .await
            .err(),
    ] {
        assert!(
            matches!(refused, Some(McpError::NotSupported { .. })),
            "logging and completion need their capabilities: {refused:?}"
        );
    }
    client.ping().await.expect("ping needs no capability");
    client.close().await.expect("close");
}

/// A script server that declares only `prompts` and answers `prompts/list` with one prompt per
/// request it received, named after the request's method, so a test can see what reached it.
const PROMPTS_ONLY: &str = r#"
handshake({"prompts": {}}, name="prompts-only")
seen = []
while True:
    req = read()
    if "id" not in req: continue
    seen.append(req.get("method"))
    if req.get("method") == "prompts/list":
        reply(req, {"prompts": [{"name": m} for m in seen]})
    else:
        fail(req)
"#;

#[tokio::test]
async fn tools_need_the_tools_capability() {
    let client = connect(&scripted(PROMPTS_ONLY)).await;
    let listed = client.list_tools().await;
    assert!(
        matches!(&listed, Err(McpError::NotSupported { capability, .. }) if capability == "tools"),
        "a server without `tools` is not asked for its tools (2025-11-25 lifecycle: only \
         negotiated capabilities are used): {listed:?}"
    );
    let called = client
        .call_tool("echo", Some(serde_json::json!({})), CallOptions::default())
        .await;
    assert!(
        matches!(&called, Err(McpError::NotSupported { capability, .. }) if capability == "tools"),
        "nor is a tool called on it: {called:?}"
    );
    let prompts = client.list_prompts().await.expect("prompts/list");
    let seen: Vec<&str> = prompts.items.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        seen,
        ["prompts/list"],
        "no tools/* request may reach a server that did not declare tools"
    );
    client.close().await.expect("close");
}
