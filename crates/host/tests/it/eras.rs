//! Modern and legacy servers side by side in one host, the era remembered per server, and a
//! server whose remembered era is wrong probed again. The modern one is the dual-era Python SDK
//! server (tests/fixtures/python), the legacy one server-everything.

use crate::support;

use crate::support::{everything as everything_named, settled};
use gatehouse_host::connect::open_client;
use gatehouse_host::watching::WatchEvent;
use gatehouse_host::{Host, ServerInput, ServerSpec, ServerStatus};
use gatehouse_mcp::Era;

fn python() -> ServerInput {
    support::python_server("python", "server.py", vec!["stdio".into()])
}

/// The protocol version and era a server connected with.
async fn connected_version(host: &Host, name: &str) -> (String, String) {
    match settled(host, name).await {
        ServerStatus::Connected {
            protocol_version,
            era,
            ..
        } => (protocol_version, era),
        other => panic!("{name} must connect, got {other:?}"),
    }
}

#[tokio::test]
async fn modern_and_legacy_servers_work_side_by_side_and_their_eras_are_remembered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    host.add_server(python()).await.expect("add python");
    host.add_server(everything_named("everything"))
        .await
        .expect("add everything");
    assert_eq!(
        connected_version(&host, "python").await,
        ("2026-07-28".into(), "modern".into()),
        "the dual-era server is spoken to as modern"
    );
    assert_eq!(
        connected_version(&host, "everything").await,
        ("2025-11-25".into(), "legacy".into()),
        "the legacy server still works beside it"
    );

    let python = host.registry().get("python").await.expect("python");
    let everything = host.registry().get("everything").await.expect("everything");
    assert_eq!(
        host.registry().cached_era(&python).await,
        Some(Era::Modern),
        "the finding is remembered"
    );
    assert_eq!(
        host.registry().cached_era(&everything).await,
        Some(Era::Legacy)
    );

    // A remembered era that no longer holds: the server is probed again and the record fixed.
    host.registry()
        .remember_era(&everything, Era::Modern)
        .await
        .expect("write");
    let client = open_client(&everything, host.registry())
        .await
        .expect("re-probed connection");
    assert_eq!(client.era(), Era::Legacy);
    client.close().await.expect("close");
    assert_eq!(
        host.registry().cached_era(&everything).await,
        Some(Era::Legacy),
        "the record is corrected"
    );

    // An edited configuration is probed afresh.
    let mut edited = everything.clone();
    if let ServerSpec::Stdio { args, .. } = &mut edited.spec {
        args.push("--extra".into());
    }
    assert_eq!(
        host.registry().cached_era(&edited).await,
        None,
        "a finding holds only for its configuration"
    );
    host.shutdown().await;
}

/// Calls the TypeScript fixture's `add_tool` on `server` from a connection of its own.
async fn add_tool_from_another_client(host: &Host, server: &str, arguments: serde_json::Value) {
    let config = host.registry().get(server).await.expect("config");
    let other = open_client(&config, host.registry()).await.expect("client");
    let added = other
        .call_tool(
            "add_tool",
            Some(arguments),
            gatehouse_mcp::CallOptions::default(),
        )
        .await
        .expect("add_tool");
    assert!(!added.is_error);
    other.close().await.expect("close");
}

#[tokio::test]
async fn a_modern_session_follows_tool_changes_through_its_subscription() {
    let (_server, url) = support::ts_sdk_v2_http().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    host.add_server(support::http("modern", &url))
        .await
        .expect("add");
    assert_eq!(
        connected_version(&host, "modern").await,
        ("2026-07-28".into(), "modern".into())
    );
    let mut events = host.subscribe();

    // Another client changes the server's tools; the session hears of it on its
    // `subscriptions/listen` stream and lists the tools again.
    add_tool_from_another_client(
        &host,
        "modern",
        serde_json::json!({"name": "added_elsewhere"}),
    )
    .await;

    support::wait::until(
        "the session's tool list follows the server",
        std::time::Duration::from_secs(10),
        || async {
            let tools = host.tools("modern").await.expect("tools");
            let names: Vec<String> = tools.into_iter().map(|t| t.name).collect();
            if names.iter().any(|n| n == "added_elsewhere") {
                Ok(())
            } else {
                Err(names)
            }
        },
    )
    .await;
    let mut announced = false;
    while let Ok(event) = events.try_recv() {
        announced |= matches!(event, gatehouse_host::EngineEvent::ServerStatus { ref id, status: ServerStatus::Connected { .. } } if !id.is_empty());
    }
    assert!(announced, "the new list is announced");
    host.shutdown().await;
}

#[tokio::test]
async fn a_tool_list_past_its_ttl_is_fetched_again_when_next_needed() {
    let (_server, url) = support::ts_sdk_v2_http_with(&[("TOOLS_TTL_MS", "4000")]).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    host.add_server(support::http("ttl", &url))
        .await
        .expect("add");
    assert!(matches!(
        settled(&host, "ttl").await,
        ServerStatus::Connected { .. }
    ));
    let listed = std::time::Instant::now();
    // The list's life runs on tokio's clock (the one the session's cache reads), which the
    // test moves forward rather than waiting out.
    let listed_at = tokio::time::Instant::now();

    // A change nobody announces: the session learns of it only when its list goes stale.
    add_tool_from_another_client(
        &host,
        "ttl",
        serde_json::json!({"name": "silently_added", "silent": true}),
    )
    .await;

    let names = |tools: Vec<gatehouse_host::ToolInfo>| -> Vec<String> {
        tools.into_iter().map(|t| t.name).collect()
    };
    // While the list is fresh, asking for it (twice, time apart) fetches nothing.
    for _ in 0..2 {
        let fresh = names(host.tools("ttl").await.expect("tools"));
        assert!(
            !fresh.iter().any(|n| n == "silently_added"),
            "a fresh list is not fetched again: {fresh:?}"
        );
        advance(std::time::Duration::from_millis(500)).await;
    }
    assert!(
        listed.elapsed() < std::time::Duration::from_millis(3800),
        "the checks ran while the list was fresh"
    );
    let stale_at = listed_at + std::time::Duration::from_millis(4100);
    advance(stale_at.saturating_duration_since(tokio::time::Instant::now())).await;
    // Asking for a stale list returns it and fetches it again in the background.
    support::wait::until(
        "the stale list is fetched again",
        std::time::Duration::from_secs(5),
        || async {
            let listed = names(host.tools("ttl").await.expect("tools"));
            if listed.contains(&"silently_added".to_owned()) {
                Ok(())
            } else {
                Err(listed)
            }
        },
    )
    .await;
    host.shutdown().await;
}

/// Moves tokio's clock forward by `by` at once, then lets it run on with the real one.
async fn advance(by: std::time::Duration) {
    tokio::time::pause();
    tokio::time::advance(by).await;
    tokio::time::resume();
}

#[tokio::test]
async fn a_watch_on_the_live_session_hears_its_changes_without_a_second_connection() {
    let (_server, url) = support::ts_sdk_v2_http().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let host = std::sync::Arc::new(support::open_host(dir.path(), true).await);
    host.add_server(support::http("watched", &url))
        .await
        .expect("add");
    connected_version(&host, "watched").await;
    let (events, mut received) = tokio::sync::mpsc::channel(16);
    let watching = tokio::spawn({
        let host = host.clone();
        async move { host.watch("watched", &[], events).await }
    });
    let watching_now = tokio::time::timeout(std::time::Duration::from_secs(10), received.recv())
        .await
        .expect("the watch opens within 10 s");
    assert!(
        matches!(&watching_now, Some(WatchEvent::Watching { what }) if what.contains("tool list")),
        "{watching_now:?}"
    );

    add_tool_from_another_client(&host, "watched", serde_json::json!({"name": "seen"})).await;
    let heard = support::wait::until(
        "the watcher hears the tool list change",
        std::time::Duration::from_secs(10),
        || {
            let next = received.try_recv();
            async move {
                match next {
                    Ok(WatchEvent::Notification { method, .. }) => Ok(method),
                    other => Err(format!("{other:?}")),
                }
            }
        },
    )
    .await;
    assert_eq!(heard, "notifications/tools/list_changed");

    // The watcher going away ends the watch; the session goes on.
    drop(received);
    let ended = tokio::time::timeout(std::time::Duration::from_secs(10), watching)
        .await
        .expect("the watch ends once nobody reads it")
        .expect("the watch task");
    assert!(ended.is_ok(), "{ended:?}");
    assert!(
        host.tools("watched").await.is_ok(),
        "the session is still connected"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_that_is_not_connected_cannot_be_watched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    host.add_server(everything_named("idle"))
        .await
        .expect("add");
    let (events, _received) = tokio::sync::mpsc::channel(1);
    let refused = host
        .watch("idle", &[], events)
        .await
        .expect_err("no live session");
    assert_eq!(
        refused.code(),
        gatehouse_host::ErrorCode::NotConnected,
        "{refused}"
    );
}
