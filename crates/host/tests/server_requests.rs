//! What the host answers when server-everything asks it for roots, sampling and elicitation:
//! the capabilities are declared, roots are listed (none), and sampling and elicitation are
//! declined until the approval engine exists.

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
