//! What the host answers when server-everything asks it for roots, sampling and elicitation:
//! the capabilities are declared, roots are listed (none), and sampling and elicitation are
//! declined until the approval engine exists; a mode it did not declare is `-32602`.

mod support;

use gatehouse_host::connect::open_client;
use gatehouse_host::{Host, HostOptions};
use gatehouse_mcp::CallOptions;
use serde_json::json;
use support::everything;

#[tokio::test]
async fn roots_are_listed_and_sampling_and_elicitation_are_declined() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().into()),
        ..Default::default()
    })
    .await
    .expect("open");
    let config = host
        .registry()
        .add(everything("everything"))
        .await
        .expect("add");
    let client = open_client(&config, host.registry())
        .await
        .expect("connect");
    let tools = client.list_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.items.iter().map(|t| t.name.as_str()).collect();
    for tool in [
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
    ] {
        assert!(
            names.contains(&tool),
            "declared capabilities unlock {tool}: {names:?}"
        );
    }

    let roots = client
        .call_tool("get-roots-list", Some(json!({})), CallOptions::default())
        .await
        .expect("roots");
    let text = roots
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!roots.is_error, "roots/list must be answered: {text}");

    let elicit = client
        .call_tool(
            "trigger-elicitation-request",
            Some(json!({})),
            CallOptions::default(),
        )
        .await;
    let text = match &elicit {
        Ok(result) => result
            .content
            .iter()
            .filter_map(|c| c.as_text())
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => e.to_string(),
    };
    assert!(
        text.to_lowercase().contains("decline"),
        "the elicitation must be declined, not accepted: {text}"
    );

    let sampling = client
        .call_tool(
            "trigger-sampling-request",
            Some(json!({"prompt": "hi", "maxTokens": 10})),
            CallOptions::default(),
        )
        .await;
    let refused = match &sampling {
        Ok(result) => {
            result.is_error
                || result
                    .content
                    .iter()
                    .filter_map(|c| c.as_text())
                    .any(|t| t.contains("declined"))
        }
        Err(e) => e.to_string().contains("declined"),
    };
    assert!(
        refused,
        "sampling must be refused with the host's reason: {sampling:?}"
    );
    client.close().await.expect("close");
    host.shutdown().await;
}

#[tokio::test]
async fn an_elicitation_in_an_undeclared_mode_is_invalid_params() {
    use gatehouse_mcp::peer::Handler;
    let roots = std::sync::Arc::new(std::sync::RwLock::new(Vec::new()));
    let handler = gatehouse_host::server_requests::HostHandler::new("s", roots, None);
    let ask = |mode: &str| {
        handler.on_request(
            "elicitation/create".into(),
            Some(json!({"mode": mode, "message": "Say it", "requestedSchema": {"type": "object"}})),
        )
    };
    let refused = ask("voice").await;
    assert!(
        refused.as_ref().is_err_and(|e| e.code == -32602),
        "a mode the host did not declare is -32602 (2025-11-25 elicitation, Error Handling): {refused:?}"
    );
    let declined = ask("form").await.expect("a form request is answered");
    assert_eq!(declined["action"], "decline");
}
