//! 2026-07-28 change notifications, cache hints and per-request logging against the TypeScript
//! SDK v2 fixture (tests/fixtures/ts-sdk-v2/server.mjs), over stdio and stateless Streamable
//! HTTP: `subscriptions/listen` delivers a tool-list change and a resource update routed by
//! subscription id, a `tools/list` with `ttlMs` is served from the cache until the notification
//! invalidates it, `logLevel` in `_meta` filters log messages, and a [`Listener`] reopens its
//! subscription after the server went away and came back.

use std::sync::Arc;
use std::time::Duration;

use crate::support::answers::{Answers, call_ok};
use crate::support::{HttpServer, ts_sdk_v2_js};
use gatehouse_mcp::{
    Client, ClientOptions, HttpMode, ListenerEvent, LogLevel, NotificationFilter, StdioConfig,
    SubscriptionEvent,
};
use serde_json::{Value, json};

/// A handler that remembers the notifications reaching it (those of no subscription).
fn noting() -> Arc<Answers> {
    Arc::new(Answers::accepting(json!({})))
}

async fn stdio_client(handler: Arc<Answers>) -> Client {
    let mut config = StdioConfig::new("node");
    config.args = vec![ts_sdk_v2_js(), "stdio".to_owned()];
    Client::connect_stdio(&config, ClientOptions::default(), handler)
        .await
        .expect("connect over stdio")
}

async fn http_client(server: &HttpServer, handler: Arc<Answers>) -> Client {
    Client::connect_http(
        &server.config("/mcp"),
        HttpMode::Auto,
        ClientOptions::default(),
        handler,
    )
    .await
    .expect("connect over Streamable HTTP")
}

async fn tool_names(client: &Client) -> Vec<String> {
    let tools = client.list_tools().await.expect("tools/list");
    tools.items.into_iter().map(|t| t.name).collect()
}

/// The next notification of a subscription, within a few seconds.
async fn next_notification(subscription: &mut gatehouse_mcp::Subscription) -> (String, Value) {
    let event = tokio::time::timeout(Duration::from_secs(10), subscription.next())
        .await
        .expect("a notification arrives");
    match event {
        SubscriptionEvent::Notification { method, params } => (method, params.unwrap_or_default()),
        SubscriptionEvent::Ended { graceful, reason } => {
            panic!("the subscription ended (graceful: {graceful}): {reason}")
        }
    }
}

async fn exercise(client: Client, notes: &Answers, new_tool: &str) {
    // tools/list says `ttlMs: 60000`. With no subscription open nothing announces a change, so
    // until then the client sees the cached list without asking again.
    let cached = tool_names(&client).await;
    let unannounced = format!("{new_tool}_unannounced");
    call_ok(&client, "add_tool", json!({"name": unannounced})).await;
    assert_eq!(tool_names(&client).await, cached, "served from the cache");

    // The server advertises list changes and resource subscriptions; prompts it has none of,
    // so they are not asked for.
    let wanted = NotificationFilter::all_lists(vec!["memo://note".into()]);
    let asked = client.supported_notifications(&wanted);
    assert!(asked.tools_list_changed && asked.resources_list_changed);
    assert!(!asked.prompts_list_changed, "no prompts capability");
    assert_eq!(asked.resource_subscriptions, ["memo://note"]);
    let mut subscription = client.listen(&wanted).await.expect("subscriptions/listen");
    assert_eq!(subscription.acknowledged(), &asked);
    // The open subscription waits for its answer, but is no call in flight.
    assert_eq!(client.peer().pending_count(), 1);
    assert_eq!(client.peer().calls_in_flight(), 0);

    // The list is served from the cache while fresh ...
    let before = tool_names(&client).await;
    assert!(!before.iter().any(|n| n == new_tool));
    assert!(client.peer().cache().fresh_until("tools/list").is_some());
    call_ok(&client, "add_tool", json!({"name": new_tool})).await;
    // ... and the change notification, routed to the subscription, makes it stale at once.
    let (method, params) = next_notification(&mut subscription).await;
    assert_eq!(method, "notifications/tools/list_changed");
    assert!(
        params["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number(),
        "{params}"
    );
    let after = tool_names(&client).await;
    assert!(after.iter().any(|n| n == new_tool), "{after:?}");
    assert!(
        after.contains(&unannounced),
        "the whole list was fetched again"
    );
    assert_eq!(
        call_ok(&client, new_tool, json!({"x": 1})).await,
        format!("{new_tool} {{\"x\":1}}")
    );

    // A resource update names the resource.
    call_ok(&client, "touch_note", json!({"text": "changed"})).await;
    let (method, params) = next_notification(&mut subscription).await;
    assert_eq!(method, "notifications/resources/updated");
    assert_eq!(params["uri"], "memo://note");

    // A missing resource is reported as such (-32602 in this era).
    match client.read_resource("memo://missing").await {
        Err(gatehouse_mcp::McpError::ResourceNotFound { uri, .. }) => {
            assert_eq!(uri, "memo://missing")
        }
        other => panic!("a missing resource: {other:?}"),
    }

    // Nothing of the subscription leaked to the handler.
    let leaked: Vec<_> = notes
        .take_told()
        .into_iter()
        .filter(|(m, _)| m.contains("list_changed") || m.contains("updated"))
        .collect();
    assert!(leaked.is_empty(), "{leaked:?}");

    // Per-request logLevel: below the level nothing comes; at or above it, the message arrives
    // with the request's response.
    client
        .set_log_level(LogLevel::Warning)
        .await
        .expect("set log level");
    call_ok(&client, "log", json!({"level": "info", "message": "quiet"})).await;
    call_ok(
        &client,
        "log",
        json!({"level": "error", "message": "loud", "logger": "fixture"}),
    )
    .await;
    let logs = notes.take_logs();
    assert_eq!(
        logs,
        [json!({"level": "error", "data": "loud", "logger": "fixture"})]
    );

    drop(subscription);
    client.close().await.expect("close");
}

#[tokio::test]
async fn listen_cache_and_logging_over_stdio() {
    let notes = noting();
    let client = stdio_client(notes.clone()).await;
    exercise(client, &notes, "added_over_stdio").await;
}

#[tokio::test]
async fn listen_cache_and_logging_over_streamable_http() {
    let server = HttpServer::ts_sdk_v2().await;
    let notes = noting();
    let client = http_client(&server, notes.clone()).await;
    exercise(client, &notes, "added_over_http").await;
}

#[tokio::test]
async fn a_listener_reopens_its_subscription_when_the_server_comes_back() {
    let server = HttpServer::ts_sdk_v2().await;
    let port = server.port;
    let client = http_client(&server, noting()).await;
    let mut listener = gatehouse_mcp::Listener::new(NotificationFilter::all_lists(Vec::new()));
    // Calls dropped while the subscription is being opened (as a `select!` in a loop does)
    // leave it pending; the next call carries on with it. One of the short calls may itself
    // see the acknowledgement: its event is the opening then, and no later call repeats it.
    let mut early = None;
    for _ in 0..3 {
        if let Ok(event) =
            tokio::time::timeout(Duration::from_micros(50), listener.next(&client)).await
        {
            early = Some(event);
            break;
        }
    }
    let opened = match early {
        Some(event) => event,
        None => tokio::time::timeout(Duration::from_secs(10), listener.next(&client))
            .await
            .expect("the subscription is acknowledged"),
    };
    assert!(
        matches!(&opened, ListenerEvent::Opened(agreed) if agreed.tools_list_changed),
        "{opened:?}"
    );

    drop(server);
    let lost = tokio::time::timeout(Duration::from_secs(10), listener.next(&client))
        .await
        .expect("the loss is noticed");
    assert!(matches!(lost, ListenerEvent::Lost { .. }), "{lost:?}");

    let _again = HttpServer::ts_sdk_v2_at(port).await;
    let mut events = Vec::new();
    let reopened = tokio::time::timeout(Duration::from_secs(40), async {
        loop {
            let event = listener.next(&client).await;
            if matches!(event, ListenerEvent::Opened(_)) {
                return event;
            }
            events.push(event);
        }
    })
    .await
    .expect("the subscription is reopened");
    assert!(matches!(reopened, ListenerEvent::Opened(_)));
    for event in &events {
        match event {
            ListenerEvent::Lost { retry_in, .. } => {
                assert!(*retry_in <= Duration::from_secs(30), "bounded backoff")
            }
            other => panic!("only losses before the reopening: {other:?}"),
        }
    }

    // The reopened subscription works.
    tokio::time::timeout(
        Duration::from_secs(20),
        call_ok(&client, "add_tool", json!({"name": "after_restart"})),
    )
    .await
    .expect("the call after the restart is answered");
    let event = tokio::time::timeout(Duration::from_secs(10), listener.next(&client))
        .await
        .expect("a notification arrives");
    assert!(
        matches!(&event, ListenerEvent::Notification { method, .. } if method == "notifications/tools/list_changed"),
        "{event:?}"
    );
    tokio::time::timeout(Duration::from_secs(20), client.close())
        .await
        .expect("the client closes")
        .expect("close");
}
